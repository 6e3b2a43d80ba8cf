#!/usr/bin/env bash
# The project's one test command (README "Tests"; .ci/run calls it): the Rust
# tests, then the Python package's tests. It makes its own virtualenv in
# target/pyenv and installs the test tools from PyPI first, so the Rust tests
# also read Parquet and .npy files written by the real pyarrow and NumPy
# (SUDOKU_BULK_PYTHON); then it builds and installs the package exactly as a
# user would (`pip install ./python`, maturin as build backend) and runs
# pytest on python/tests (NumPy, pyarrow, pandas, and PySpark in local mode,
# which needs Java 17 on the PATH).
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
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.9.4,<2" pytest numpy pyarrow "pandas<3" pyspark

SUDOKU_BULK_PYTHON="$PWD/$venv/bin/python" cargo test
# The CLI binary the Python tests compare with (generate bytes, --stats, the
# rdd.pipe route): `cargo test` leaves it in target/debug (test profile).
[ -x target/debug/sudoku-bulk ] || cargo build --quiet

"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./python

# Run from python/ so `import sudoku_bulk` finds the installed package, not
# the source folder.
cd python
SUDOKU_BULK_BIN="$PWD/../target/debug/sudoku-bulk" exec "../$venv/bin/python" -m pytest -q tests
