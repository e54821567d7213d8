"""The error knowledge base: data-file validity, pattern safety, matching, ranking, log scan."""

from __future__ import annotations

import io
import json
import re
import sys
import time
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from dumpscope.core.knowledge import (
    Entry,
    KnowledgeBase,
    builtin_entries,
    entry_from_dict,
    extract_codes,
    load_kb,
    normalise,
    scan_log,
)
from dumpscope.core.knowledge.entry import MAX_WINDOWS, STAGES, WINDOW, pattern_anchors

try:
    import re._constants as sre_c
    import re._parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

KB_TEXT = resources.files("dumpscope.core.knowledge").joinpath("kb.jsonl").read_text(encoding="utf-8")
RAW = [json.loads(line) for line in KB_TEXT.splitlines() if line.strip()]


def top_ids(kb: KnowledgeBase, message: str, n: int = 3) -> list[str]:
    return [m.entry.id for m in kb.lookup(message, top=n)]


# --- the data file ---------------------------------------------------------------------


def test_every_entry_validates_and_every_pattern_compiles() -> None:
    assert len(RAW) >= 600
    for raw in RAW:
        entry = entry_from_dict(raw)  # untrusted path: compiles the pattern, computes anchors
        for name in ("tool", "stage", "cause", "fix", "source"):
            assert getattr(entry, name).strip(), (raw["id"], name)
        assert entry.stage in STAGES
        assert entry.family, raw["id"]


def test_ids_unique_and_codes_unique_per_tool_or_grouped() -> None:
    ids = Counter(r["id"] for r in RAW)
    assert not [i for i, n in ids.items() if n > 1]
    per_tool = Counter((r["tool"], r["code"]) for r in RAW if r["code"])
    for raw in RAW:
        if raw["code"] and per_tool[(raw["tool"], raw["code"])] > 1:
            assert raw.get("group") == raw["code"], f"{raw['id']}: shared code {raw['code']} is not grouped"


def test_stored_anchors_are_the_computed_ones() -> None:
    for raw in RAW:
        assert raw["anchors"] == list(pattern_anchors(raw["pattern"])), raw["id"]


def test_uncertain_marking_is_kept() -> None:
    flagged = [r for r in RAW if "UNCERTAIN" in r["cause"] + r["fix"] + r["source"]]
    assert len(flagged) >= 15
    assert all(r["uncertain"] for r in flagged)


def test_every_family_is_covered() -> None:
    families = Counter(r["family"] for r in RAW)
    for family in (
        "ascend",
        "sigmastar",
        "rknn",
        "tensorrt",
        "onnxruntime",
        "onnx",
        "onnxsim",
        "float16",
        "qualcomm",
    ):
        assert families[family] > 0, family


def test_each_entry_finds_its_own_example(kb: KnowledgeBase) -> None:
    """Every stored example matches its pattern and ranks its entry in the top 5 (almost always first).  An
    entry whose pattern is any tool's text (``named_only``: a bare ``KeyError: 'x'``) is looked up with its
    tool named when its example names none: without it, only its wording could find it, and a wording of
    words any tool prints finds nothing (``.index.plain_entries``)."""
    from dumpscope.core.knowledge.kb import named_families

    firsts = total = 0
    for entry in kb.entries:
        if not entry.example:
            continue
        total += 1
        assert entry.search(entry.example), entry.id
        text = entry.example
        if entry.named_only and entry.family not in named_families(text):
            text = f"{entry.family}: {text}"
            assert entry.family in named_families(text), entry.id
        # text any tool prints inside a named tool's message answers that tool's card ('<card>+<entry id>':
        # clauses.runtime_answered), the entry's own advice under the tool's name
        # an envelope whose captured reason nothing else answers leads with it ('<id>+envelope-inner-reason')
        ids = [i.removesuffix("+envelope-inner-reason") for i in top_ids(kb, text, 5)]
        ids = [i if not i.endswith("+" + entry.id) else entry.id for i in ids]
        assert entry.id in ids, (entry.id, ids)
        firsts += ids[0] == entry.id
    assert total >= 600
    assert firsts >= 0.95 * total


