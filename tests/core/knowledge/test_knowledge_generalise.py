"""Issue 12: error lookup that generalises to messages the KB was not written from.

One test (or a parametrised group) per class of miss: tool markers, family-level answers,
new code syntaxes, code ranges, shown codes, shared codes, envelopes, library messages,
structured records, partial pastes, buried lines, capture labels, catastrophic user regexes.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase, extract_codes, load_kb
from dumpscope.core.knowledge.codes import range_keys, scheme_family
from dumpscope.core.knowledge.family import MARKERS, detect_families, family_evidence
from dumpscope.core.knowledge.kb import limit_generic, record_fields, segments
from tests.support.paths import DATA as DATA_DIR

NEW_FAMILIES = ("openvino", "tflite", "qualcomm", "mnn", "ncnn", "paddle2onnx", "torch_onnx", "tvm", "coreml")
CLAIMED = ("ascend", "sigmastar", "rknn", "tensorrt", "onnxruntime", "onnx", "onnxsim", "float16", "qualcomm")


def top_family(kb: KnowledgeBase, text: str) -> str:
    matches = kb.lookup(text, top=3)
    return matches[0].entry.family if matches else ""


# --- family first ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("E RKNN: [10:00:00.000] something nobody has written down yet", "rknn"),
        ("QnnDsp <E> an error this KB has never seen", "qualcomm"),
        ("2024-01-01 [E:onnxruntime:, inference_session.cc:1] a brand new failure", "onnxruntime"),
        ("[01/01/2024-10:00:00] [E] [TRT] a fresh builder complaint", "tensorrt"),
        ("terminate called: nvinfer1::something odd happened", "tensorrt"),
        ("unexpected state at /src/onnxruntime/core/session/x.cc:12", "onnxruntime"),
        ("[Paddle2ONNX] an unknown failure", "paddle2onnx"),
        ("RuntimeError: Check 'rank == 4' failed at src/plugins/intel_cpu/src/node.cpp:77", "openvino"),
        ("tflite::Interpreter returned an unknown status", "tflite"),
        ("MNN::Express something unexpected", "mnn"),
        ("ncnn::Net load_param failed somewhere new", "ncnn"),
        ("tvm._ffi.base.TVMError: something new", "tvm"),
        ("coremltools failed in a new way", "coreml"),
        ("torch.onnx export failed in a new way", "torch_onnx"),
        ("aclrtMalloc returned a strange status", "ascend"),
    ],
)
def test_tool_marker_names_the_family_and_its_entry_answers(
    kb: KnowledgeBase, text: str, family: str
) -> None:
    assert detect_families(text)[0] == family
    matches = kb.lookup(text, top=3)
    assert matches and matches[0].entry.family == family
    # the family card, or the family card answered by a reason clause the message holds ("family-x+clause")
    assert any(
        m.entry.family == family and (m.entry.level == "family" or m.entry.id.startswith(f"family-{family}+"))
        for m in matches
    )


def test_detection_runs_before_paths_are_blanked(kb: KnowledgeBase) -> None:
    """A path inside the tool's source tree is the only cue; normalisation would blank it."""
    text = "assertion failed at /home/ci/onnxruntime/core/framework/allocator.cc:44"
    assert family_evidence(text).get("onnxruntime", 0) >= 3
    assert top_family(kb, text) == "onnxruntime"


def test_every_family_has_a_family_level_entry(kb: KnowledgeBase) -> None:
    level = {e.family: e for e in kb.entries if e.level == "family"}
    for family in (*CLAIMED, *NEW_FAMILIES):
        entry = level[family]
        assert entry.source and entry.fix and entry.cause
        assert family in MARKERS
    # what to do for more detail: every family entry names a flag, a variable or a function
    assert all(any(c in e.fix for c in ("=", "--", "(")) for e in level.values())


