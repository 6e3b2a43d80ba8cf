"""Type stubs of the Rust extension (sudoku_bulk._native). Use the functions
of sudoku_bulk; these take pre-checked arguments."""

from typing import List, Optional, Tuple, Union

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
) -> Tuple[_U8, _I64, int]: ...
def cells_to_strings(cells: _U8, size: Optional[int], *, box: _Box = None) -> List[str]: ...
def box_shape(box: _Box = None, size: Optional[int] = None) -> Tuple[int, int]: ...
def level_names(guesses: _I64) -> List[Optional[str]]: ...
def slow_minimal_note(side: int) -> Optional[str]: ...
