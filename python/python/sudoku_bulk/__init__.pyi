"""Type stubs of sudoku_bulk: each function returns the kind of its input."""

from typing import Any, Callable, List, Literal, Optional, Sequence, Tuple, TypeVar, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
SIZES: dict[int, int]
FORMATS: Tuple[str, ...]

_A = TypeVar("_A", bound=np.ndarray)
_Status = List[Optional[str]]
_OnError = Literal["mark", "raise", "ignore"]
# box=: "RxC" (such as "3x2": 3 rows tall, 2 wide) or (rows, cols); None for
# the usual boxes of the size.
_Box = Union[str, Tuple[int, int], None]
# format=: the symbols of string puzzles (the command's --format), or numbers.
_Format = Literal["digits", "letters", "hex0", "hex1", "numbers"]
# pyarrow.Array / ChunkedArray and pandas.Series come back as the same type.
_T = TypeVar("_T")
# progress=: a callable progress(done, total), True for a tqdm bar, or None.
_Progress = Union[None, bool, Callable[[int, int], Any]]

@overload
def solve(
    puzzles: _A,
    *,
    threads: Optional[int] = ...,
    unique: bool = ...,
    on_error: _OnError = ...,
    return_status: Literal[False] = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> _A: ...
@overload
def solve(
    puzzles: _A,
    *,
    threads: Optional[int] = ...,
    unique: bool = ...,
    on_error: _OnError = ...,
    return_status: Literal[True],
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Tuple[_A, _Status]: ...
@overload
def solve(
    puzzles: Sequence[Optional[str]],
    *,
    threads: Optional[int] = ...,
    unique: bool = ...,
    on_error: _OnError = ...,
    return_status: Literal[False] = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> List[Optional[str]]: ...
@overload
def solve(
    puzzles: Sequence[Optional[str]],
    *,
    threads: Optional[int] = ...,
    unique: bool = ...,
    on_error: _OnError = ...,
    return_status: Literal[True],
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Tuple[List[Optional[str]], _Status]: ...
@overload
def solve(
    puzzles: _T,
    *,
    threads: Optional[int] = ...,
    unique: bool = ...,
    on_error: _OnError = ...,
    return_status: bool = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Union[_T, Tuple[_T, _Status]]: ...
@overload
def count(
    puzzles: Any,
    limit: int = ...,
    *,
    threads: Optional[int] = ...,
    on_error: _OnError = ...,
    return_status: Literal[False] = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Any: ...  # an int64 array; a Series named "solutions" for a Series
@overload
def count(
    puzzles: Any,
    limit: int = ...,
    *,
    threads: Optional[int] = ...,
    on_error: _OnError = ...,
    return_status: Literal[True],
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Tuple[Any, _Status]: ...
def check(
    puzzles: Any,
    solutions: Any,
    *,
    threads: Optional[int] = ...,
    on_error: _OnError = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Any: ...  # a bool array; a Series named "valid" for Series
def grade(
    puzzles: Any,
    *,
    threads: Optional[int] = ...,
    on_error: _OnError = ...,
    box: _Box = ...,
    format: Optional[_Format] = ...,
    progress: _Progress = ...,
) -> Tuple[Any, Any]: ...  # (int64 array, levels); two Series for a Series
@overload
def generate(
    n: int,
    *,
    size: Optional[int] = ...,
    box: _Box = ...,
    seed: int = ...,
    clues: Optional[int] = ...,
    difficulty: Optional[Literal["easy", "medium", "hard", "extreme"]] = ...,
    symmetry: Literal["none", "rotate180", "rotate90", "mirror", "diagonal"] = ...,
    threads: Optional[int] = ...,
    as_array: Literal[False] = ...,
    rating: Union[Tuple[float, float], str, None] = ...,
) -> List[str]: ...
@overload
def generate(
    n: int,
    *,
    size: Optional[int] = ...,
    box: _Box = ...,
    seed: int = ...,
    clues: Optional[int] = ...,
    difficulty: Optional[Literal["easy", "medium", "hard", "extreme"]] = ...,
    symmetry: Literal["none", "rotate180", "rotate90", "mirror", "diagonal"] = ...,
    threads: Optional[int] = ...,
    as_array: Literal[True],
    rating: Union[Tuple[float, float], str, None] = ...,
) -> npt.NDArray[np.uint8]: ...

# Canonical forms, dedupe, overlap and ratings (typed in _analysis.py).
from ._analysis import (
    Overlap as Overlap,
    canon as canon,
    dedupe as dedupe,
    overlap as overlap,
    rate as rate,
    techniques as techniques,
)

# The dataset workbench: split, augment, stats (typed in _workbench.py).
from ._workbench import (
    Augmented as Augmented,
    augment as augment,
    split as split,
    stats as stats,
)
