"""The compiled finder (core/knowledge/_prefilter.c) finds what the Python forms find, on any input:

- the log scan's prefilter selects exactly the lines the ``bytes.find`` form selects (one pass per cue
  word and the Ascend-code regex). The buffers are drawn from pieces that sit on the rules' edges: cue
  words in any case, cut by a newline or running across one (``not\\n``), Ascend codes with a word
  character or ``-`` before or after them, ANSI colour codes of up to nine digits right before a code,
  non-ASCII cue words and invalid UTF-8;
- a lookup's anchors, found in one pass over the text's UTF-8, are those ``in`` finds one by one;
- the scan's and the lookup's answers are the same without it (no C compiler at install).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, finder, load_kb
from dumpscope.core.knowledge import scan as scan_module
from dumpscope.core.knowledge.entry import entry_from_dict
from dumpscope.core.knowledge.family import family_evidence
from dumpscope.core.knowledge.scan import CUES, Prefilter

prefilter_c = pytest.importorskip("dumpscope.core.knowledge._prefilter", reason="_prefilter.c not built")

_PIECES = st.sampled_from(
    [
        *(cue.decode() for cue in CUES),
        "ERROR",
        "Fail",
        "NOT",
        "no",
        "t ",
        "e",
        "E",
        "W",
        "E1",
        "EZ",
        "W9",
        "E10001",
        "EZ9999",
        "W12345",
        "E123456",
        "E1234",
        "x",
        "_",
        "-",
        "0",
        "9",
        "A",
        "\x1b[",
        "\x1b[31m",
        "\x1b[0;1;31m",
        "\x1b[123456789m",
        "\x1b[12345678m",
        "m",
        "[",
        ";",
        "\n",
        "\r\n",
        " ",
        "\t",
        "错误",
        "エラー",
        "é",
    ]
)


def _buffer(pieces: list[str], raw: list[bytes]) -> bytes:
    out = "".join(pieces).encode()
    for i, chunk in enumerate(raw):  # invalid UTF-8 and stray bytes spliced in
        at = (i * 7919) % (len(out) + 1)
        out = out[:at] + chunk + out[at:]
    return out


@pytest.fixture(scope="module")
def prefilter() -> Prefilter:
    return Prefilter(load_kb(user_dir=Path("/nonexistent")))


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=60), raw=st.lists(st.binary(max_size=4), max_size=3))
def test_the_compiled_prefilter_selects_the_lines_the_find_loop_selects(
    prefilter: Prefilter, pieces: list[str], raw: list[bytes]
) -> None:
    buf = _buffer(pieces, raw)
    assert prefilter_c.line_starts(buf, prefilter.cues) == prefilter.line_starts_by_find(buf)


def test_a_user_entrys_anchor_is_a_cue_of_both_forms_in_any_case() -> None:
    """A user entry's longest anchor (lower-cased) becomes a cue, compared with the lower-cased log."""
    common = {"tool": "ACME NPU runtime", "stage": "run", "cause": "c", "fix": "f", "source": "our wiki"}
    kb = KnowledgeBase(
        [
            entry_from_dict({**common, "id": "mine-1", "pattern": "zq plugin gone"}, origin="user"),
            entry_from_dict({**common, "id": "mine-2", "pattern": "Kaput Zone"}, origin="user"),
        ]
    )
    pre = Prefilter(kb)
    buf = b"ok\nthe ZQ Plugin gone away\nkaput zone here\nKaput Zone\nzq plugin\n"
    assert pre.line_starts(buf) == pre.line_starts_by_find(buf) == [3, 27, 43]


def test_without_the_compiled_prefilter_the_scan_finds_the_same_problems(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fallback (no C compiler at install) reports what the compiled form reports."""
    log = (
        b"[INFO] step 1\n\x1b[31mE10001\x1b[0m: Value [x] for parameter [input_format] is invalid.\n"
        b"[W] a warning\nonnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "
        b"Load model from m.onnx failed:Protobuf parsing failed.\n"
    )
    kb = load_kb(user_dir=Path("/nonexistent"))
    compiled = [(p.first_line_no, p.matches[0].entry.id) for p in scan_module.scan_log(io.BytesIO(log), kb)]
    monkeypatch.setattr(finder, "compiled", None)
    fallback = [(p.first_line_no, p.matches[0].entry.id) for p in scan_module.scan_log(io.BytesIO(log), kb)]
    assert compiled == fallback
    assert [line for line, _ in compiled] == [2, 4]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=6).map(lambda b: b.replace(b"\n", b"")), st.sampled_from([b"x" * 70000])
        ),
        min_size=1,
        max_size=8,
    ),
    n=st.integers(min_value=1, max_value=4),
)
def test_the_lines_carried_above_the_next_chunk_are_the_rsplit_ones(lines: list[bytes], n: int) -> None:
    """The chunk's last lines (read with a report at the next chunk's start) are found without copying it."""
    whole = b"\n".join(lines) + b"\n"
    assert scan_module._last_lines(whole, n) == [
        line[: scan_module.LONG_LINE] for line in whole[:-1].rsplit(b"\n", n)[-n:]
    ]


def test_a_lookup_finds_the_same_anchors_and_answers_with_or_without_the_compiled_finder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The anchors a text holds, found in one pass over its UTF-8, are those ``in`` finds one by one, in the
    KB's order (non-ASCII text, a lone surrogate from a log decoded with ``surrogateescape``, an empty
    text), as are the tools' markers; and a lookup answers the same either way."""
    kb = load_kb(user_dir=Path("/nonexistent"))
    examples = [e.example for e in kb.entries[:: max(1, len(kb.entries) // 150)] if e.example]
    texts = [*examples, "", "算子 不支持 ASCEND 错误 E19010", "bad byte \udcff in aclnnAdd failed", "é" * 40]
    compiled = [kb._anchors_in(t.lower()) for t in texts]
    evidence = [family_evidence(t) for t in texts]
    answers = [[(m.entry.id, m.score, m.reason) for m in kb.lookup(t)] for t in texts]
    monkeypatch.setattr(finder, "compiled", None)
    assert compiled == [kb._anchors_in(t.lower()) for t in texts]
    assert evidence == [family_evidence(t) for t in texts]
    assert answers == [[(m.entry.id, m.score, m.reason) for m in kb.lookup(t)] for t in texts]
    assert any(compiled)
