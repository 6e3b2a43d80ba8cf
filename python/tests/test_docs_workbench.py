"""The Python examples of docs/workbench.md (the Hugging Face ``datasets``
load and the workbench calls), run as written: the walkthrough's commands make its files (generate, dedupe,
split, convert, the doc's own command lines), then the doc's ```python
block runs in a fresh interpreter with Hugging Face's offline mode on.
Where ``datasets`` is not importable, the block's equivalent with pyarrow
runs instead (the same files, the same checks)."""

import importlib.util
import os
import re
import subprocess
import sys

import pyarrow.csv as pacsv
import pyarrow.parquet as pq

import sudoku_bulk as sb
from helpers import ROOT

DOC = ROOT / "docs" / "workbench.md"


def _commands(text):
    """The doc's console commands (``$ sudoku-bulk ...``) that make the
    files the Python block reads."""
    out = []
    for line in text.splitlines():
        words = line[len("$ "):].split()
        if (
            line.startswith("$ sudoku-bulk ")
            and words[1] in ("generate", "dedupe", "split", "convert")
            and any(w.startswith("gen") for w in words[2:])
        ):
            out.append([w for w in words if w != "-q"])
    return out


def _prepare(cli, tmp_path):
    text = DOC.read_text()
    cmds = _commands(text)
    assert [c[1] for c in cmds] == ["generate", "dedupe", "split", "convert"], cmds
    for c in cmds:
        subprocess.run([cli, *c[1:], "-q"], cwd=tmp_path, check=True)
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    hf = [b for b in blocks if "load_dataset" in b]
    assert len(blocks) == 2 and len(hf) == 1, blocks
    return hf[0], next(b for b in blocks if b is not hf[0])


def _pyarrow_equivalent(tmp_path):
    """The block's steps with pyarrow: the CSV part read with string
    columns, the Parquet part as convert wrote it."""
    test = pacsv.read_csv(
        tmp_path / "gen.dedup.test.csv",
        convert_options=pacsv.ConvertOptions(
            column_types={"puzzle": "string", "solution": "string"}
        ),
    )
    solved = sb.solve(test.column("puzzle"))
    assert solved.to_pylist() == test.column("solution").to_pylist()
    table = pq.read_table(tmp_path / "test.parquet")
    card = sb.stats(table.column("puzzle"))
    assert card["records"] == table.num_rows == card["solutions"]["1"]
    train_idx, test_idx = sb.split(table.column("puzzle"), 0.2, seed=1)
    more = sb.augment(table.take(train_idx).to_pandas(), 4, seed=1)
    assert len(more) == 4 * len(train_idx)


def _run(block, tmp_path):
    env = dict(
        os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf")
    )
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_python_workbench_example_runs_as_written(cli, tmp_path):
    _, block = _prepare(cli, tmp_path)
    _run(block, tmp_path)


def test_the_datasets_example_runs_as_written(cli, tmp_path):
    block, _ = _prepare(cli, tmp_path)
    if importlib.util.find_spec("datasets") is None:
        _pyarrow_equivalent(tmp_path)
        return
    _run(block, tmp_path)


def test_the_pyarrow_equivalent_of_the_example(cli, tmp_path):
    _prepare(cli, tmp_path)
    _pyarrow_equivalent(tmp_path)
