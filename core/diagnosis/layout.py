"""Layout mismatch: a tensor that holds the golden values in another axis order.

A graph input fed in another layout (NHWC for NCHW, H and W swapped), or a node whose
output is the golden's values in another axis order (NHWC data reshaped as NCHW), is not a
fault of the values but of the layout: the cause is *layout mismatch*.  The search is the
comparison's own (:func:`~dumpscope.core.comparison.shapes.find_layout`: the same
candidates, scoring and rule for what is *decisive*), run on the few rows asked about.
"""

from __future__ import annotations

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.comparison.shapes import Layout, declared_layouts, find_layout
from dumpscope.core.dumps import TensorReadError


def row_layout(cmp: Comparison, row: int) -> Layout | None:
    """The axis order in which row ``row``'s target decisively holds its golden's values (one
    the comparison did not already apply), None when there is none or a side cannot be read."""
    pair = _loaded_pair(cmp, row)
    if pair is None or cmp.pairing is None:
        return None
    p = cmp.pairing.pairs[row]
    return find_layout(*pair, declared_layouts(p.golden, p.target))


def _loaded_pair(cmp: Comparison, row: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Row ``row``'s golden and target tensors, None when either is missing or unreadable."""
    try:
        golden, target = cmp.load_pair(row)
    except (TensorReadError, IndexError, AssertionError):
        return None
    if golden is None or target is None:
        return None
    golden, target = np.asarray(golden), np.asarray(target)
    if not all(a.dtype.kind in "biuf" or a.dtype.name == "bfloat16" for a in (golden, target)):
        return None
    return golden, target
