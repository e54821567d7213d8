"""Finding a row by an op name as logs spell it (:mod:`dumpscope.tui.app.op_index`)."""

from __future__ import annotations

import polars as pl

from dumpscope.tui.app.op_index import OpIndex


def test_names_nodes_and_ascend_spellings_find_the_first_row() -> None:
    frame = pl.DataFrame(
        {"name": ["conv1/out:0", None, "conv1/out:0", "x"], "node_name": ["conv1/Conv", "relu.1", None, None]}
    )
    index = OpIndex(frame)
    assert index.position("conv1/out:0") == 0  # the first of two rows
    assert index.position("conv1_Conv") == 0  # Ascend replaces / . \\ and space by _
    assert index.position("relu.1") == 1 and index.position("relu_1") == 1
    assert index.position("x") == 3
    assert index.position("missing") is None