def test_wording_of_another_tool_does_not_beat_the_detected_tool(kb: KnowledgeBase) -> None:
    """Without the marker this wording finds a SigmaStar entry; with an RKNN marker, RKNN answers."""
    text = "E RKNN: KeyError: 'output1'"
    assert top_family(kb, text) == "rknn"


# --- codes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[E] Error[10]: [optimizer.cpp::computeCosts::2033] internal", "trtb:10"),
        ("[TRT] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1285] Error", "trtb:4"),
        ("[TRT] [E] 2: [ltWrapper.cpp::setupHeuristic::327] Error", "trtb:2"),
        ("CUDNN failure 5000: CUDNN_STATUS_EXECUTION_FAILED ; GPU=0", "cuda:CUDNN_STATUS_EXECUTION_FAILED"),
        ("CUDA failure 700: an illegal memory access was encountered", "cuda:CUDA:700"),
        ("cublas returned CUBLAS_STATUS_NOT_INITIALIZED", "cuda:CUBLAS_STATUS_NOT_INITIALIZED"),
        ("[Qnn ExecuTorch]: <E> Failed to finalize graph (id: 1) with err 1002", "qnn:1002"),
        ("QnnDsp <E> Failed to validate op x with error 0xc26", "qnn:0xc26"),
        ("[ERROR] 2025-01-01 ERR00100 PTA call acl api failed", "torch_npu:ERR00100"),
        ("LoadLib: ErrorNo: 1343225860(Internal errors) [INIT]", "ge:0x50100004"),
        ("acl set device 0 failed, errorCode = 507033", "acl:507033"),
        ("aclrtSetDevice failed, error_code=507033", "acl:507033"),
        ("NPU function error: call aclnnInplaceCopy failed, error code is 161002", "acl:161002"),
        ("[endpoint.cpp:45] : [MIE04E02011C] [endpoint] Failed to init engine!", "mindie:MIE04E02011C"),
        ("QnnDsp <E> graph finalize failed with error 6022", "qnn:6022"),
    ],
)
def test_new_code_syntaxes_are_extracted(text: str, key: str) -> None:
    assert key in [c.key for c in extract_codes(text)]


def test_success_status_is_not_a_code() -> None:
    assert not extract_codes("Assertion cublasStatus == CUBLAS_STATUS_SUCCESS failed")


def test_code_schemes_name_their_family_and_ranges() -> None:
    assert scheme_family("acl:507033") == "ascend"
    assert scheme_family("torch_npu:ERR00100") == "ascend"
    assert scheme_family("qnn:3110") == "qualcomm"
    assert scheme_family("cuda:CUDNN_STATUS_BAD_PARAM") == ""
    assert range_keys("acl:507099") == ["acl:5070xx", "acl:507xxx"]
    assert range_keys("ascend:EI0099") == ["ascend:EIxxxx"]
    assert range_keys("qnn:6099") == ["qnn:6xxx"]


def test_unknown_code_falls_back_to_its_range_entry(kb: KnowledgeBase) -> None:
    matches = kb.lookup("aclrtSynchronizeStream failed, error code 507098", top=3)
    ids = [m.entry.id for m in matches]
    assert "ascend-acl-range-5070xx" in ids
    ranged = matches[ids.index("ascend-acl-range-5070xx")]
    assert "acl:507098" in ranged.codes


def test_unknown_code_is_family_evidence(kb: KnowledgeBase) -> None:
    assert top_family(kb, "operation returned ERR05999 while running") == "ascend"


