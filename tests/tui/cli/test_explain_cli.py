"""``dumpscope explain``: text and JSON output, exit codes, --log scanning, stdin, user KB files."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from dumpscope.tui.cli import main as cli

MESSAGE = (
    "E10001: [PID: 7001] 2025-06-01-09:00:00.000.001 Value [HWCN] for parameter [--input_format] is invalid. "
    "Reason: The value must be one of NCHW, NHWC."
)


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config"
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(config))
    return config


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["explain", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_text_output_ranks_and_explains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([MESSAGE, "--top", "2"], capsys)
    assert code == 0
    headline, first = out.splitlines()[:2]
    assert headline == "confidence: high (matched by code)"
    assert first.startswith("1.") and "E10001" in first and "code+pattern" in first
    assert "cause:" in out and "fix:" in out and "source:" in out
    assert "value=HWCN" in out and "option=--input_format" in out
    assert "\n2." in out and "\n3." not in out


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([MESSAGE, "--json", "--top", "3"], capsys)
    assert code == 0
    answer = json.loads(out)
    assert answer["confident"] is True and answer["confidence"] == "high" and answer["basis"] == "code"
    assert answer["uncovered_tool"] is None and answer["closest_tools"] == []
    data = answer["matches"]
    assert isinstance(data, list) and 1 <= len(data) <= 3
    for item in data:
        for key in (
            "tool",
            "stage",
            "code",
            "cause",
            "fix",
            "source",
            "score",
            "captures",
            "reason",
            "origin",
            "basis",
            "confidence",
        ):
            assert key in item, key
        assert isinstance(item["captures"], dict)
    assert data[0]["code"] == "E10001" and data[0]["captures"]["value"] == "HWCN"
    assert [d["score"] for d in data] == sorted((d["score"] for d in data), reverse=True)


def test_no_match_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["zzzz qqqq"], capsys)
    assert code == 1 and "No known cause" in out
    code, out, _ = run(["zzzz qqqq", "--json"], capsys)
    assert code == 1 and json.loads(out)["matches"] == [] and json.loads(out)["confident"] is False


@pytest.mark.parametrize(
    "argv",
    [
        [MESSAGE, "--top", "0"],
        [MESSAGE, "--log", "x.log"],
        ["--log", "/nonexistent/dumpscope.log"],
        [MESSAGE, "--kb", "/nonexistent/kb.jsonl"],
        ["   "],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err.startswith("dumpscope: ") and len(err.strip().splitlines()) == 1


def test_message_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    set_stdin(monkeypatch, MESSAGE.encode() + b"\n\xff\xfe")
    code, out, _ = run(["-", "--json"], capsys)
    assert code == 0 and json.loads(out)["matches"][0]["code"] == "E10001"


LOG = (
    b"[INFO] starting conversion\n"
    b"[INFO] parsing model /data/yolo.onnx\n" + MESSAGE.encode() + b"\n[INFO] retrying with other options\n"
    b"\xff\xfe\x80 garbage bytes in the middle, not an error\n"
    b"[ERROR] onnxruntime: [ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for "
    b"ConvInteger(10) node with name 'conv_1'\n"
    + MESSAGE.replace("HWCN", "CHWN").replace("7001", "7002").encode()
    + b"\n[INFO] done\n"
)


def test_log_groups_repeats_with_line_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "atc.log"
    log.write_bytes(LOG)
    code, out, _ = run(["--log", str(log), "--json"], capsys)
    assert code == 0
    problems = json.loads(out)
    assert [p["first_line"] for p in problems] == [3, 6]
    assert problems[0]["count"] == 2 and problems[0]["line_numbers"] == [3, 7]
    assert problems[0]["matches"][0]["code"] == "E10001"
    assert problems[1]["matches"][0]["captures"]["op"] == "conv_1"
    code, text, _ = run(["--log", str(log)], capsys)
    assert code == 0
    assert text.startswith("line 3 x2 (lines 3, 7):") and "line 6 (lines 6)" in text


def test_log_text_says_which_match_follows_from_answer_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scanned problem's text says what ``explain MESSAGE`` says of the same matches: a line that follows
    from answer 1's error is marked so, not as a related entry (TensorRT's runtime.cpp lines, made-up
    versions)."""
    log = tmp_path / "serve.log"
    log.write_text(
        "[I] loading engine\n"
        "Traceback (most recent call last):\n"
        '  File "serve.py", line 12, in <module>\n'
        "    engine = load_engine(path)\n"
        "RuntimeError: [TRT] The engine plan file is not compatible with this version of TensorRT, expecting "
        "library version 10.3.0.26 got 10.0.1.6, please rebuild.\n"
        "  [TRT] Engine deserialization failed.\n"
    )
    code, text, _ = run(["--log", str(log)], capsys)
    assert code == 0
    assert "2.  " in text and "(this line follows from the error of answer 1)" in text
    assert "related entry, not the answer" not in text


