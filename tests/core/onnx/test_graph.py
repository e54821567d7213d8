"""Graph facts on hand-built graphs (messy on purpose) and on onnx's light models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts, load_graph
from tests.support.models import build_model

F = TensorProto.FLOAT


def _vi(name: str, shape: list[int] | None = None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, F, shape if shape is not None else [2])


def _graph(
    nodes: list[onnx.NodeProto],
    inputs: list[str],
    outputs: list[str],
    inits: dict[str, np.ndarray] | None = None,
) -> onnx.ModelProto:
    return build_model(nodes, [_vi(i) for i in inputs], [_vi(o) for o in outputs], inits or {})


def _assert_topological(facts: GraphFacts) -> None:
    seen = set(facts.graph_inputs) | facts.initializers
    for n in facts.nodes:
        assert all(i in seen for i in n.inputs), f"{n.name} comes before one of its inputs"
        seen.update(n.outputs)


def test_shuffled_nodes_are_sorted_stably() -> None:
    nodes = [
        helper.make_node("Relu", ["b"], ["c"], name="third"),
        helper.make_node("Neg", ["x"], ["side"], name="side"),
        helper.make_node("Abs", ["a"], ["b"], name="second"),
        helper.make_node("Exp", ["x"], ["a"], name="first"),
    ]
    facts = load_graph(_graph(nodes, ["x"], ["c", "side"]))
    # "side" is ready at once and comes first in the file among ready nodes.
    assert [n.name for n in facts.nodes] == ["side", "first", "second", "third"]
    assert [n.index for n in facts.nodes] == [0, 1, 2, 3]
    _assert_topological(facts)
    assert facts.problems == ()
    order = facts.tensor_order()
    assert order["x"] == -1 and order["a"] == 1 and order["c"] == 3
    assert facts.producer["b"].name == "second"
    assert [n.name for n in facts.consumers["x"]] == ["side", "first"]


def test_unnamed_and_duplicate_names_become_unique() -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["a"]),
        helper.make_node("Relu", ["a"], ["b"], name="dup"),
        helper.make_node("Relu", ["b"], ["c"], name="dup"),
        helper.make_node("Relu", ["c"], ["d"], name="Relu_0"),  # clashes with the generated name
    ]
    facts = load_graph(_graph(nodes, ["x"], ["d"]))
    names = [n.name for n in facts.nodes]
    assert names == ["Relu_0_1", "dup", "dup_1", "Relu_0"]
    assert len(set(names)) == len(names)


def test_initializers_constants_and_optional_inputs() -> None:
    const = helper.make_node(
        "Constant", [], ["k"], value=helper.make_tensor("kv", F, [2], [1.0, 2.0]), name="const"
    )
    clip = helper.make_node("Clip", ["x", "", "hi"], ["y"], name="clip")
    add = helper.make_node("Add", ["y", "k"], ["z"], name="add")
    model = _graph([add, clip, const], ["x"], ["z"], {"hi": np.array(1.0, np.float32)})
    # IR < 4 style: the initializer is listed as a graph input too; it is not a real input.
    model.graph.input.append(helper.make_tensor_value_info("hi", F, []))
    facts = load_graph(model)
    assert facts.graph_inputs == ("x",)
    assert facts.initializers == frozenset({"hi"})
    assert facts.constants == frozenset({"k"})
    clip_facts = facts.producer["y"]
    assert clip_facts.inputs == ("x", "hi")
    order = facts.tensor_order()
    assert order["k"] == -1 and order["hi"] == -1 and order["z"] == facts.producer["z"].index
    _assert_topological(facts)


def test_cycle_is_reported_not_raised() -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="ok"),
        helper.make_node("Add", ["a", "c"], ["b"], name="loop1"),
        helper.make_node("Relu", ["b"], ["c"], name="loop2"),
    ]
    facts = load_graph(_graph(nodes, ["x"], ["c"]))
    assert [n.name for n in facts.nodes] == ["ok", "loop1", "loop2"]
    assert any("cycle" in p and "loop1" in p for p in facts.problems)


def test_dangling_input_is_reported_and_treated_as_available() -> None:
    nodes = [
        helper.make_node("Add", ["x", "ghost"], ["a"], name="add"),
        helper.make_node("Relu", ["a"], ["b"], name="relu"),
    ]
    facts = load_graph(_graph(nodes, ["x"], ["b"]))
    assert [n.name for n in facts.nodes] == ["add", "relu"]
    assert any("'ghost'" in p and "'add'" in p for p in facts.problems)


def test_if_node_orders_after_outer_scope_producers() -> None:
    then_g = helper.make_graph([helper.make_node("Relu", ["late"], ["t_out"])], "then", [], [_vi("t_out")])
    else_g = helper.make_graph([helper.make_node("Neg", ["late"], ["e_out"])], "else", [], [_vi("e_out")])
    if_node = helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)
    late = helper.make_node("Abs", ["x"], ["late"], name="late")
    model = build_model(
        [if_node, late],
        [_vi("x"), helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [_vi("y")],
    )
    facts = load_graph(model)
    assert [n.name for n in facts.nodes] == ["late", "branch"]
    assert facts.control_flow == ("branch",)
    assert facts.problems == ()
    assert facts.producer["y"].inputs == ("cond",)


def test_double_producer_is_a_problem() -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="one"),
        helper.make_node("Neg", ["x"], ["a"], name="two"),
    ]
    facts = load_graph(_graph(nodes, ["x"], ["a"]))
    assert facts.producer["a"].name == "one"
    assert any("'one'" in p and "'two'" in p for p in facts.problems)


def test_path_and_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage that is not protobuf\xff\xff")
    with pytest.raises(DumpError, match="bad.onnx"):
        load_graph(bad)
    with pytest.raises(DumpError, match="no such file"):
        load_graph(tmp_path / "missing.onnx")


def test_external_data_is_not_read(tmp_path: Path) -> None:
    w = np.arange(4096, dtype=np.float32)
    model = build_model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")],
        [helper.make_tensor_value_info("x", F, [4096])],
        [helper.make_tensor_value_info("y", F, [4096])],
        {"w": w},
    )
    path = tmp_path / "big.onnx"
    onnx.save_model(model, str(path), save_as_external_data=True, location="w.bin", size_threshold=0)
    (tmp_path / "w.bin").unlink()  # would fail if load_graph tried to read the weights
    facts = load_graph(path)
    assert facts.initializers == frozenset({"w"})
    assert [n.name for n in facts.nodes] == ["add"]


@pytest.mark.parametrize("name", ["light_squeezenet", "light_resnet50", "light_inception_v1"])
def test_light_models(light_models_dir: Path, name: str) -> None:
    path = light_models_dir / f"{name}.onnx"
    facts = load_graph(path)
    proto = onnx.load_model(str(path), load_external_data=False)
    assert len(facts.nodes) == len(proto.graph.node)
    assert facts.problems == ()
    assert len(facts.graph_inputs) == 1  # the image; weights are initializers listed as inputs
    _assert_topological(facts)
    assert len({n.name for n in facts.nodes}) == len(facts.nodes)
    for out in facts.graph_outputs:
        assert out in facts.producer