def test_every_match_shows_the_codes_found(kb: KnowledgeBase) -> None:
    text = (
        "[E] Error[10]: [optimizer.cpp::computeCosts] Error Code 10: Internal Error (Could not find any "
        "implementation for node conv1.)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tensorrt"
    assert "trtb:10" in top.codes
    assert "trtb:10" in top.to_dict()["codes"]


def test_a_shared_code_alone_pins_no_specific_entry(kb: KnowledgeBase) -> None:
    shared = [k for k, n in kb._specific.items() if n > 3 and not k.startswith("family:")]
    assert shared, "the KB has codes shared by many specific entries"
    for key in shared[:5]:
        scheme, code = key.split(":", 1)
        probe = {"trtb": f"Error Code {code}: Internal Error (x)", "acl": f"error code {code}"}.get(scheme)
        if probe is None:
            continue
        for m in kb.lookup(probe, top=3):
            if not m.entry.generic and m.entry.level != "family":
                assert "code" not in m.reason.split("+"), (key, m.entry.id)


# --- envelopes, libraries, records, pastes, blocks ------------------------------------------


def test_nested_envelope_reports_both_layers(kb: KnowledgeBase) -> None:
    text = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status "
        "code "
        "returned while running Split node. Name:'/Split_3' Status Message: Cannot split using values in "
        "'split' "
        "attribute. Axis=0 Input shape={240,7} NumOutputs=1"
    )
    assert any(s.startswith("Cannot split") for s in segments(text))
    matches = kb.lookup(text, top=3)
    ids = [m.entry.id for m in matches]
    assert ids[0] == "onnxruntime-split-sizes-mismatch"
    assert any(m.entry.generic or m.entry.level == "family" for m in matches)  # the envelope layer
    assert all("ort:1" in m.codes for m in matches if m.entry.family == "onnxruntime")


def test_library_message_is_filed_under_the_library(kb: KnowledgeBase) -> None:
    text = "E build: RuntimeError: Inferred shape and existing shape differ in rank: (2) vs (3)"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "onnx"
    assert "rknn" in top.via


def test_a_library_entry_found_by_wording_alone_yields_to_the_named_tool() -> None:
    """A library's entry (onnx) is never foreign by its pattern; found by wording alone in a message that
    names another tool (onnxsim), it weighs as any other tool's wording would, below the named tool's."""
    from dumpscope.core.knowledge.entry import entry_from_dict

    def entry(family: str, pattern: str) -> dict[str, str]:
        fields = {"id": f"{family}-t", "family": family, "tool": family, "stage": "convert", "cause": "c"}
        return {**fields, "fix": "f", "source": "s", "pattern": pattern}

    kb = KnowledgeBase(
        [
            entry_from_dict(entry("onnx", r"gizmo pass frobnicate overflow assertion quux"), origin="user"),
            entry_from_dict(entry("onnxsim", r"gizmo pass frobnicate zzyzx"), origin="user"),
        ]
    )
    named = "onnxsim: gizmo pass frobnicate overflow assertion"
    assert [m.reason for m in kb.lookup(named)] == ["words", "words"]
    assert top_family(kb, named) == "onnxsim"
    assert top_family(kb, "gizmo pass frobnicate overflow assertion") == "onnx"  # no tool named


def test_a_message_leaning_to_one_tool_lowers_other_tools_wording_only() -> None:
    """No marker names a tool, but one almost-only-MNN marker (`` ==> ``, MEDIUM) is there: the message
    leans to MNN, whose wording-only match then outranks another tool's that shares more words; another
    tool's pattern match is not lowered for it, and a message with no such cue is ranked by wording."""
    from dumpscope.core.knowledge.entry import entry_from_dict
    from dumpscope.core.knowledge.kb import LEANING_SCORE, leaning_family

    def entry(family: str, pattern: str) -> Entry:
        fields = {"id": f"{family}-t", "family": family, "tool": family, "stage": "convert", "cause": "c"}
        return entry_from_dict({**fields, "fix": "f", "source": "s", "pattern": pattern}, origin="user")

    kb = KnowledgeBase(
        [entry("tensorrt", r"gizmo widget frobnicate zork"), entry("mnn", r"gizmo widget blarg")]
    )
    leaning = "gizmo widget frobnicate ==> quux"
    assert detect_families(leaning) == []
    assert leaning_family(leaning) == ("mnn",)
    assert [m.entry.family for m in kb.lookup(leaning)] == ["mnn", "tensorrt"]
    assert top_family(kb, "gizmo widget frobnicate quux") == "tensorrt"
    assert leaning_family("gizmo widget frobnicate quux") == ()
    assert top_family(kb, "gizmo widget frobnicate zork ==> quux") == "tensorrt"  # its pattern matched
    fields = {
        "id": "family-mnn",
        "family": "mnn",
        "tool": "MNN",
        "stage": "convert",
        "cause": "c",
        "fix": "f",
    }
    card = entry_from_dict(
        {**fields, "source": "s", "keys": ["family:mnn"], "level": "family"}, origin="user"
    )
    with_card = KnowledgeBase([*kb.entries, card])
    first = with_card.lookup("gizmo frobnicate ==> quux")[0]
    assert (first.entry.id, first.reason, first.score) == ("family-mnn", "words", LEANING_SCORE)
    assert not with_card.answer("gizmo frobnicate ==> quux").confident  # a cue: under the floor


