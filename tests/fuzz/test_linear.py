"""Issue 13, quadratic time: node naming and patching stay linear on 20k same-named nodes."""

from __future__ import annotations

from pathlib import Path

import onnx
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from dumpscope.core.onnx.graph import _unique_names
from dumpscope.core.onnx.patch import patch_file


def _reference_names(nodes: list[onnx.NodeProto], order: list[int]) -> dict[int, str]:
    """The naming rule, written the obvious (quadratic) way."""
    taken: set[str] = set()
    result: dict[int, str] = {}
    pending = []
    for topo, i in enumerate(order):
        if nodes[i].name and nodes[i].name not in taken:
            taken.add(nodes[i].name)
            result[i] = nodes[i].name
        else:
            pending.append((i, nodes[i].name or f"{nodes[i].op_type}_{topo}"))
    for i, base in pending:
        name, k = base, 0
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        taken.add(name)
        result[i] = name
    return result


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    st.lists(
        st.sampled_from(["", "a", "a_1", "a_2", "b", "Relu_0", "Relu_1", "b_1_1"]), min_size=1, max_size=30
    )
)
def test_unique_names_match_the_reference_rule(names: list[str]) -> None:
    nodes = [helper.make_node("Relu", ["x"], [f"t{i}"], name=n) for i, n in enumerate(names)]
    order = list(range(len(nodes)))
    got = _unique_names(nodes, order)
    assert got == _reference_names(nodes, order)
    assert len(set(got.values())) == len(nodes)


def _same_named(folder: Path, n: int) -> Path:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info(f"t{n - 1}", TensorProto.FLOAT, [2])
    nodes = [
        helper.make_node("Relu", ["x" if i == 0 else f"t{i - 1}"], [f"t{i}"], name="same") for i in range(n)
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)]
    )
    path = folder / "same.onnx"
    onnx.save(model, str(path))
    return path


def test_patch_on_20k_same_named_nodes_finishes_and_names_the_right_node(tmp_path: Path) -> None:
    # 43 s before (every clash restarted its suffix search at _1); linear now.
    model = _same_named(tmp_path, 20_000)
    result = patch_file(model, tmp_path / "p.onnx", keep_fp32=["t10"], clip=[("t20", 0.0, 1.0)])
    assert result.clipped[0][:2] == ("same", "t20")
    assert (tmp_path / "p.onnx").is_file() and sorted(p.name for p in tmp_path.iterdir()) == [
        "p.onnx",
        "same.onnx",
    ]