def test_log_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    set_stdin(monkeypatch, LOG)
    code, out, _ = run(["--log", "-", "--json"], capsys)
    assert code == 0 and [p["first_line"] for p in json.loads(out)] == [3, 6]


def test_clean_log_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "ok.log"
    log.write_bytes(b"[INFO] all good\n" * 100)
    code, out, _ = run(["--log", str(log)], capsys)
    assert code == 1 and "No known problem" in out


def test_an_error_no_entry_fits_is_shown_as_no_confident_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.log"
    log.write_bytes(b"[INFO] start\nRuntimeError: the widget frobnicator exploded on step 3\n[INFO] done\n")
    code, out, _ = run(["--log", str(log), "--json"], capsys)
    assert code == 1  # nothing matched: the error is listed, no tool is guessed
    assert [(p["first_line"], p["confident"], p["matches"]) for p in json.loads(out)] == [(2, False, [])]
    code, text, _ = run(["--log", str(log)], capsys)
    assert code == 1
    assert text.startswith("line 2 (lines 2): RuntimeError: the widget frobnicator exploded")
    assert "no confident match" in text and "matched by" not in text


def test_user_kb_file_and_warnings(
    tmp_path: Path, _isolated_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = {
        "id": "lab-dsp-1",
        "tool": "LabDSP compiler",
        "stage": "compile",
        "code": "LD-17",
        "pattern": r"LD-17: vector register spill in (?P<op>\S+)",
        "cause": "Too many live vectors.",
        "fix": "Split the kernel.",
        "source": "team notes",
    }
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    (_isolated_config / "kb").mkdir(parents=True)
    bad = _isolated_config / "kb" / "broken.jsonl"
    bad.write_text('{"id": "half"\n', encoding="utf-8")
    code, out, err = run(
        ["LD-17: vector register spill in blocks/3/attn", "--kb", str(extra), "--json"], capsys
    )
    assert code == 0
    best = json.loads(out)["matches"][0]
    assert best["origin"] == f"user:{extra}" and best["captures"] == {"op": "blocks/3/attn"}
    assert f"{bad}:1:" in err and "warning" in err


def test_uncertain_is_visible_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    from dumpscope.core.knowledge import builtin_entries

    entry = next(e for e in builtin_entries() if e.uncertain and e.example)
    code, out, _ = run([entry.example, "--top", "10"], capsys)
    assert code == 0 and "UNCERTAIN" in out


def test_no_message_opens_the_lookup_app(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dumpscope.tui.app.screens import lookup

    started: list[object] = []
    monkeypatch.setattr(lookup.LookupApp, "run", lambda self, *a, **k: started.append(self))
    code, _, _ = run([], capsys)
    assert code == 0 and len(started) == 1 and isinstance(started[0], lookup.LookupApp)


def test_text_output_shows_codes_and_layers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["E build: RuntimeError: Inferred shape and existing shape differ in rank: (2) vs (3)"], capsys
    )
    assert code == 0
    assert "also seen via: rknn" in out
    _, out, _ = run(["acl set device 0 failed, errorCode = 507033"], capsys)
    assert "codes: acl:507033" in out


def test_one_message_is_answered_with_the_collector_paused_and_resumed_after(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from dumpscope.core.knowledge import KnowledgeBase

    seen: list[bool] = []
    answer = KnowledgeBase.answer

    def spy(self: KnowledgeBase, message: str, top: int = 5) -> object:
        seen.append(gc.isenabled())
        return answer(self, message, top)

    monkeypatch.setattr(KnowledgeBase, "answer", spy)
    assert gc.isenabled()
    assert run([MESSAGE], capsys)[0] == 0
    assert seen == [False] and gc.isenabled()
    set_stdin(monkeypatch, b"   ")
    assert run(["-"], capsys)[0] == 2  # an empty message: a usage error raised while paused
    assert gc.isenabled()
    gc.disable()  # a caller that had it off finds it off
    try:
        run([MESSAGE], capsys)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_consequence_line_is_shown_as_following_from_the_first_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pasted cause, then a line that only follows from it: the first answer names the cause's node, and
    the consequence's answer under it says that its line follows from that error (issue 23), in the text and
    in ``--json`` alike."""
    paste = (
        "[TRT] Could not find any implementation for node /head/Conv_9.\n"
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'"
    )
    code, out, _ = run([paste, "--top", "3"], capsys)
    assert code == 0
    first, second = out.split("\n2.")[0], out.split("\n2.")[1].split("\n3.")[0]
    assert "/head/Conv_9" in first and "follows from" not in first
    assert "create_execution_context" in second
    assert "(this line follows from the error of answer 1)" in second
    code, out, _ = run([paste, "--top", "3", "--json"], capsys)
    flags = [(m["id"], m["consequence"], m["follows_first"]) for m in json.loads(out)["matches"][:2]]
    assert flags == [  # --json says what the text says: the second line follows from the first answer's
        ("tensorrt-no-implementation-for-node", False, False),
        ("tensorrt-python-engine-is-none", True, True),
    ]


def test_a_consequence_follows_only_from_an_earlier_cause_of_its_tool() -> None:
    """'follows from answer 1' is said only where :func:`.kb.follows_from` holds: the first answer states a
    cause of the consequence's own tool (any tool for a process ending), found by its pattern, on an earlier
    line; never under a family card, a wording match or a later line."""
    from dumpscope.core.knowledge import load_kb
    from dumpscope.core.knowledge.kb import follows_from

    kb = load_kb(user_dir=Path("/nonexistent"))
    plugin = (
        "[TRT] [E] 1: [pluginV2Runner.cpp::load::303] Error Code 1: Serialization (Serialization assertion "
        "creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin "
        "Registry)"
    )
    deser = (
        "[TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine "
        "deserialization failed.)"
    )
    text = f"{plugin}\n{deser}\nSegmentation fault (core dumped)"
    ranked = kb.lookup(text, top=5)
    by_id = {m.entry.id: m for m in ranked}
    top, consequence = ranked[0], by_id["tensorrt-engine-deserialization-failed"]
    assert not top.entry.consequence
    assert follows_from(consequence, top, text)
    assert not follows_from(top, consequence, text)  # the cause follows from nothing
    assert not follows_from(consequence, top, f"{deser}\n{plugin}")  # a later line explains nothing
    assert not follows_from(consequence, top._replace(reason="words"), text)
    # the tool's card (here answered by the line's own words, which say only that something went wrong) is
    # no cause a consequence follows from
    family = kb.lookup("[TRT] something went wrong", top=1)[0]
    assert family.entry.id.startswith("family-tensorrt") and not follows_from(consequence, family, text)


def test_matches_after_the_first_are_labelled_related_entries_not_the_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A message only the tool's markers and a few common words tie to the KB: its tool's card answers, and
    the entries after it (found by wording alone) say in the text that they are related entries, not the
    answer; ``--json`` says it in ``related`` (issue 23, s23a).  A line that follows from the first answer's
    error says that instead (see the test above), and is not ``related``."""
    from dumpscope.tui.cli.commands.explain import RELATED

    message = "[TRT] [E] kernel weights build engine rank error"
    code, out, _ = run([message, "--top", "3"], capsys)
    assert code == 0
    blocks = out.split("\n2.")
    assert RELATED not in blocks[0]
    assert len(blocks) == 2 and blocks[1].count(RELATED) == 2  # answers 2 and 3
    code, out, _ = run([message, "--top", "3", "--json"], capsys)
    matches = json.loads(out)["matches"]
    assert matches[0]["id"] == "family-tensorrt" and matches[0]["related"] is False
    assert len(matches) == 3 and all(m["related"] and not m["follows_first"] for m in matches[1:])
    paste = (
        "[TRT] Could not find any implementation for node /head/Conv_9.\n"
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'"
    )
    code, out, _ = run([paste, "--top", "3", "--json"], capsys)
    second = json.loads(out)["matches"][1]
    assert second["follows_first"] is True and second["related"] is False