def test_split_attribute_at_opset_13_ranks_its_cause_first(kb: KnowledgeBase) -> None:
    text = (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from m.onnx failed:This is an invalid model. "
        "Error: Unrecognized attribute: split for operator Split"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "onnx-split-attribute-opset13"


def test_json_record_fields_are_looked_up(kb: KnowledgeBase) -> None:
    record = {
        "op_name": "/model/Foo_3",
        "op_type": "Foo",
        "result": "failed",
        "reason": "No parser is registered for Op [/model/Foo_3, optype [ai.onnx::11::Foo]].",
    }
    text = json.dumps(record)
    assert record["reason"] in record_fields(text)
    assert top_family(kb, text) == "ascend"


def test_key_value_record_fields_are_looked_up(kb: KnowledgeBase) -> None:
    text = (
        "stage=build; status=failed; detail=Inferred shape and existing shape differ in dimension 2: "
        "(640) vs (320)"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "onnx-shape-differs-in-dimension"


def test_partial_paste_still_finds_the_entry(kb: KnowledgeBase) -> None:
    """The head of the line is missing (copied from the middle): the stable core phrase matches."""
    text = "...ing socket times out. Reason: Remote Rank did not send the data in time"
    assert kb.lookup(text, top=3)[0].entry.family == "ascend"


def test_buried_line_is_found_and_generic_lines_take_one_slot(kb: KnowledgeBase) -> None:
    text = "\n".join(
        [
            "[INFO] starting conversion",
            "ATC run failed, Please check the detail log, Try 'atc --help' for more information",
            "E19999: Inner Error!",
            "        TraceBack (most recent call last):",
            "E19010: No parser is registered for Op [Foo_1, optype [ai.onnx::11::Foo]].",
        ]
    )
    matches = kb.lookup(text, top=3)
    assert "pattern" in matches[0].reason and "No parser is registered" in matches[0].entry.example
    assert sum(m.entry.generic or m.entry.level == "family" for m in matches) <= 1


def test_limit_generic_keeps_order_otherwise(kb: KnowledgeBase) -> None:
    ranked = kb.lookup("E19999: Inner Error! TraceBack (most recent call last): EZ9999: Inner Error!", top=10)
    limited = limit_generic(ranked, 3)
    assert len(limited) == min(3, len(ranked))

    def generic(m: object) -> bool:
        return m.entry.generic or m.entry.level == "family"  # type: ignore[attr-defined]

    specific = sum(not generic(m) for m in ranked)
    assert sum(generic(m) for m in limited) <= max(1, 3 - specific)
    assert [m for m in limited if not generic(m)] == [m for m in ranked if not generic(m)][
        : len([m for m in limited if not generic(m)])
    ]


def test_op_type_is_not_captured_as_dtype(kb: KnowledgeBase) -> None:
    text = "Failed to compile Op [/model/Slice_5]. (optype: [StridedSliceD])"
    captures = dict(kb.lookup(text, top=1)[0].captures)
    assert captures.get("op_type") == "StridedSliceD"
    assert "dtype" not in captures


@pytest.mark.parametrize(
    ("text", "family"),
    [
        (
            "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::foo' to ONNX opset "
            "version 17 is not supported.",
            "torch_onnx",
        ),
        ("RuntimeError: PyTorch convert function for op 'foo_bar' not implemented.", "coreml"),
        ("layer Foo.Bar not exists or registered", "ncnn"),
        ("ERROR: Node number 7 (FOO) failed to prepare.", "tflite"),
        (
            "tvm.error.OpNotImplemented: The following operators are not supported for frontend ONNX: FooOp",
            "tvm",
        ),
        ("[Paddle2ONNX] Oops, there are some operators not supported yet, including foo_op,", "paddle2onnx"),
        ("These Op Not Support: ONNX::FooOp", "mnn"),
        (
            "openvino._pyopenvino.GeneralFailure: Check 'x' failed at "
            "src/frontends/onnx/frontend/src/core/graph.cpp:1",
            "openvino",
        ),
        ("QnnDsp <E> QnnBackend_validateOpConfig failed 3110", "qualcomm"),
    ],
)
def test_new_families_answer(kb: KnowledgeBase, text: str, family: str) -> None:
    assert top_family(kb, text) == family


# --- user regexes -------------------------------------------------------------------------


def test_catastrophic_user_regex_is_refused_at_load(tmp_path: Path) -> None:
    bad = {"tool": "mine", "stage": "run", "cause": "c", "fix": "f", "source": "me", "pattern": "(a+)+$"}
    good = {
        "tool": "mine",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "me",
        "pattern": "my own error",
    }
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    kb = load_kb(extra=[path], user_dir=tmp_path / "none")
    assert any(f"{path}:2" in w and "backtrack" in w for w in kb.warnings)
    assert any(e.origin.startswith("user:") for e in kb.entries)
    start = time.perf_counter()
    kb.lookup("a" * 5000 + "!")
    assert time.perf_counter() - start < 5.0  # budget far above normal (milliseconds)


@pytest.mark.parametrize("pattern", ["(a+)+$", r"(\w+\s?)*$", "(a{0,5})+b", "(?:x*)*y", "(a|a)*$"])
def test_nested_repeats_are_refused(pattern: str, tmp_path: Path) -> None:
    raw = {"tool": "mine", "stage": "run", "cause": "c", "fix": "f", "source": "me", "pattern": pattern}
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(raw) + "\n", encoding="utf-8")
    kb = load_kb(extra=[path], user_dir=tmp_path / "none")
    assert kb.warnings and "backtrack" in kb.warnings[0]


@pytest.mark.parametrize(
    "pattern", [r"E\d{5}: (?P<x>[^\n]{1,80})", "(?>(a+))+", "(?:ab{2})+", "foo (?:bar|baz)* qux"]
)
def test_safe_user_patterns_load(pattern: str, tmp_path: Path) -> None:
    raw = {"tool": "mine", "stage": "run", "cause": "c", "fix": "f", "source": "me", "pattern": pattern}
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(raw) + "\n", encoding="utf-8")
    assert not load_kb(extra=[path], user_dir=tmp_path / "none").warnings


