"""What ``explain`` answers: confidence, "no confident match", uncovered tools, generic runtime text.

Messages here are written in our own words from the tools' public formats (not copied from the
evaluation set), so these tests check the rules, not a tuning on real messages.
"""

from __future__ import annotations

import json

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import WORDS_FLOOR, confidence_of, shown_code
from dumpscope.core.knowledge.kb import fill
from dumpscope.core.knowledge.markers import UNCOVERED
from dumpscope.tui.cli import main as cli
from tests.support.paths import DATA as DATA_DIR

DATA = DATA_DIR / "explain"


@pytest.mark.parametrize("text", ["test", "error", "it does not work", "failed", "zzzz qqqq"])
def test_text_that_names_nothing_is_not_answered_confidently(kb: KnowledgeBase, text: str) -> None:
    found = kb.answer(text)
    assert not found.confident and found.matches == []
    assert found.headline().startswith(("No confident match", "No known cause"))


def test_any_tool_text_is_a_tool_answer_only_where_the_message_names_that_tool(kb: KnowledgeBase) -> None:
    """SigmaStar's convert tool prints a bare Python KeyError for an ini name missing from the model; so
    does every Python program.  Alone, that text names no tool; beside SigmaStar's converter path it is that
    cause."""
    named_only = [e for e in kb.entries if e.named_only]
    assert named_only, "the KB marks the entries whose pattern is any tool's text"
    bare = kb.answer("KeyError: 'x'")
    assert not bare.confident and bare.matches == []
    in_context = kb.answer(
        "KeyError: 'output1'\n  File \"/opt/SGS_IPU_SDK/Scripts/ConvertTool/ConvertTool.py\", line 120"
    )
    assert in_context.confident and in_context.matches[0].entry.id == "sigmastar-keyerror-output"
    assert in_context.basis == "pattern"


def test_a_withheld_answer_names_the_closest_tools(kb: KnowledgeBase) -> None:
    found = kb.answer("test")
    best = kb.lookup("test", top=1)[0]
    assert best.reason == "words" and best.score < WORDS_FLOOR  # what the floor withholds
    assert found.closest and found.closest[0] == best.entry.tool
    assert found.to_dict()["closest_tools"] == list(found.closest)


@pytest.mark.parametrize(
    ("family", "message"),
    [
        (
            "hailo",
            'File "/venv/lib/python3.10/site-packages/hailo_sdk_client/runner/client_runner.py", line 1, in '
            "translate_onnx_model\nValueError: 'onnx::Add_12' is not in list",
        ),
        ("hailo", "[HailoRT] [error] CHECK failed - HAILO_INVALID_HEF(26)"),
        ("vitis_ai", "[VAIQ_ERROR]: Quantized module can not be generated; see the pytorch_nndct log"),
        ("sophgo", "RuntimeError: [!Error]: tpuc-opt net_bm1684x_f16_tpu.mlir --codegen -o /dev/null"),
        ("cambricon", "[cnrtError] cnrtMalloc: out of device memory on MLU370"),
        ("horizon", "hb_mapper makertbin failed: ERROR horizon_nn cannot parse node Conv_3"),
        ("neuropilot", "ncc-tflite: ERROR: Cannot convert op MEAN, NeuronAdapter rejects it"),
    ],
)
def test_uncovered_tools_are_said_to_be_uncovered(kb: KnowledgeBase, family: str, message: str) -> None:
    found = kb.answer(message)
    assert found.uncovered == (family, UNCOVERED[family][0])
    assert "not covered" in found.headline()
    covered = {"runtime", "onnx"}
    assert all(m.entry.family in covered for m in found.matches)  # never another tool's answer


def test_a_covered_tool_that_mentions_an_uncovered_one_in_passing_stays_covered(kb: KnowledgeBase) -> None:
    message = (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from m.onnx failed: the model came from hailo"
    )
    found = kb.answer(message)
    assert found.uncovered is None and found.matches[0].entry.family == "onnxruntime"


@pytest.mark.parametrize(
    "message",
    [
        "Segmentation fault (core dumped)",
        "Illegal instruction (core dumped)",
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)",
        "CUDA error: no kernel image is available for execution on the device",
        "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory",
    ],
)
def test_generic_runtime_text_without_a_tool_is_answered_as_such(kb: KnowledgeBase, message: str) -> None:
    found = kb.answer(message)
    assert found.confident and found.matches[0].entry.family == "runtime"
    assert "(no tool named)" in found.matches[0].entry.tool


def test_generic_runtime_text_inside_a_tool_message_ranks_under_the_tool(kb: KnowledgeBase) -> None:
    message = (
        "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while "
        "running "
        "Gemm node. Name:'fc' Status Message: CUDA error cudaErrorNoKernelImageForDevice:no kernel image is "
        "available for execution on the device"
    )
    matches = kb.answer(message).matches
    assert matches[0].entry.family == "onnxruntime"
    assert any(m.entry.family == "runtime" for m in matches)  # still offered, below the tool


def test_range_check_fills_the_captured_numbers_into_the_cause(kb: KnowledgeBase) -> None:
    message = "what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)"
    best = kb.answer(message).matches[0]
    assert "at position 7 while it holds only 3 items" in best.cause
    assert best.to_dict()["cause"] == best.cause


def test_fill_says_in_words_what_the_message_did_not_carry() -> None:
    assert fill("op {op} at {value}", (("op", "Conv_1"),)) == "op Conv_1 at the value"
    assert fill("no placeholders {", ()) == "no placeholders {"


