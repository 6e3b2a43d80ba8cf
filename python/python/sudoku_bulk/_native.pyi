"""Type stubs of the Rust extension (sudoku_bulk._native). Use the functions
of sudoku_bulk; these take pre-checked arguments."""

from typing import Any, Callable, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

_Bad = List[Tuple[int, str]]
_U8 = npt.NDArray[np.uint8]
_I64 = npt.NDArray[np.int64]

class Exported:
    """An answer array; exports itself through the Arrow C data interface
    (``pa.array(exported)``)."""

    def __arrow_c_array__(self, requested_schema: object = None) -> Tuple[object, object]: ...
    def __len__(self) -> int: ...

# "RxC" or (rows, cols); None: the usual boxes of the size.
_Box = Union[str, Tuple[int, int], None]

def run_cells(
    puzzles: npt.NDArray[np.integer],
    kind: str,
    *,
    solutions: Optional[npt.NDArray[np.integer]] = None,
    unique: bool = False,
    limit: int = 2,
    threads: Optional[int] = None,
    box: _Box = None,
) -> Tuple[Optional[_U8], _I64, _Bad]: ...
def run_strings(
    puzzles: List[Optional[str]],
    kind: str,
    *,
    solutions: Optional[List[Optional[str]]] = None,
    unique: bool = False,
    limit: int = 2,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
) -> Tuple[Optional[List[Optional[str]]], _I64, _Bad]: ...
def run_arrow(
    puzzles: object,
    kind: str,
    *,
    solutions: object = None,
    unique: bool = False,
    limit: int = 2,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
) -> Tuple[Optional[List[Exported]], _I64, _Bad]: ...
def generate_cells(
    n: int,
    size: Optional[int],
    seed: int,
    clues: Optional[int] = None,
    level: Optional[str] = None,
    symmetry: str = "none",
    threads: Optional[int] = None,
    *,
    box: _Box = None,
    rating: Optional[str] = None,
) -> Tuple[_U8, _I64, int]: ...
def cells_to_strings(cells: _U8, size: Optional[int], *, box: _Box = None) -> List[str]: ...
def box_shape(box: _Box = None, size: Optional[int] = None) -> Tuple[int, int]: ...
def level_names(guesses: _I64) -> List[Optional[str]]: ...
def slow_minimal_note(side: int) -> Optional[str]: ...

# python/src/analysis.rs: puzzles are a C-contiguous (N, cells) uint8 array
# or a list of str / None; pre_bad lists rows already found bad.
_Rows = Union[_U8, List[Optional[str]]]
_F64 = npt.NDArray[np.float64]

def canon_rows(
    puzzles: _Rows,
    form: str = "string",
    transform: bool = False,
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
) -> Tuple[Union[_U8, List[Optional[str]]], Optional[List[Optional[str]]], Optional[_I64], _Bad]: ...
def dedupe_rows(
    puzzles: _Rows,
    by: str = "iso",
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Tuple[_I64, _Bad]: ...
def overlap_rows(
    train: _Rows,
    test: _Rows,
    by: str = "iso",
    threads: Optional[int] = None,
    train_bad: _Bad = ...,
    test_bad: _Bad = ...,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Tuple[_I64, _I64, npt.NDArray[np.bool_], _Bad, _Bad]: ...
def rate_rows(
    puzzles: _Rows,
    steps: bool = False,
    techniques: Optional[str] = None,
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
) -> Tuple[_F64, Optional[List[Optional[str]]], _Bad]: ...
def techniques() -> List[Tuple[str, str, bool]]: ...

# python/src/workbench.rs: the dataset workbench on the same rows.
def split_rows(
    puzzles: _Rows,
    test: float,
    val: float,
    seed: int,
    by: str = "iso",
    form: str = "pattern",
    stratify: Optional[str] = None,
    strata: Optional[npt.NDArray[np.uint32]] = None,
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Tuple[_U8, _Bad]: ...
def stats_rows(
    puzzles: _Rows,
    name: str,
    against: Optional[_Rows] = None,
    against_name: str = "against",
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
    against_bad: _Bad = ...,
    ratings: Optional[Tuple[str, List[str]]] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Tuple[str, _Bad, _Bad]: ...
def augment_rows(
    puzzles: _Rows,
    count: int,
    seed: int,
    keep_original: bool = False,
    transform: bool = False,
    solutions: Optional[_Rows] = None,
    blank: Optional[str] = None,
    threads: Optional[int] = None,
    pre_bad: _Bad = ...,
    solution_bad: _Bad = ...,
) -> Tuple[
    Union[_U8, List[Optional[str]]],
    Optional[Union[_U8, List[Optional[str]]]],
    Optional[List[Optional[str]]],
    _I64,
    npt.NDArray[np.bool_],
    _Bad,
]: ...