# --- the evaluation set -----------------------------------------------------------------


DATA = DATA_DIR / "explain" / "messages.jsonl"


def test_evaluation_set_is_sound() -> None:
    import hashlib

    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 150
    held = [r for r in rows if r["split"] == "heldout"]
    assert len(held) >= 0.4 * len(rows)
    for r in rows:
        assert r["source"].startswith("https://")
        expect = "heldout" if int(hashlib.sha1(r["source"].encode()).hexdigest(), 16) % 5 < 2 else "dev"
        assert r["split"] == expect
    assert {r["family"] for r in rows} >= set(NEW_FAMILIES) | {
        "ascend",
        "rknn",
        "tensorrt",
        "onnxruntime",
        "onnx",
    }


#: Held-out threads that an entry's source names: written short (``owner/repo#N``), which the URL-only check
#: missed before issue 23's third pass, or in the looser forms ``thread_refs`` reads (``repo#N`` without its
#: owner, ``owner/repo issue N``, a number after another of the same repository), which the leave-source-out
#: mode brought to light.  Their messages are set aside by ``bench/eval_explain.py`` (scored in no part):
#: an entry may have been written from them.  No other may be cited.
CITED_HELDOUT = frozenset(
    {
        "AmusementClub/vs-mlrt#70",
        "NVIDIA/TensorRT#1760",
        "NVIDIA/TensorRT#2437",
        "PaddlePaddle/Paddle2ONNX#1224",
        "PaddlePaddle/Paddle2ONNX#1273",
        "Samsung/ONE#15700",
        "SangbumChoi/MobileHumanPose#20",
        "Tencent/ncnn#6413",
        "ankandrew/fast-plate-ocr#58",
        "apache/tvm#12359",
        "apple/coremltools#1135",
        "https://e-com-net.com/article/1598255731407093760.htm",
        "hiyouga/LlamaFactory#5071",
        "microsoft/onnxruntime#1760",
        "microsoft/onnxruntime#22532",
        "microsoft/onnxruntime#22821",
        "microsoft/onnxruntime#4405",
        "microsoft/onnxruntime#7825",
        "modelscope/ms-swift#6684",
        "onnx/onnx-tensorflow#749",
        "onnx/tensorflow-onnx#1822",
        "pytorch/executorch#1183",
        "rockchip-linux/rknn-toolkit#443",
        "rockchip-linux/rknn-toolkit2#254",
        "rockchip-linux/rknn-toolkit2#316",
        "rockchip-linux/rknpu2#25",
        "ultralytics/ultralytics#18470",
    }
)