@pytest.mark.parametrize("n", range(1, 11))
def test_each_tensorrt_error_code_has_its_own_meaning(kb: KnowledgeBase, n: int) -> None:
    message = f"[TRT] [E] {n}: [builder.cpp::x::1] Error Code {n}: Internal Error (some reason given here)"
    codes = [m for m in kb.lookup(message, top=5) if m.entry.code.startswith("Error Code")]
    assert len(codes) == 1
    m = codes[0]
    assert m.entry.code.startswith(f"Error Code {n} (k")
    # the reason leads the card's answer as its 'detail' (clauses.code_reason_answered, s30a)
    assert dict(m.captures)["detail"] == "some reason given here"
    assert m.entry.id.endswith("+code-own-reason")


def test_a_captured_op_stops_at_the_name(kb: KnowledgeBase) -> None:
    message = (
        "Error Code 10: Internal Error (Could not find any implementation for node /model.22/Concat_3 "
        "due to insufficient workspace. See verbose log for requested sizes.)"
    )
    best = next(m for m in kb.lookup(message) if m.entry.id == "tensorrt-no-implementation-for-node")
    assert best.op_names == ("/model.22/Concat_3",)


def test_the_code_is_shown_as_the_message_prints_it(kb: KnowledgeBase) -> None:
    message = "E19010: No parser is registered for Op [Conv_0, optype [ai.onnx::11::Conv]]."
    matches = kb.lookup(message, top=5)
    assert matches[0].entry.code == "E19010" and shown_code(matches[0]) == "E19010"
    inner = next(m for m in matches if m.entry.code == "EZ9010")
    assert shown_code(inner) == "E19010 (entry EZ9010)"
    assert dict(matches[0].captures) == {"op": "Conv_0", "domain": "ai.onnx", "opset": "11", "optype": "Conv"}
    assert "ASCEND_OPP_PATH" in matches[0].fix


@pytest.mark.parametrize(
    ("message", "entry_code", "shown"),
    [
        # the same code in another case: shown as printed
        ("remote_handle64_open failed with 0x8000042C", "0x8000042c", "0x8000042C"),
        # the code by its enum name: the name as printed, the entry's number beside it
        (
            "graphFinalize returned QNN_GRAPH_ERROR_FINALIZE_FAILED",
            "6022",
            "QNN_GRAPH_ERROR_FINALIZE_FAILED (6022)",
        ),
        ("fastrpc open failed: AEE_EUNABLETOLOAD", "0x80000406", "AEE_EUNABLETOLOAD (0x80000406)"),
        # printed as the entry has it (or inside the entry's code): the entry's code
        ("rknn_init fail! ret=-6", "RKNN_ERR_MODEL_INVALID/-6", "RKNN_ERR_MODEL_INVALID/-6"),
        ("EE1001: The argument is invalid", "EE1001", "EE1001"),
    ],
)
def test_a_code_printed_another_way_is_shown_as_printed(
    kb: KnowledgeBase, message: str, entry_code: str, shown: str
) -> None:
    m = next(m for m in kb.lookup(message, top=5) if m.entry.code == entry_code)
    assert shown_code(m) == shown
    assert m.to_dict()["shown_code"] == shown and m.to_dict()["code"] == entry_code


def test_printed_code_takes_the_token_or_the_value_in_the_message_case() -> None:
    from dumpscope.core.knowledge.codes import extract_codes, printed_code

    for text, want in [
        ("error 0x8000042C here", "0x8000042C"),
        ("rknn_init fail! ret=-6", "-6"),
        ("QNN_GRAPH_ERROR_FINALIZE_FAILED", "QNN_GRAPH_ERROR_FINALIZE_FAILED"),
    ]:
        found = extract_codes(text)
        assert found and printed_code(found[0], text) == want, (text, found)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("QnnDsp <E> Failed to create context from binary with err 5005", "5005"),
        ("QnnDsp <E> Tensor creation failed with error 7005", "7005"),
        ("QnnDsp <E> qnn-net-run: context binary rejected, error 30010", "30010"),
        ("QnnDsp <E> backend init failed, err 4000", "4000"),
    ],
)
def test_qnn_codes_have_entries_of_their_own(kb: KnowledgeBase, message: str, code: str) -> None:
    best = kb.answer(message).matches[0]
    assert best.entry.code == code and best.entry.family == "qualcomm"
    assert confidence_of(best) == ("high", "code")


def test_confidence_levels_follow_the_basis(kb: KnowledgeBase) -> None:
    by_code = kb.lookup("E10001: Value [X] for parameter [--input_format] is invalid. Reason: bad", top=1)[0]
    assert confidence_of(by_code)[0] == "high"
    family_only = kb.answer("[E:onnxruntime:, inference_session.cc:1 Initialize] something entirely new")
    assert family_only.matches[0].entry.level == "family" and family_only.confidence == "medium"


def test_cli_json_carries_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["explain", "test", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["confident"] is False and data["matches"] == [] and data["closest_tools"]
    code = cli.main(["explain", "Segmentation fault (core dumped)", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["confidence"] == "high" and data["matches"][0]["confidence"] == "high"


def test_unknown_set_is_well_formed() -> None:
    """Every record of the uncovered/generic evaluation set names a known tool key and a split."""
    rows = [json.loads(line) for line in (DATA / "unknown.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 15
    assert {r["tool"] for r in rows} <= {*UNCOVERED, "runtime", "none"}
    assert {r["split"] for r in rows} <= {"dev", "heldout"}
