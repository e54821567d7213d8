"""Captured names stop at the name: a bracket group is kept whole (spaces and all), TensorRT's fused
names too, and the words after the name are dropped (issue 23)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.kb import name_value

NO_USER_DIR = Path("/nonexistent-dumpscope-test")
_KB = load_kb(user_dir=NO_USER_DIR)

_TOKEN = st.text(alphabet="abcXYZ019_/.:*-", min_size=1, max_size=8).filter(lambda t: t[-1] not in ".:")
_INSIDE = st.text(alphabet="abcXYZ019_/.:*- ,+", min_size=0, max_size=12)


@st.composite
def _group(draw: st.DrawFn, depth: int = 2) -> str:
    opener, closer = draw(st.sampled_from(["()", "[]", "{}"]))
    parts = [draw(_INSIDE)]
    if depth and draw(st.booleans()):
        parts += [draw(_group(depth - 1)), draw(_INSIDE)]
    return opener + "".join(parts) + closer


@st.composite
def _simple_name(draw: st.DrawFn) -> str:
    """A run of tokens and bracket groups with no space outside a group, not ending in punctuation."""
    pieces = [draw(_TOKEN)]
    for _ in range(draw(st.integers(0, 3))):
        pieces.append(draw(st.one_of(_TOKEN, _group())))
    if pieces[-1].endswith(")") and draw(st.booleans()):
        pieces.append(" [" + draw(_TOKEN) + "]")  # TensorRT's "(Unnamed Layer* 3) [Shuffle]"
    return "".join(pieces)


@st.composite
def _names(draw: st.DrawFn) -> str:
    """A name, possibly several fused by TensorRT's `` + ``."""
    return " + ".join(draw(st.lists(_simple_name(), min_size=1, max_size=3)))


_TAILS = st.sampled_from(
    ["", ".", " due to insufficient workspace.", ", input size not accessible.", ";", ":"]
)


@settings(max_examples=200, deadline=None)
@given(name=_names(), tail=_TAILS, data=st.data())
def test_a_name_is_read_whole_from_any_space_inside_it(name: str, tail: str, data: st.DataObject) -> None:
    """Wherever a pattern's capture stops at a space of the name (``\\S+``), and whatever follows it, the
    name comes out."""
    text = f"failed at node {name}{tail} next words"
    start = text.index(name)
    cut = data.draw(st.sampled_from([i for i, ch in enumerate(name) if ch == " "] + [len(name)]))
    assert name_value(text, start, start + max(cut, 1)) == name


@settings(max_examples=200, deadline=None)
@given(name=_names(), tail=_TAILS)
def test_a_capture_over_trailing_words_stops_at_the_name(name: str, tail: str) -> None:
    text = f"op={name}{tail} and more words"
    start = text.index(name)
    assert name_value(text, start, len(text)) == name


@settings(max_examples=100, deadline=None)
@given(name=_names(), tail=st.sampled_from([".", " due to insufficient workspace.", ".)", ""]))
def test_the_tensorrt_node_capture_is_the_whole_node_name(name: str, tail: str) -> None:
    message = f"[TRT] [E] 10: Could not find any implementation for node {name}{tail}"
    matches = _KB.lookup(message, top=3)
    found = [m for m in matches if m.entry.id == "tensorrt-no-implementation-for-node"]
    assert found, message
    assert dict(found[0].captures)["op"] == name


def test_the_issues_examples() -> None:
    for message, op in [
        (
            "Error Code 10: Internal Error (Could not find any implementation for node "
            "{ForeignNode[(Unnamed Layer* 12) [Shuffle].../model/Reshape_4]}.)",
            "{ForeignNode[(Unnamed Layer* 12) [Shuffle].../model/Reshape_4]}",
        ),
        (
            "Error Code 4: Internal Error (Could not find any implementation for node /model.22/Concat_3 "
            "due to insufficient workspace. See verbose log for requested sizes.)",
            "/model.22/Concat_3",
        ),
        (
            "Could not find any implementation for node /model/model.6/Conv + PWN(/model/model.7/LeakyRelu).",
            "/model/model.6/Conv + PWN(/model/model.7/LeakyRelu)",
        ),
    ]:
        top = _KB.lookup(message, top=1)[0]
        assert top.entry.id == "tensorrt-no-implementation-for-node"
        assert dict(top.captures)["op"] == op
        assert op in top.cause + top.fix or "{op}" not in top.entry.cause + top.entry.fix


def test_a_group_that_never_closes_is_cut_where_the_capture_ends() -> None:
    text = "node {ForeignNode[a b c d" + "x" * 500
    assert name_value(text, 5, 17) == "{ForeignNode"
    assert name_value("layer [Conv_0] failed", 6, 12) == "Conv_0"
    assert name_value("'Conv_0' failed", 0, 8) == "Conv_0"


@settings(max_examples=100, deadline=None)
@given(items=st.lists(_TOKEN, min_size=1, max_size=5), tail=st.sampled_from(["", ".", ";", ":"]))
def test_a_captured_list_of_names_is_kept_whole(items: list[str], tail: str) -> None:
    """``A, B, C`` captured to the end of the line is a list of names (TVM's and Paddle2ONNX's unsupported
    operators) when the line ends with it, unlike ``A, some words``."""
    listed = ", ".join(items)
    text = f"not supported for frontend ONNX: {listed}{tail}"
    start = text.index(listed)
    assert name_value(text, start, len(text)) == listed.rstrip(".:")


def test_a_name_followed_by_a_clause_is_not_a_list() -> None:
    text = "Unsupported: ONNX export of operator Unfold, input size not accessible."
    assert name_value(text, text.index("Unfold"), len(text)) == "Unfold"
    message = (
        "tvm.error.OpNotImplemented: The following operators are not supported for frontend ONNX: Resize, Mod"
    )
    top = _KB.lookup(message, top=1)[0]
    assert dict(top.captures)["op_type"] == "Resize, Mod"
