"""Issue 23, round 13: what round 13's dev misses taught, each written from the tool's own wording with
values of our own (never an evaluation message).

* the legacy Inference Engine's IR reader ("cannot parse future versions: N") and CPU plugin ("Unsupported
  primitive of type: T name: N") have entries of their own (they went to SigmaStar or were words only);
* coremltools' predict binding ("value type not convertible") is Core ML's, not TFLite's;
* TensorRT's magic-tag check (the TensorRT 7 ``coreReadArchive.cpp (N) - Serialization Error in
  verifyHeader`` line and the later ``magicTag == kMAGIC_TAG`` assertions) says the file is no engine;
* a Windows access violation (0xC0000005) is the generic twin of a segmentation fault;
* the NPU compiler's MLIR location (``loc(fused<{name = "...", type = "..."}>``) names Intel NPU, a tool
  that is not covered, instead of a covered tool by wording.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log


def test_the_ir_readers_future_version_is_openvinos_with_the_version(kb: KnowledgeBase) -> None:
    top = kb.lookup("[ ERROR ] Error reading network: cannot parse future versions: 11", top=1)[0]
    assert top.entry.id == "openvino-ir-reader-future-version"
    assert "IR version 11" in top.cause
    assert "Model Optimizer" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "Unsupported primitive of type: DetectionOutput name: detection_out",
        "RuntimeError: unsupported primitive of type: Proposal name: proposal/rpn",
    ],
)
def test_the_legacy_cpu_plugins_unsupported_primitive_fills_type_and_name(
    kb: KnowledgeBase, text: str
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-ie-unsupported-primitive"
    op_type, name = text.split("type: ")[1].split(" name: ")
    assert op_type in top.cause and name in top.cause
    assert "extension" in top.fix


def test_the_newer_cpu_plugins_unsupported_operation_keeps_its_entry(kb: KnowledgeBase) -> None:
    top = kb.lookup("Unsupported operation of type: Unique name: unique_3", top=1)[0]
    assert top.entry.id == "openvino-unsupported-operation-cpu"


def test_coremltools_predict_refusing_a_value_is_core_mls(kb: KnowledgeBase) -> None:
    text = "Error: value type not convertible:\n[1 2 3]\nRuntimeError: value type not convertible"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "coreml" and top.entry.id == "coreml-predict-value-type-not-convertible"
    assert "astype" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Magic tag does not match)",
        "[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization "
        "(Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)",
        "[TRT] [E] 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (Serialization assertion "
        "plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)",
    ],
)
def test_a_file_that_is_no_engine_gets_the_magic_tag_entry(kb: KnowledgeBase, text: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-engine-magic-tag-mismatch"
    assert "trtexec" in top.fix


def test_an_engine_of_another_release_keeps_the_version_tag_entry(kb: KnowledgeBase) -> None:
    text = (
        "[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. "
        "Note: Current Version: 205, Serialized Engine Version: 213)"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-engine-version-tag-mismatch"


def test_a_windows_access_violation_is_generic_runtime_text(kb: KnowledgeBase) -> None:
    text = "Exception thrown at 0x00007FF7AB12CD34 (libfoo.dll) in demo.exe: 0xC0000005: Access violation"
    top = kb.lookup(text + " reading location 0x0000000000000008.", top=1)[0]
    assert top.entry.id == "runtime-access-violation" and top.entry.family == "runtime"


def test_the_npu_compilers_mlir_location_says_intel_npu_is_not_covered(kb: KnowledgeBase) -> None:
    text = (
        'loc(fused<{name = "conv_7/Convolution", type = "Convolution"}>["conv_7/Convolution"]): error: '
        "Operation has an invalid shape\nLLVM ERROR: Failed to infer result type(s)."
    )
    found = kb.answer(text, top=3)
    assert found.uncovered is not None and found.uncovered[0] == "intel_npu"


def test_another_mlir_location_is_not_the_npus(kb: KnowledgeBase) -> None:
    """TFLite's converter prints MLIR locations too, without the NPU compiler's name/type dictionary."""
    text = 'loc(fused["Conv2D:", "model/conv2d/Conv2D"]): error: failed to legalize operation \'tf.Foo\''
    found = kb.answer(text, top=3)
    assert found.uncovered is None


@pytest.mark.parametrize(
    "line",
    [
        "[ ERROR ] Error reading network: cannot parse future versions: 11",
        "RuntimeError: unsupported primitive of type: Proposal name: proposal/rpn",
        "RuntimeError: value type not convertible",
        "coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Magic tag does not match)",
    ],
)
def test_the_log_scan_reports_each_new_single_line_among_plain_lines(kb: KnowledgeBase, line: str) -> None:
    log = "step 1 done\nloading model\n" + line + "\nstep 2 done\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]