def test_no_entry_cites_a_heldout_thread() -> None:
    """No entry cites a held-out thread of messages.jsonl, heldout2.jsonl's frozen half or rounds 7-26, by
    URL or written short, except the known ones the evaluation sets aside (a page that is no GitHub
    thread keeps its URL in that list)."""
    from bench.eval_explain import cites, set_cited_aside

    records = []
    for name in (
        "messages.jsonl",
        "heldout2.jsonl",
        "round7.jsonl",
        "round8.jsonl",
        "round9.jsonl",
        "round10.jsonl",
        "round11.jsonl",
        "round12.jsonl",
        "round13.jsonl",
        "round14.jsonl",
        "round15.jsonl",
        "round16.jsonl",
        "round17.jsonl",
        "round18.jsonl",
        "round19.jsonl",
        "round20.jsonl",
        "round21.jsonl",
        "round22.jsonl",
        "round23.jsonl",
        "round24.jsonl",
        "round25.jsonl",
        "round26.jsonl",
        "round27.jsonl",
        "round28.jsonl",
        "round29.jsonl",
        "round30.jsonl",
        "round31.jsonl",
        "round32.jsonl",
        "round33.jsonl",
        "round34.jsonl",
        "round35.jsonl",
        "round36.jsonl",
        "round37.jsonl",
        "round38.jsonl",
        "round39.jsonl",
        "round40.jsonl",
        "round41.jsonl",
    ):
        records += _rows(DATA.with_name(name))
    assert sum(r["split"] == "heldout" for r in records) > 130
    from importlib import resources

    text = resources.files("dumpscope.core.knowledge").joinpath("kb.jsonl").read_text(encoding="utf-8")
    sources = [json.loads(line)["source"] for line in text.splitlines()]
    cited = set_cited_aside(records, sources)
    short = {
        re.sub(r"https://github\.com/([^/]+)/([^/]+)/(?:issues|pull)/(\d+)", r"\1/\2#\3", u) for u in cited
    }
    assert short == CITED_HELDOUT
    assert {r["source"] for r in records if r["split"] == "cited"} == set(cited)
    assert cites(
        "see microsoft/onnxruntime#4405 and docs", "https://github.com/microsoft/onnxruntime/issues/4405"
    )
    assert cites(
        "github.com/pytorch/executorch/issues/1183", "https://github.com/pytorch/executorch/issues/1183"
    )
    assert not cites("microsoft/onnxruntime#44050", "https://github.com/microsoft/onnxruntime/issues/4405")
    loose = [{"source": "https://github.com/microsoft/onnxruntime/issues/4405", "split": "heldout"}]
    assert set_cited_aside(loose, ["onnxruntime#775, #4405 (the vendor's text)"]) == [loose[0]["source"]]
    assert loose[0]["split"] == "cited"
    assert not cites("xmicrosoft/onnxruntime#4405", "https://github.com/microsoft/onnxruntime/issues/4405")


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _source_url(source: str) -> bool:
    """A record's ``source``: a GitHub page over https (as every GitHub record has been), or a page of
    another site (round 14's blogs and Q&A pages), over http or https."""
    if re.match(r"https?://(?:www\.)?github\.com/", source, re.I):
        return source.startswith("https://github.com/")
    return re.fullmatch(r"https?://[^/\s]+/\S*", source) is not None


