# Types of the compiled metric kernel (core/comparison/_kernel.c), for the type checker only.
# Keep in step with the C file's method table.
import numpy as np

def f16c(flag: bool, /) -> bool: ...
def moments(x: np.ndarray, y: np.ndarray, rtol: float, atol: float, /) -> dict[str, float]: ...
def pair(
    x: np.ndarray,
    y: np.ndarray,
    x_code: int,
    y_code: int,
    dbl: bool,
    n: int,
    rtol: float,
    atol: float,
    chunk: int,
    floor: float,
    channels: int = 0,
    inner: int = 1,
    energy: np.ndarray | None = None,
    /,
) -> dict[str, float]: ...
def moments_segments(
    x: np.ndarray, y: np.ndarray, offsets: np.ndarray, rtol: float, atol: float, out: np.ndarray, /
) -> None: ...
def kl_segments(
    x: np.ndarray, y: np.ndarray, offsets: np.ndarray, params: np.ndarray, floor: float, out: np.ndarray, /
) -> None: ...
