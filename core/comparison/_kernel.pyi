# Types of the compiled metric kernel (core/comparison/_kernel.c), for the type checker only.
# Keep in step with the C file's method table.
import numpy as np

def moments(x: np.ndarray, y: np.ndarray, rtol: float, atol: float, /) -> dict[str, float]: ...
def kl_prep(
    x: np.ndarray,
    y: np.ndarray,
    lo_x: float,
    s_x: float,
    lo_y: float,
    s_y: float,
    floor: float,
    a_out: np.ndarray,
    t_out: np.ndarray,
    /,
) -> tuple[float, float]: ...
def moments_segments(
    x: np.ndarray, y: np.ndarray, offsets: np.ndarray, rtol: float, atol: float, out: np.ndarray, /
) -> None: ...
def kl_prep_segments(
    x: np.ndarray,
    y: np.ndarray,
    offsets: np.ndarray,
    params: np.ndarray,
    floor: float,
    a_out: np.ndarray,
    t_out: np.ndarray,
    sums: np.ndarray,
    /,
) -> None: ...
