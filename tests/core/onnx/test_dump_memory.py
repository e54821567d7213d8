"""Bounded memory while dumping (issue 15): each fetch group runs only what it needs.

The peak-RSS figures themselves live in ``bench/bench_dump_memory.py``; these tests pin
the mechanisms: a group's model keeps only the ancestors of its tensors (outer-scope reads
of If bodies included), grouped dumps stay identical to one-run dumps, and the glibc
memory steps are wired in and harmless where there is no glibc.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from dumpscope.core import heap
from dumpscope.core.onnx import fetch_groups
from dumpscope.core.onnx.runner import dump_model
from tests.support.models import ModelBuilder, build_model

F = TensorProto.FLOAT
vi = helper.make_tensor_value_info


def _branches() -> list[onnx.NodeProto]:
    """x -> Relu -> Exp -> e ; x -> Neg -> Abs -> a ; Add(e, a) -> y."""
    return [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("Exp", ["r"], ["e"], name="exp"),
        helper.make_node("Neg", ["x"], ["n"], name="neg"),
        helper.make_node("Abs", ["n"], ["a"], name="abs"),
        helper.make_node("Add", ["e", "a"], ["y"], name="add"),
    ]


def _graph(nodes: list[onnx.NodeProto]) -> onnx.GraphProto:
    return helper.make_graph(nodes, "g", [vi("x", F, [4])], [vi("y", F, [4])])


def _names(nodes: list[onnx.NodeProto]) -> list[str]:
    return [n.name for n in nodes]


def test_ancestors_are_what_the_wanted_tensors_read_in_file_order() -> None:
    graph = _graph(_branches())
    assert _names(fetch_groups._ancestors(graph, ["e"])) == ["relu", "exp"]
    assert _names(fetch_groups._ancestors(graph, ["n", "r"])) == ["relu", "neg"]
    assert _names(fetch_groups._ancestors(graph, ["y"])) == ["relu", "exp", "neg", "abs", "add"]
    assert fetch_groups._ancestors(graph, ["x"]) == []  # a graph input needs no node


def test_ancestors_follow_what_an_if_body_reads_from_the_outer_scope() -> None:
    body = helper.make_graph([helper.make_node("Identity", ["a"], ["out"])], "body", [], [vi("out", F, [4])])
    cond = helper.make_node(
        "Constant", [], ["c"], value=helper.make_tensor("cv", TensorProto.BOOL, [], [True]), name="cond"
    )
    branch = helper.make_node("If", ["c"], ["i"], then_branch=body, else_branch=body, name="if")
    graph = _graph([*_branches(), cond, branch])
    assert _names(fetch_groups._ancestors(graph, ["i"])) == ["neg", "abs", "cond", "if"]


def test_each_group_model_holds_only_the_nodes_its_tensors_depend_on(
    model_builder: ModelBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = model_builder(_branches(), [vi("x", F, [4])], [vi("y", F, [4])])
    seen: dict[tuple[str, ...], list[str]] = {}
    real = fetch_groups.GroupSessions._write

    def spy(self: fetch_groups.GroupSessions, group: list[str]) -> Path:
        path = real(self, group)
        seen[tuple(group)] = _names(list(onnx.load_model(str(path)).graph.node))
        return path

    monkeypatch.setattr(fetch_groups.GroupSessions, "_write", spy)
    dump_model(model, tmp_path / "d", max_memory_mb=1 / 2**20)  # one tensor per run
    assert seen[("n",)] == ["neg"]
    assert seen[("a",)] == ["neg", "abs"]
    assert seen[("y",)] == ["relu", "exp", "neg", "abs", "add"]


@pytest.mark.parametrize("target", [None, "fp16"])
def test_grouped_dumps_are_byte_identical_to_a_one_run_dump(
    model_builder: ModelBuilder, tmp_path: Path, target: str | None
) -> None:
    model = model_builder(_branches(), [vi("x", F, [4])], [vi("y", F, [4])])
    one = dump_model(model, tmp_path / "one", target=target)
    many = dump_model(model, tmp_path / "many", target=target, max_memory_mb=1 / 2**20)
    assert one["ort_runs"] == 1 and many["ort_runs"] >= 5
    assert [t["name"] for t in one["tensors"]] == [t["name"] for t in many["tensors"]]
    for entry in one["tensors"]:
        assert (tmp_path / "one" / entry["file"]).read_bytes() == (
            tmp_path / "many" / entry["file"]
        ).read_bytes()


def test_grouped_dumps_fix_the_mmap_threshold_one_run_dumps_do_not(
    chain_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, tuple[int, ...]]] = []

    def fake(name: str):  # type: ignore[no-untyped-def]
        return lambda *args: calls.append((name, args)) or 0

    monkeypatch.setattr(heap, "libc_function", fake)
    dump_model(chain_model, tmp_path / "one")
    assert calls == []
    dump_model(chain_model, tmp_path / "many", max_memory_mb=1 / 2**20)
    assert ("mallopt", (-3, 1 << 20)) in calls and ("malloc_trim", (0,)) in calls


def test_memory_steps_are_no_ops_without_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctypes
    import ctypes.util

    assert heap.libc_function("no_such_function_in_any_libc") is None

    class NoGlibc:  # the process's symbols without glibc's memory functions (musl, macOS)
        def __init__(self, _name: object) -> None:
            pass

    monkeypatch.setattr(ctypes, "CDLL", NoGlibc)
    monkeypatch.setattr(ctypes.util, "find_library", lambda _name: None)
    heap.libc_function.cache_clear()  # (looked up once per name: forget the real ones)
    try:
        assert heap.libc_function("mallopt") is None
        heap.map_large_blocks()
        heap.trim_free_heap()
    finally:
        heap.libc_function.cache_clear()  # the tests after this one look the real functions up


def test_a_grouped_dump_of_a_light_model_matches_its_one_run_dump(
    light_models_dir: Path, tmp_path: Path
) -> None:
    model = light_models_dir / "light_squeezenet.onnx"
    if not model.is_file():
        pytest.skip(f"{model} is not installed with this onnx")
    one = dump_model(model, tmp_path / "one")
    many = dump_model(model, tmp_path / "many", max_memory_mb=0.5)
    assert many["ort_runs"] > 3
    files = {t["name"]: t["file"] for t in one["tensors"]}
    assert files == {t["name"]: t["file"] for t in many["tensors"]}
    for rel in files.values():
        a, b = (np.load(tmp_path / d / rel, allow_pickle=False) for d in ("one", "many"))
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


def test_the_branch_model_is_valid_onnx() -> None:
    """The branch model is valid ONNX (checked, so a failure above is not a fixture bug)."""
    onnx.checker.check_model(build_model(_branches(), [vi("x", F, [4])], [vi("y", F, [4])]))


@pytest.mark.parametrize("target", ["int8", "fp16", "optimized"])
def test_a_small_budget_dumps_every_recipe_like_one_run(
    light_models_dir: Path, tmp_path: Path, target: str
) -> None:
    """A group model keeps only what its nodes read: an int8 model's pruned zero points used to make
    onnxruntime refuse the group (IR-3 initializers that are not graph inputs)."""
    model = light_models_dir / "light_squeezenet.onnx"
    if not model.is_file():
        pytest.skip(f"{model} is not installed with this onnx")
    one = dump_model(model, tmp_path / "one", target=target)
    many = dump_model(model, tmp_path / "many", target=target, max_memory_mb=0.5)
    assert one["ort_runs"] == 1 and many["ort_runs"] > 3
    files = {t["name"]: t["file"] for t in one["tensors"]}
    assert files == {t["name"]: t["file"] for t in many["tensors"]}
    for rel in files.values():
        a, b = (np.load(tmp_path / d / rel, allow_pickle=False) for d in ("one", "many"))
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
