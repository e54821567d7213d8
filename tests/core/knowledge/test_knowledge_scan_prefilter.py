"""The log scan's prefilter: the compiled one-pass form (core/knowledge/_prefilter.c) selects exactly the
lines the ``bytes.find`` form selects (one pass per cue word and the Ascend-code regex), on any bytes.

The buffers are drawn from pieces that sit on the rules' edges: cue words in any case, cut by a newline
or running across one (``not\\n``), Ascend codes with a word character or ``-`` before or after them,
ANSI colour codes of up to nine digits right before a code, non-ASCII cue words and invalid UTF-8.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, load_kb
from dumpscope.core.knowledge import scan as scan_module
from dumpscope.core.knowledge.entry import entry_from_dict
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
    monkeypatch.setattr(scan_module, "_prefilter", None)
    fallback = [(p.first_line_no, p.matches[0].entry.id) for p in scan_module.scan_log(io.BytesIO(log), kb)]
    assert compiled == fallback
    assert [line for line, _ in compiled] == [2, 4]
