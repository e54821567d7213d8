"""Text any tool prints under a tool's own sentence, in a message that names and cues no tool (issue 23,
branch s30c).

A :data:`dumpscope.core.knowledge.index.RUNTIME_FAMILIES` entry (the loader's ``cannot open shared object
file``, ``Segmentation fault``) matches by its pattern wherever a program prints it.  When a message names no
tool (no marker, no code, no leaning, no wording cue) but holds a tool's own sentence, found by that tool's
pattern or core phrase, the tool's entry says which of its steps failed: the runtime text now ranks just
under it (:func:`dumpscope.core.knowledge.kb.runtime_under_own_sentence`) instead of being shown as the cause.

The messages are written for these tests from the tools' public forms with made-up paths and names
(onnxruntime's provider loader ``Failed to load library <path> with error: <loader text>``; pnnx's
``no attribute value`` line from tools/pnnx/src/load_torchscript.cpp); none is copied from the evaluation
set."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.kb import Match, runtime_under_own_sentence, wording_cue

ORT_LOADER = (
    "Failed to load library ./build/libcustom_ops_provider.so with error: libcudart.so.12: cannot open "
    "shared object file: No such file or directory"
)
"""onnxruntime's provider loader quoting the dynamic loader's error; no marker of any tool."""

PNNX_CRASH = (
    'no attribute value\n%19 : Function = Constant[name="normalize"]()\nSegmentation fault (core dumped)'
)
"""pnnx's TorchScript loader line, then the process's end; no marker."""


TOOL_TEXT = "the tool's own sentence"
RUNTIME_TEXT = "Segmentation fault"
TEXT = f"{TOOL_TEXT}\n{RUNTIME_TEXT}"
"""The synthetic matches' message: a tool's line, then a runtime line."""


def _match(
    entry_id: str,
    family: str,
    score: float,
    reason: str,
    *,
    generic: bool = False,
    level: str = "",
    consequence: bool = False,
    captures: tuple[tuple[str, str], ...] = (),
    pattern: str = "",
) -> Match:
    pattern = pattern or (RUNTIME_TEXT if family == "runtime" else TOOL_TEXT)
    entry = Entry(
        entry_id,
        "T",
        "run",
        "c",
        "f",
        "s",
        family=family,
        pattern=pattern,
        anchors=(pattern.lower(),),
        generic=generic,
        level=level,
        consequence=consequence,
    )
    return Match(entry, score, reason, captures)


def test_runtime_text_ranks_under_the_tools_pattern_match(kb: KnowledgeBase) -> None:
    assert kb.named_families(ORT_LOADER) == []
    assert wording_cue(ORT_LOADER.lower()) == ()
    ranked = kb.lookup(ORT_LOADER, top=5)
    ids = [m.entry.id for m in ranked]
    assert ids[0] == "onnxruntime-ep-library-load-failed"
    assert ids.index("runtime-missing-shared-object") > 0
    scores = {m.entry.id: m.score for m in ranked}
    assert scores["runtime-missing-shared-object"] == scores["onnxruntime-ep-library-load-failed"] - 1.0
    answer = kb.answer(ORT_LOADER, top=3)
    assert answer.confident and answer.matches[0].entry.family == "onnxruntime"


def test_a_process_ending_ranks_under_the_tools_core_phrase(kb: KnowledgeBase) -> None:
    assert kb.named_families(PNNX_CRASH) == []
    ranked = kb.lookup(PNNX_CRASH, top=5)
    assert ranked[0].entry.id == "ncnn-s27c-pnnx-no-attribute-value"
    assert ranked[0].reason == "partial"
    segfault = next(m for m in ranked if m.entry.id == "runtime-segfault")
    assert segfault.score == ranked[0].score - 1.0


def test_runtime_text_alone_still_answers(kb: KnowledgeBase) -> None:
    """No tool's sentence in the message: the runtime entry is the answer, as before."""
    text = "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory"
    answer = kb.answer(text, top=3)
    assert answer.confident and answer.matches[0].entry.id == "runtime-missing-shared-object"


def test_cued_or_named_messages_are_left_to_the_other_rules() -> None:
    tool = _match("tool", "onnxruntime", 30.0, "partial")
    runtime = _match("rt", "runtime", 50.0, "pattern")
    assert runtime_under_own_sentence([runtime, tool], True, TEXT) == [runtime, tool]
    moved = runtime_under_own_sentence([runtime, tool], False, TEXT)
    assert [m.score for m in moved] == [29.0, 30.0]


def test_only_a_tools_specific_sentence_moves_runtime_text() -> None:
    runtime = _match("rt", "runtime", 50.0, "pattern")
    not_sentences = [
        _match("words", "tensorrt", 45.0, "words"),
        _match("card", "tensorrt", 40.0, "pattern", level="family"),
        _match("generic", "tensorrt", 40.0, "pattern", generic=True),
        _match("ending", "tensorrt", 40.0, "pattern", consequence=True),
        _match("envelope", "tensorrt", 40.0, "pattern", captures=(("reason", "inner text"),)),
        _match("code", "tensorrt", 40.0, "code"),
    ]
    for other in not_sentences:
        assert runtime_under_own_sentence([runtime, other], False, TEXT) == [runtime, other], other.entry.id
    best = runtime_under_own_sentence(
        [runtime, _match("a", "rknn", 31.0, "partial"), _match("b", "mnn", 42.0, "pattern+words")],
        False,
        TEXT,
    )
    assert best[0].score == 41.0  # under the best of the tools' sentences


def test_a_tool_pattern_inside_the_runtime_text_is_no_sentence_of_its_own(kb: KnowledgeBase) -> None:
    """A tool's entry whose pattern matches the runtime's own words (a bare CUDA error) moves nothing."""
    runtime = _match("rt", "runtime", 50.0, "pattern")
    inside = _match("inside", "onnxruntime", 48.0, "pattern", pattern="fault")
    assert runtime_under_own_sentence([runtime, inside], False, TEXT) == [runtime, inside]
    text = "CUDA error: no kernel image is available for execution on the device"
    answer = kb.answer(text, top=3)
    assert answer.confident and answer.matches[0].entry.family == "runtime"


_REASONS = st.sampled_from(["pattern", "partial", "words", "code", "family", "pattern+words"])
_FAMILIES = st.sampled_from(["runtime", "onnxruntime", "tensorrt", "rknn"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            _FAMILIES, st.floats(min_value=0.0, max_value=100.0, allow_nan=False), _REASONS, st.booleans()
        ),
        max_size=8,
    ),
    st.booleans(),
)
def test_property_only_runtime_scores_move_and_only_down(
    rows: list[tuple[str, float, str, bool]], cued: bool
) -> None:
    matches = [
        _match(f"e{i}", family, round(score, 1), reason, generic=generic)
        for i, (family, score, reason, generic) in enumerate(rows)
    ]
    out = runtime_under_own_sentence(matches, cued, TEXT)
    assert [m.entry for m in out] == [m.entry for m in matches]  # same matches, same order
    tool_sentences = [
        m.score
        for m in matches
        if m.entry.family != "runtime"
        and m.reason.split("+")[0] in ("pattern", "partial")
        and not m.entry.generic
    ]
    for before, after in zip(matches, out, strict=True):
        if before.entry.family != "runtime" or cued or not tool_sentences:
            assert after == before
        else:
            assert after.score == min(before.score, max(tool_sentences) - 1.0)