def test_a_page_url_follows_the_set_rules_as_a_github_thread_does() -> None:
    """A page that is no GitHub thread: split by the same hash, cited by its URL with or without scheme,
    ``www.`` or closing slash, never by another page of its site; GitHub's own forms are not widened."""
    import hashlib

    from bench.eval_explain import cites, set_cited_aside, split_of

    page = "http://www.example-blog.cn/news/96707"
    want = "heldout" if int(hashlib.sha1(page.encode()).hexdigest(), 16) % 5 < 2 else "dev"
    assert split_of(page) == want
    assert _source_url(page) and _source_url("https://blog.example.com/a/b.html")
    assert _source_url("https://github.com/onnx/onnx/issues/1")
    assert not _source_url("http://github.com/onnx/onnx/issues/1")
    assert not _source_url("www.example-blog.cn/news/96707")
    for source in (
        "see example-blog.cn/news/96707 (the RKNN log)",
        "https://example-blog.cn/news/96707/",
        "www.example-blog.cn/news/96707.",
        page,
    ):
        assert cites(source, page), source
    for source in (
        "example-blog.cn/news/967070",
        "example-blog.cn/news/96707/2",
        "example-blog.cn/news/96707.html",
        "my-example-blog.cn/news/96707",
    ):
        assert not cites(source, page), source
    assert not cites("onnxruntime#44050", "https://github.com/microsoft/onnxruntime/issues/4405")
    rows = [{"source": page, "split": "heldout"}]
    assert set_cited_aside(rows, ["RKNN's compiler log, example-blog.cn/news/96707"]) == [page]
    assert rows[0]["split"] == "cited"