def test_anchors_are_sound_on_examples(kb: KnowledgeBase) -> None:
    """Whatever a pattern matches contains one of its anchors (else the prefilter would hide it)."""
    for entry in kb.entries:
        if entry.example and entry.anchors:
            m = entry.regex.search(entry.example)  # type: ignore[union-attr]
            assert m is not None
            assert any(a in m.group(0).lower() for a in entry.anchors), entry.id


# --- pattern safety -----------------------------------------------------------------------


def literal_fragments(pattern: str) -> list[str]:
    """The literal runs of a pattern, in order (the material of adversarial lines)."""
    out: list[str] = []
    run: list[str] = []

    def walk(seq: list) -> None:  # type: ignore[type-arg]
        for op, av in seq:
            if op is sre_c.LITERAL:
                run.append(chr(av))
                continue
            if run:
                out.append("".join(run))
                run.clear()
            if op is sre_c.SUBPATTERN:
                walk(list(av[3]))
            elif op is sre_c.BRANCH:
                for b in av[1]:
                    walk(list(b))
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
                walk(list(av[2]))
            elif op is getattr(sre_c, "ATOMIC_GROUP", None):
                walk(list(av))
        if run:
            out.append("".join(run))
            run.clear()

    walk(list(sre_parse.parse(pattern)))
    return [f for f in out if f.strip()] or ["x"]


