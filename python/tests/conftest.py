"""pytest fixtures: the CLI binary the tests compare against."""

import os
import pathlib

import pytest

from helpers import ROOT


@pytest.fixture(scope="session")
def cli():
    """The sudoku-bulk binary built by `cargo test` / `cargo build`
    (SUDOKU_BULK_BIN overrides)."""
    env = os.environ.get("SUDOKU_BULK_BIN")
    candidates = [env] if env else [
        ROOT / "target" / "release" / "sudoku-bulk",
        ROOT / "target" / "debug" / "sudoku-bulk",
    ]
    found = [pathlib.Path(c) for c in candidates if c and pathlib.Path(c).is_file()]
    if not found:
        pytest.fail("no sudoku-bulk binary: run `cargo build` first (scripts/test.sh does)")
    # The newest build, so a stale release binary does not shadow a fresh debug one.
    return str(max(found, key=lambda p: p.stat().st_mtime))