def _normalised(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", text.lower()).split())


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("round8.jsonl", 40),
        ("round9.jsonl", 50),
        ("round10.jsonl", 50),
        ("round11.jsonl", 35),
        ("round12.jsonl", 35),
        ("round13.jsonl", 45),
        ("round14.jsonl", 20),
        ("round15.jsonl", 45),
        ("round16.jsonl", 40),
        ("round17.jsonl", 45),
        ("round18.jsonl", 55),
        ("round19.jsonl", 45),
        ("round20.jsonl", 75),
        ("round21.jsonl", 65),
        ("round22.jsonl", 70),
        ("round23.jsonl", 65),
        ("round24.jsonl", 65),
        ("round25.jsonl", 65),
        ("round26.jsonl", 40),
        ("round27.jsonl", 55),
        ("round28.jsonl", 45),
        ("round29.jsonl", 38),
        ("round30.jsonl", 43),
        ("round31.jsonl", 26),
        ("round32.jsonl", 53),
        ("round33.jsonl", 33),
        ("round34.jsonl", 32),
        ("round35.jsonl", 50),
        ("round36.jsonl", 15),
        ("round37.jsonl", 33),
        ("round38.jsonl", 35),
        ("round39.jsonl", 35),
        ("round40.jsonl", 35),
        ("round41.jsonl", 33),
    ],
)
def test_round_follows_the_set_rules(name: str, size: int) -> None:
    """Rounds 8 to 41: the URL split rule, labels from the set's families, and nothing already in the
    other files: no thread (URL) twice, no text with a normalised similarity above 0.8 to any other record."""
    import difflib
    import hashlib

    rows = _rows(DATA.with_name(name))
    assert len(rows) >= size
    others = [r for p in sorted(DATA.parent.glob("*.jsonl")) if p.name != name for r in _rows(p)]
    families = {r.get("family") for r in others}
    taken = {str(r["source"]) for r in others}
    seen: list[str] = []
    for r in rows:
        source = str(r["source"])
        assert _source_url(source) and source not in taken, source
        expect = "heldout" if int(hashlib.sha1(source.encode()).hexdigest(), 16) % 5 < 2 else "dev"
        assert r["split"] == expect
        assert r["family"] in families and set(r.get("also", ())) <= families
        taken.add(source)
        text = _normalised(str(r["message"]))
        for other in [*(_normalised(str(o["message"])) for o in others), *seen]:
            matcher = difflib.SequenceMatcher(None, text, other, autojunk=False)
            assert matcher.real_quick_ratio() <= 0.8 or matcher.quick_ratio() <= 0.8 or matcher.ratio() <= 0.8
        seen.append(text)


def test_partial_paste_of_the_core_phrase_matches_at_reduced_score(kb: KnowledgeBase) -> None:
    full = kb.lookup(
        "[E] Error Code 10: Internal Error (Could not find any implementation for node conv_1.)", top=1
    )[0]
    part = kb.lookup("...Internal Error (Could not find any implementation for node", top=1)[0]
    assert part.entry.id == full.entry.id == "tensorrt-no-implementation-for-node"
    assert part.reason == "partial" and part.score < full.score


def test_log_scan_ignores_tool_lines_without_an_error(kb: KnowledgeBase) -> None:
    """A recognised tool alone does not make a log line a problem; its error lines still are."""
    from dumpscope.core.knowledge import scan_log

    log = [
        "[I] [TRT] Local timing cache in use. Profiling results in this builder pass will not be stored.",
        "[E] [TRT] IBuilder::buildSerializedNetwork: Error Code 10: Internal Error (Could not find any "
        "implementation for node conv1.)",
    ]
    problems = scan_log(log, kb)
    assert [p.first_line_no for p in problems] == [2]


def test_a_category_code_does_not_drag_one_entry_to_the_top(kb: KnowledgeBase) -> None:
    """TensorRT 'Error Code 4' covers many problems: new wording must not get the one entry keyed by it."""
    text = (
        "[E] [TRT] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1285] Error Code 4: Internal Error (a "
        "wording no entry has.)"
    )
    matches = kb.lookup(text, top=3)
    assert matches[0].entry.family == "tensorrt"
    assert matches[0].entry.id != "tensorrt-no-optimization-profile"
    own = kb.lookup(
        "Error Code 4: Internal Error (Network has dynamic or shape inputs, but no optimization profile has "
        "been defined.)",
        top=1,
    )
    assert own[0].entry.id == "tensorrt-no-optimization-profile"


def test_the_knowledge_side_imports_nothing_heavy() -> None:
    """explain's start-up: the knowledge package pulls in no numpy/polars/onnx/textual."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from dumpscope.core.knowledge import load_kb\n"
        "load_kb().lookup('E RKNN: rknn_init fail! ret=-1')\n"
        "print(sorted(m for m in ('numpy', 'polars', 'onnx', 'onnxruntime', 'textual', 'rich') if m in "
        "sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