def adversarial_lines(pattern: str, size: int) -> list[str]:
    """Near-misses built from the pattern's own fragments, plus spaces and brackets."""
    frags = literal_fragments(pattern)
    near = " ".join(frags[:-1]) if len(frags) > 1 else frags[0][:-1] or frags[0]

    def fill(unit: str) -> str:
        return (unit * (size // max(1, len(unit)) + 1))[:size]

    return [
        fill(near + " "),  # every fragment but the last, again and again
        fill("[" + near + "] "),
        fill(frags[0] + " "),  # the head repeated
        frags[0] + " " + "a" * size,  # the head then a long tail
        fill(" [ ]( "),
    ]


#: Generous budgets (10x the worst measured, so a busy CI box does not flake): they tell
#: linear from catastrophic (the raw research patterns took
#: minutes on 16 KB lines), not fast from slow.  Speed figures are in bench/bench_explain.py.
RAW_PATTERN_BUDGET_S = 0.5


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def test_no_pattern_backtracks_catastrophically(kb: KnowledgeBase) -> None:
    """Each raw pattern on 16 KB adversarial lines stays linear; no retries hide a slow one."""
    slow = []
    for entry in kb.entries:
        rx = entry.regex
        if rx is None:
            continue
        for line in adversarial_lines(entry.pattern, 16 * 1024):
            if _timed(lambda: rx.search(line)) > RAW_PATTERN_BUDGET_S:  # noqa: B023
                slow.append(entry.id)
                break
    assert not slow


class _RecordingPattern:
    """A compiled pattern that records the span of text each search is given."""

    def __init__(self, rx: re.Pattern[str]) -> None:
        self.rx = rx
        self.spans: list[int] = []

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        self.spans.append(min(endpos, len(text)) - pos)
        return self.rx.search(text, pos, endpos)


def test_matching_a_1mb_adversarial_line_is_bounded_work(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a 1 MB line each entry's pattern runs on at most MAX_WINDOWS windows of WINDOW characters: the
    work is bounded by what test_no_pattern_backtracks_catastrophically times on 16 KB, whatever the
    line's length."""
    checked = 0
    for entry in kb.entries:
        rx = entry.regex
        if rx is None:
            continue
        recorder = _RecordingPattern(rx)
        monkeypatch.setattr(type(entry), "regex", property(lambda self, r=recorder: r))
        for line in adversarial_lines(entry.pattern, 1 << 20)[:3]:
            recorder.spans.clear()
            entry.search(line, line.lower())
            assert len(recorder.spans) <= MAX_WINDOWS, entry.id
            assert all(span <= WINDOW for span in recorder.spans), (entry.id, max(recorder.spans))
        monkeypatch.undo()
        checked += 1
    assert checked > 100


# --- codes ------------------------------------------------------------------------------


def test_code_extraction_covers_each_scheme() -> None:
    text = (
        "EZ9999: Inner Error! W11001: op not fused. aclrtSynchronizeStream failed, error code 507015; "
        "Kernel task happen error, retCode=0x026, [aicore exception]; "
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : bad; RKNN_ERR_MODEL_INVALID; rknn_init fail! ret=-6; "
        "In node 3 (importResize): UNSUPPORTED_NODE: Assertion failed; ValidationError; "
        "Error Code 4: Internal Error (x)"
    )
    keys = [c.key for c in extract_codes(text)]
    for key in (
        "ascend:EZ9999",
        "ascend:W11001",
        "acl:507015",
        "ts:0x26",
        "ort:10",
        "rknn:RKNN_ERR_MODEL_INVALID",
        "rknn:-6",
        "trt:UNSUPPORTED_NODE",
        "onnx:ValidationError",
        "trtb:4",
    ):
        assert key in keys, key
    assert len(keys) == len(set(keys))


def test_normalise_blanks_variable_parts() -> None:
    a = normalise(
        "E10001: [PID: 4242] 2024-05-01-10:11:12.123 op[Conv_12] shape [1,3,224,224] at /data/a/m.onnx 0x7f3a"
    )
    b = normalise(
        "E10001: [PID: 777] 2025-12-31-23:59:59.999 op[Relu_7] shape [8,3,640,640] at /home/b/x.onnx 0x11"
    )
    assert a == b


# --- realistic messages, variable parts changed from the KB examples -------------------------

REALISTIC = [
    # Ascend ATC / GE
    (
        "E10001: [PID: 98211] 2025-03-14-08:15:02.441.218 Value [NWCH] for parameter [--input_format] is "
        "invalid. "
        "Reason: The value must be one of NCHW, NHWC, ND.",
        "ascend-E10001",
        {"value": "NWCH", "option": "--input_format"},
    ),
    (
        "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n"
        "E10016: [PID: 512] Op name [encoder/layer_3/Add] specified in [--out_nodes] is not found in the "
        "model. "
        "Confirm whether this node name exists, or whether the node is not split with the specified "
        "delimiter ';'.",
        "ascend-E10016",
        {"op": "encoder/layer_3/Add"},
    ),
    (
        "E50059: In op[backbone.stage2.conv_0], x channel should be equal to filter channel*groups, "
        "x shape is: [2,48,56,56], filter shape is: [96,24,3,3], groups is: [1]",
        "ascend-E50059",
        {"op": "backbone.stage2.conv_0", "shape": "2,48,56,56"},
    ),
    # Ascend runtime: the multi-line AI Core exception chain
    (
        "EZ9999: Inner Error!\n"
        "EZ9999: [PID: 31337] 2025-01-02-03:04:05.678.901 The error from device(chipId:1, dieId:0), serial "
        "number is 17, "
        "there is an aicore error exception, core id is 12, error code = 0x800000\n"
        "        Kernel task happen error, retCode=0x26, [aicore "
        "exception].[FUNC:GetError][FILE:stream.cc][LINE:1082]\n"
        "        TraceBack (most recent call last):\n"
        "        rtStreamSynchronize execute failed, reason=[aicore exception][FUNC:FuncErrorReason]",
        "ascend-507015-retCode-0x26",
        {},
    ),
    (
        "[ERROR] RUNTIME(4312,python3):2025-02-11-17:30:01.114.352 [device_error_proc.cc:1189]4312 "
        "ProcessCoreErrorInfo:"
        "Aicore kernel execute failed, device_id=0, stream_id=3, report_stream_id=3, task_id=88, flip_num=0, "
        "fault kernel_name=MatMulV2_5f1c2a_high_performance_10001, program id=7, hash=1234",
        "ascend-fault-kernel-name",
        {"op": "MatMulV2_5f1c2a_high_performance_10001"},
    ),
    ("aclmdlExecute failed, error code 507011", "ascend-507011+ascend-call-model-execute-task-failed", {}),
    # SigmaStar (seed 004 wording)
    ("Exception: ONNX RNN not support clip", "sigmastar-onnx-lstm-not-support-direction", {"op": "RNN"}),
    (
        'Traceback (most recent call last):\n  File "ConvertTool.py", line 88\nException: not support onnx '
        "op type "
        "NonMaxSuppression yet",
        "sigmastar-not-support-onnx-op-type",
        {"op": "NonMaxSuppression"},
    ),
    (
        "ValueError: Not support soc_version: mochi2",
        "sigmastar-not-support-soc-version-pcupid",
        {"value": "mochi2"},
    ),
    # Rockchip RKNN
    ("E RKNN: [10:22:31.912] rknn_init fail! ret=-6", None, {}),
    (
        "E build: Try match layer: /model.22/dfl/Softmax failed! The OP of this layer may not yet support, "
        "please check "
        "document <RKNN_OP_Support.md>!",
        "rknn-try-match-layer-conv-failed",
        {},
    ),
    # TensorRT ONNX parser, multi-line
    (
        "[03/14/2025-10:11:12] [TRT] [E] ModelImporter.cpp:949: While parsing node number 211 [Resize -> "
        '"/up/Resize_output_0"]:\n'
        "[03/14/2025-10:11:12] [TRT] [E] ModelImporter.cpp:953: In node 211 (importResize): "
        "UNSUPPORTED_NODE: "
        'Assertion failed: scales.is_weights() && "Resize scales must be an initializer!"',
        None,
        {},
    ),
    # TensorRT builder
    (
        "[03/01/2025-11:22:33] [TRT] [E] 10: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal "
        "Error "
        "(Could not find any implementation for node /head/cls/Conv_2.)",
        "tensorrt-no-implementation-for-node",
        {"op": "/head/cls/Conv_2"},
    ),
    # ONNX Runtime
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.NotImplemented: [ONNXRuntimeError] : 9 : "
        "NOT_IMPLEMENTED : "
        "Could not find an implementation for ConvInteger(10) node with name '/blocks.4/conv/ConvInteger'",
        "onnxruntime-NOT-IMPLEMENTED",
        {"op": "/blocks.4/conv/ConvInteger"},
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: pixel_values for the "
        "following "
        "indices\n index: 3 Got: 518 Expected: 224\n Please fix either the inputs or the model.",
        "onnxruntime-INVALID-ARGUMENT",
        {"input": "pixel_values"},
    ),
    # onnx.checker, onnx-simplifier, float16, Qualcomm
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Nodes in a graph must be topologically sorted, "
        "however input "
        "'/neck/Concat_3_output_0' of node: name: /neck/Conv_9 OpType: Conv is not output of any previous "
        "nodes.",
        "onnx-ValidationError",
        {},
    ),
    (
        'WARNING: The shape of input "audio_features" has dynamic size, please set an input shape manually '
        "with "
        "--test-input-shape",
        "onnxsim-the-shape-of-input-images",
        {"input": "audio_features"},
    ),
    (
        "UserWarning: the float32 number 3.4028e+38 will be truncated to 65504.0",
        "float16-the-float-number-will-be",
        {},
    ),
    ("Failed to validate op /encoder/Gelu_3 with error 0xc26", "qualcomm-0xc26", {}),
]


@pytest.mark.parametrize(("message", "expected", "captures"), REALISTIC, ids=[r[0][:40] for r in REALISTIC])
def test_realistic_messages(
    kb: KnowledgeBase, message: str, expected: str | None, captures: dict[str, str]
) -> None:
    matches = kb.lookup(message, top=3)
    assert matches, message
    best = matches[0]
    if expected is not None:
        assert best.entry.id == expected, [m.entry.id for m in matches]
    assert best.reason != "words"
    got = dict(best.captures)
    for key, value in captures.items():
        assert got.get(key) == value, got


def test_rknn_return_code_names_the_error(kb: KnowledgeBase) -> None:
    ids = top_ids(kb, "E RKNN: [10:22:31.912] rknn_init fail! ret=-6", 5)
    assert any("MODEL-INVALID" in i or "rknn-init" in i for i in ids), ids


def test_tensorrt_block_is_read_as_a_whole(kb: KnowledgeBase) -> None:
    block = next(m for m, _, _ in REALISTIC if "While parsing node number" in m)
    matches = kb.lookup(block, top=10)
    ids = [m.entry.id for m in matches]
    assert any("resize-scales" in i for i in ids), ids
    assert any(m.reason.startswith("code") for m in matches)  # UNSUPPORTED_NODE from line 2
    parsing = next(m for m in matches if "while-parsing" in m.entry.id)
    assert ("op_type", "Resize") in parsing.captures and ("output", "/up/Resize_output_0") in parsing.captures


# --- ranking -----------------------------------------------------------------------------


def test_specific_entry_beats_generic_for_the_same_code(kb: KnowledgeBase) -> None:
    matches = kb.lookup(
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : This is an invalid model. Type Error: Type "
        "'tensor(int64)' of input parameter (x) of operator (Mul) in node (Mul_42) is invalid.",
        top=5,
    )
    assert not matches[0].entry.generic
    # the status card, as it is or answered by the reason clause its own text holds (``+clause``)
    generic = next(m for m in matches if m.entry.generic or "+" in m.entry.id)
    assert matches[0].score > generic.score
    assert set(matches[0].entry.keys) & set(generic.entry.keys)


def test_code_match_beats_word_match(kb: KnowledgeBase) -> None:
    matches = kb.lookup("rtStreamSynchronize failed, aicore timeout happened, error code 507015", top=5)
    assert matches[0].reason.startswith("code")
    worded = [m for m in matches if m.reason == "words"]
    assert all(m.score < matches[0].score for m in worded)


def test_inner_error_code_yields_to_the_precise_cause(kb: KnowledgeBase) -> None:
    ids = top_ids(kb, "EZ9999: [PID: 1] Kernel task happen error, retCode=0x26, [aicore exception].", 3)
    assert ids[0] == "ascend-507015-retCode-0x26"
    assert "ascend-EZ9999" in ids


def test_words_only_when_wording_changed(kb: KnowledgeBase) -> None:
    """A reworded message with no code still finds the entry by its words."""
    matches = kb.lookup("failed to load model: onnx opset 19 is unsupported, max opset 17", top=5)
    assert matches and all(m.reason == "words" for m in matches)
    assert any(m.entry.family in ("rknn", "sigmastar", "ascend") for m in matches)


def test_uncertain_entries_say_so(kb: KnowledgeBase) -> None:
    entry = next(e for e in kb.entries if e.uncertain and e.example)
    match = next(m for m in kb.lookup(entry.example, top=10) if m.entry.id == entry.id)
    assert match.to_dict()["uncertain"] is True


# --- robustness ----------------------------------------------------------------------------


def test_empty_and_garbage_input(kb: KnowledgeBase) -> None:
    assert kb.lookup("") == []
    assert kb.lookup("   \n\t ") == []
    garbage = bytes(range(256)).decode("latin-1") * 50 + "\udcff\x00"
    assert isinstance(kb.lookup(garbage), list)


def test_ten_megabyte_single_line(kb: KnowledgeBase) -> None:
    line = (
        "x" * (5 << 20) + " E10001: Value [a] for parameter [--log] is invalid. Reason: r " + "[" * (5 << 20)
    )
    assert isinstance(kb.lookup(line, top=3), list)
    assert kb.lookup(
        "E10001: Value [a] for parameter [--log] is invalid. Reason: r " + "[" * (10 << 20), top=3
    )


# --- user entries --------------------------------------------------------------------------

USER_GOOD = {
    "id": "acme-npu-oom",
    "tool": "ACME NPU runtime",
    "stage": "run",
    "code": "ACME-0042",
    "pattern": r"ACME-0042: out of tile memory in (?P<op>\S+)",
    "cause": "The tile allocator ran out of SRAM.",
    "fix": "Lower the batch size.",
    "source": "our wiki",
}


def write_user_kb(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_user_entries_merge_and_bad_lines_warn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    user_file = write_user_kb(
        tmp_path / "kb" / "team.jsonl",
        [
            json.dumps(USER_GOOD),
            "{not json",
            json.dumps({**USER_GOOD, "id": "x", "fix": ""}),
            json.dumps({**USER_GOOD, "id": "y", "pattern": "(unclosed"}),
            json.dumps({**USER_GOOD, "id": "z", "stage": "deploy"}),
        ],
    )
    kb = load_kb()
    assert len(kb.warnings) == 4
    for line_no in (2, 3, 4, 5):
        assert any(w.startswith(f"{user_file}:{line_no}:") for w in kb.warnings), kb.warnings
    matches = kb.lookup("ACME-0042: out of tile memory in decoder/attn_3/MatMul")
    assert matches[0].entry.id == "acme-npu-oom"
    assert matches[0].origin == f"user:{user_file}"
    assert ("op", "decoder/attn_3/MatMul") in matches[0].captures
    assert len(kb) == len(builtin_entries()) + 1


def test_extra_file_overrides_a_builtin_entry(tmp_path: Path) -> None:
    fixed = {**RAW[0], "fix": "Our team's fix: use --input_format=NCHW for every model.", "anchors": None}
    extra = write_user_kb(tmp_path / "mine.jsonl", [json.dumps(fixed)])
    kb = load_kb(extra=[extra], user_dir=tmp_path / "none")
    entry = next(e for e in kb.entries if e.id == RAW[0]["id"])
    assert entry.fix.startswith("Our team's fix") and entry.origin == f"user:{extra}"
    assert len(kb) == len(builtin_entries())


def test_unreadable_user_file_is_a_warning(tmp_path: Path) -> None:
    kb = load_kb(extra=[tmp_path / "missing.jsonl"], user_dir=tmp_path)
    assert len(kb.warnings) == 1 and "missing.jsonl" in kb.warnings[0]


def test_entry_schema_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="cause"):
        entry_from_dict({**USER_GOOD, "cause": " "})
    with pytest.raises(ValueError, match="compile"):
        entry_from_dict({**USER_GOOD, "pattern": "a{2,1}"})
    with pytest.raises(ValueError, match="pattern, a code or keys"):
        entry_from_dict({**USER_GOOD, "pattern": "", "code": ""})
    assert isinstance(entry_from_dict(USER_GOOD), Entry)


# --- log scan ----------------------------------------------------------------------------------


def make_log() -> bytes:
    noise = "[INFO] GE(1234,atc.bin):2025-03-14-08:15:02.441.218 [graph.cc:{n}] prepare node {n} done\n"
    lines = [noise.format(n=i) for i in range(30)]
    lines.insert(
        3, "E10001: [PID: 11] Value [NWCH] for parameter [--input_format] is invalid. Reason: bad.\n"
    )
    lines.insert(10, "[ERROR] Kernel task happen error, retCode=0x26, [aicore exception].\n")
    lines.insert(
        12, "E10001: [PID: 12] Value [CHWN] for parameter [--input_format] is invalid. Reason: bad.\n"
    )
    lines.insert(20, "[ERROR] Kernel task happen error, retCode=0x26, [aicore exception].\n")
    lines.insert(25, "caf\xe9 ")  # placeholder for a non-UTF-8 line, replaced below
    data = "".join(lines).encode("utf-8")
    return data.replace("caf\xe9 ".encode(), b"\xff\xfe broken bytes \x80 failed here\n")


def test_scan_groups_repeats_in_order_of_first_appearance(kb: KnowledgeBase) -> None:
    problems = scan_log(io.BytesIO(make_log()), kb)
    assert [p.first_line_no for p in problems][:2] == [4, 11]
    e10001, aicore = problems[0], problems[1]
    assert e10001.count == 2 and e10001.line_numbers == [4, 13]
    assert e10001.matches[0].entry.id == "ascend-E10001"
    assert aicore.count == 2 and aicore.line_numbers == [11, 21]
    assert aicore.matches[0].entry.id == "ascend-507015-retCode-0x26"


ASCEND_BLOCK = (
    "EZ9999: Inner Error!\n"
    "EZ9999: [PID: {pid}] 2025-01-02-03:04:05.678.901 The error from device(chipId:0, dieId:0), serial "
    "number is 3, "
    "there is an aicore error exception, core id is 7, error code = 0x800000\n"
    "        Kernel task happen error, retCode=0x26, [aicore "
    "exception].[FUNC:GetError][FILE:stream.cc][LINE:1082]\n"
    "        TraceBack (most recent call last):\n"
    "        rtStreamSynchronize execute failed, reason=[aicore exception][FUNC:FuncErrorReason]\n"
)


def test_scan_reads_a_multiline_report_as_one_block(kb: KnowledgeBase) -> None:
    log = "[INFO] start\n" + ASCEND_BLOCK.format(pid=10) + "[INFO] retry\n" + ASCEND_BLOCK.format(pid=11)
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert len(problems) == 1
    block = problems[0]
    assert block.first_line_no == 2 and block.count == 2 and block.line_numbers == [2, 8]
    assert len(block.block) == 5
    assert block.matches[0].entry.id == "ascend-507015-retCode-0x26"  # the specific cause, not EZ9999


def test_scan_keeps_unrelated_neighbours_apart(kb: KnowledgeBase) -> None:
    log = (
        "E10001: [PID: 1] Value [X] for parameter [--input_format] is invalid. Reason: r\n"
        "[ERROR] Kernel task happen error, retCode=0x26, [aicore exception].\n"
    )
    assert [p.first_line_no for p in scan_log(io.BytesIO(log.encode()), kb)] == [1, 2]


def test_scan_accepts_text_streams_and_line_lists(kb: KnowledgeBase) -> None:
    text = make_log().decode("utf-8", errors="replace")
    from_text = scan_log(io.StringIO(text), kb)
    from_lines = scan_log(text.splitlines(), kb)
    assert [p.first_line_no for p in from_text][:2] == [4, 11]
    assert [p.first_line_no for p in from_lines][:2] == [4, 11]


def test_scan_survives_a_huge_line_and_counts_lines_after_it(kb: KnowledgeBase) -> None:
    data = (
        b"noise\n"
        + b"A" * (12 << 20)
        + b" error\n"
        + b"[ERROR] Kernel task happen error, retCode=0x26, [aicore exception].\n"
    )
    problems = scan_log(io.BytesIO(data), kb)
    assert [p.first_line_no for p in problems] == [3]


def test_scan_of_empty_and_binary_logs(kb: KnowledgeBase) -> None:
    assert scan_log(io.BytesIO(b""), kb) == []
    junk = bytes(range(256)) * 4000
    assert isinstance(scan_log(io.BytesIO(junk), kb), list)


def test_scan_finds_user_messages_without_cue_words(tmp_path: Path) -> None:
    quiet = {
        **USER_GOOD,
        "id": "quiet",
        "pattern": r"tile allocator exhausted on core (?P<value>\d+)",
        "code": "",
    }
    extra = write_user_kb(tmp_path / "q.jsonl", [json.dumps(quiet)])
    kb = load_kb(extra=[extra], user_dir=tmp_path / "none")
    problems = scan_log(io.BytesIO(b"ok\ntile allocator exhausted on core 3\n"), kb)
    assert problems and problems[0].matches[0].entry.id == "quiet" and problems[0].first_line_no == 2


def test_pattern_anchors_are_conservative() -> None:
    assert pattern_anchors(r"foo\s+barbaz") == ("barbaz",)
    assert set(pattern_anchors(r"(?:alpha one|beta two)")) == {"alpha one", "beta two"}
    assert pattern_anchors(r"(?:alpha|\d+)") == ()
    assert pattern_anchors(r"ab?c") == ()
    assert re.compile(r"x").search("x")


def test_stored_words_and_keys_are_the_computed_ones() -> None:
    """The built-in file stores each entry's word set and complete keys so loading computes neither."""
    from dumpscope.core.knowledge.codes import keys_for_code
    from dumpscope.core.knowledge.entry import entry_words

    for raw in RAW:
        assert raw["words"] == sorted(entry_words(raw["pattern"], raw["code"])), raw["id"]
        assert raw["keys"] == sorted(set(raw["keys"]) | set(keys_for_code(raw["code"]))), raw["id"]


def test_no_capture_the_advice_names_matches_empty_on_its_own_example() -> None:
    """A capture the cause or fix names holds text on the entry's own example: a lazy capture with nothing
    but optional tokens after it (``(?P<op_type>[^\\n]{0,120}?)\\]?\\.?`` ending a pattern) always matches
    the empty string, so the message's value never reached the advice (127 of the Ascend code-table entries
    rendered 'no plugin for operator type (node conv1)' this way)."""
    from dumpscope.core.knowledge.package_data import package_bytes

    empty = []
    for line in package_bytes("kb.jsonl").decode("utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if not row.get("pattern") or not row.get("example"):
            continue
        found = re.search(row["pattern"], row["example"])
        assert found, row["id"]
        advice = f"{row.get('cause', '')} {row.get('fix', '')}"
        for name, value in found.groupdict().items():
            if value == "" and "{" + name + "}" in advice:
                empty.append((row["id"], name))
        if LAZY_LAST.search(row["pattern"]):
            empty.append((row["id"], "a lazy capture ends the pattern"))
    assert not empty, empty


#: A group closed by a lazy ``{m,n}?`` with only optional tokens (``\]?``, ``\.?``, ``\s{0,8}``) after it.
LAZY_LAST = re.compile(r"\{0,\d+\}\?\)(?:\\\]\?|\\\.\?|\\s\{0,\d+\})*$")
