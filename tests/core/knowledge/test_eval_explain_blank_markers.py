"""bench/eval_explain.py --blank-markers: dev messages with every marker and code blanked, ranked by their
wording alone (a known message and a tiny KB here; no held-out text is read)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.eval_explain import ROOT, blank_marker_eval, blank_markers, split_of
from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.family import detect_families, family_evidence
from dumpscope.core.knowledge.markers import MARKERS, UNCOVERED, WHOLE_WORDS

SCRIPT = ROOT / "bench" / "eval_explain.py"
THREAD = "https://github.com/microsoft/onnxruntime/issues/101"
OTHER = "https://github.com/NVIDIA/TensorRT/issues/202"


def test_markers_and_codes_become_spaces_of_the_same_length() -> None:
    message = "E RKNN: [12:00:00] failed\n[TRT] Error Code 4: Internal Error (bad)\nQnnDsp <E> err 6022"
    blanked = blank_markers(message)
    assert len(blanked) == len(message)
    assert blanked.split("\n")[0] == " " * len("E RKNN:") + " [12:00:00] failed"  # the marker, whole
    assert blanked.count("\n") == 2
    assert "[TRT]" not in blanked and "QnnDsp" not in blanked and "Error Code 4" not in blanked
    assert "Internal Error (bad)" in blanked  # the wording stays where it was
    assert blanked.index("Internal") == message.index("Internal")
    assert detect_families(blanked) == [] and family_evidence(blanked) == {}
    assert extract_codes(blanked) == []


def test_a_message_without_markers_or_codes_is_left_as_it_is() -> None:
    message = "the widget could not be loaded: shape mismatch"
    assert blank_markers(message) == message


def test_a_whole_word_marker_is_blanked_only_as_a_whole_word() -> None:
    # "cann" (Ascend's) is a marker only as a word: "Cannot" keeps its letters, as the product counts it
    message = "Cannot create the node; CANN 8.0 says cann-toolkit failed"
    blanked = blank_markers(message)
    assert blanked.startswith("Cannot create the node; ")
    assert "CANN" not in blanked and "cann-" not in blanked
    assert blank_markers("The runtime cannot stop: it was stopped by the ovcs job") == (
        "The runtime cannot stop: it was stopped by the ovcs job"
    )
    # a marker outside WHOLE_WORDS is still blanked inside a longer word, as the product's plain `in` finds it
    assert "aclrt" not in blank_markers("aclrtMalloc failed").lower()


_PLAIN_LITERALS = {lit for ms in MARKERS.values() for lit, _ in ms} | {
    lit for _, ms in UNCOVERED.values() for lit, _ in ms
}
_PLAIN_LITERALS -= WHOLE_WORDS
_WORD_CHARS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=3)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(sorted(w for w in WHOLE_WORDS if w[:1].isalnum() and w[-1:].isalnum())),
    _WORD_CHARS,
    st.booleans(),
)
def test_whole_word_markers_inside_a_word_are_kept_and_alone_are_blanked(
    word: str, glue: str, before: bool
) -> None:
    inside = glue + word if before else word + glue
    text = f"x {inside} y"
    # a literal counted anywhere ("mnn" in "armnn0") or a code may still blank part of the glued word
    assume(not any(lit in inside for lit in _PLAIN_LITERALS) and not extract_codes(text))
    blanked = blank_markers(text)
    assert len(blanked) == len(text)
    start = 2 + (len(glue) if before else 0)
    assert blanked[start : start + len(word)] == word  # a letter or digit continues it: not a marker here
    alone = blank_markers(f"x {word} y")
    assert word not in alone.lower()
    assert alone == "x " + " " * len(word) + " y"


def _entry(id: str, family: str, pattern: str, source: str, words: str = "") -> Entry:
    return Entry(
        id=id,
        tool=family,
        stage="run",
        cause=words or "c",
        fix="f",
        source=source,
        family=family,
        pattern=pattern,
    )


def _kb() -> KnowledgeBase:
    return KnowledgeBase(
        [
            _entry("ort-gizmo", "onnxruntime", r"gizmo sprocket \w+ exploded", "ORT docs"),
            _entry("ort-own", "onnxruntime", r"widget \w+ melted", "microsoft/onnxruntime#101"),
            _entry("trt-melted", "tensorrt", r"melted", "TensorRT developer guide"),
        ]
    )


def test_the_counts_on_a_tiny_fixture() -> None:
    records = [
        # the marker is blanked, the pattern of its tool still matches: confident and right
        {"message": "[E:onnxruntime:x] gizmo sprocket Conv exploded", "family": "onnxruntime"},
        # its own thread's entry hidden: another tool's pattern answers, confidently and wrongly
        {"message": "[E:onnxruntime:x] widget Conv melted", "family": "onnxruntime", "source": THREAD},
        # TensorRT's marker blanked, its own pattern answers
        {"message": "[TRT] it melted", "family": "tensorrt", "source": OTHER},
        # nothing shares a word: no tool at all
        {"message": "[TRT] nothing here", "family": "tensorrt", "source": OTHER},
        {"message": "widget Conv melted", "family": "onnxruntime", "source": THREAD, "split": "heldout"},
    ]
    for r in records:
        r.setdefault("source", OTHER)
        r.setdefault("split", "dev")
    table = blank_marker_eval(_kb(), records)
    # [n, first tool right, confident, confident and wrong, not covered]; the held-out record is not scored
    assert table["onnxruntime"] == [2, 1, 2, 1, 0]
    assert table["tensorrt"] == [2, 1, 1, 0, 0]


def test_the_command_line_mode_on_a_file(tmp_path: Path) -> None:
    url = next(u for n in range(100) if split_of(u := f"https://github.com/x/y/issues/{n}") == "dev")
    data = tmp_path / "part.jsonl"
    record = {"message": "[ONNXRuntimeError] : 1 : FAIL : Load model failed", "family": "onnxruntime"}
    data.write_text(json.dumps({**record, "source": url, "split": "dev"}) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--blank-markers", "--data", str(data)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "part.jsonl         first tool right " in done.stdout
    assert "ALL claimed" in done.stdout and "confident (wrong)" in done.stdout
