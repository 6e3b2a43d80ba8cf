#!/usr/bin/env bash
# The project's one test command (README "Tests"; .ci/run calls it): the Rust
# tests (release profile, sharing the README's `cargo run --release` build),
# then the Python package's tests. It makes its own virtualenv in
# target/pyenv and installs the test tools from PyPI first, so the Rust tests
# also read Parquet and .npy files written by the real pyarrow and NumPy
# (SUDOKU_BULK_PYTHON); then it builds the package's wheel as a user would
# (`pip wheel ./python`, maturin as build backend), installs it and runs
# pytest on python/tests (NumPy, pyarrow, pandas, and PySpark in local mode
# and on a standalone master and worker on 127.0.0.1, which need Java 17 on
# the PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pyenv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p target
    "$python" -m venv "$venv"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
# PySpark 4.x does not support pandas 3 yet (it warns), hence the cap.
# `datasets` (Hugging Face) runs docs/workbench.md's example
# (python/tests/test_docs_workbench.py); it installed in 4 s.
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.9.4,<2" pytest numpy pyarrow "pandas<3" pyspark datasets venv-pack

# One build for the whole README: the release profile that `cargo run
# --release` (the README's first command) compiled already, so only the
# test targets and dev-dependencies are new here; pip (maturin) builds the
# extension in the same profile and target/ below. On a fresh clone with 2
# cores this saved a full second compile of every dependency (see
# docs/guide.md, "Install"). Release has no debug assertions: the unit
# tests do not rely on them (none is `#[should_panic]`).
SUDOKU_BULK_PYTHON="$PWD/$venv/bin/python" cargo test --release
# The CLI binary the Python tests compare with (generate bytes, --stats, the
# rdd.pipe route): `cargo test --release` built it for the CLI tests.
[ -x target/release/sudoku-bulk ] || cargo build --release --quiet

# The package is built once as a wheel (pip builds one for `pip install
# ./python` too) and that file installed here and, by
# python/tests/test_spark_cluster.py, into the virtualenv it packs for the
# standalone cluster's executors (README "Spark": venv-pack, --archives).
rm -rf target/wheels
"$venv/bin/python" -m pip wheel --quiet --no-deps -w target/wheels ./python
wheel=$(ls "$PWD"/target/wheels/sudoku_bulk-*.whl)
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
export SUDOKU_BULK_WHEEL="$wheel"

# Run from python/ so `import sudoku_bulk` finds the installed package, not
# the source folder.
cd python
SUDOKU_BULK_BIN="$PWD/../target/release/sudoku-bulk" exec "../$venv/bin/python" -m pytest -q tests
