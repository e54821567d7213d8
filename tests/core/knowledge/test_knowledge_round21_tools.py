"""Round 21's dev misses fixed at their cause, from the tools' own sources (issue 23, branch h23v2).

Messages are written in our own words around the text each tool prints (its source named in the entry), not
copied from the evaluation set: the RKNN runtime's loader libraries, onnxruntime-genai's configuration file,
cpuinfo's start-up warning inside onnxruntime, GenieX's plugin error, and OpenVINO's NPU plugin printed by a
Windows build.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families


def _top(kb: KnowledgeBase, message: str):  # type: ignore[no-untyped-def]
    found = kb.answer(message)
    assert found.matches, found.headline()
    return found, found.matches[0]


@pytest.mark.parametrize(
    ("message", "library"),
    [
        (
            "E Catch exception when init runtime!\n"
            'E   File "rknn/api/rknn_runtime.py", line 99, in _load_library\n'
            "E OSError: libGAL.so: cannot open shared object file: No such file or directory",
            "libGAL.so",
        ),
        ("E RKNN: OSError: librknnrt.so: cannot open shared object file: No such file", "librknnrt.so"),
        (
            "E init_runtime: rknn.api failed\nOSError: libOpenVX.so.1.2: cannot open shared object file",
            "libOpenVX.so.1.2",
        ),
    ],
)
def test_rknn_runtime_library_missing(kb: KnowledgeBase, message: str, library: str) -> None:
    found, m = _top(kb, message)
    assert m.entry.id == "rknn-h23v2-runtime-library-missing"
    assert found.confidence == "high"
    assert dict(m.captures)["value"] == library
    assert "librknnrt.so" in m.entry.fix and "galcore" in m.entry.fix


def test_vivante_library_alone_stays_the_dynamic_linkers(kb: KnowledgeBase) -> None:
    # libOpenVX/libGAL are VeriSilicon's NPU driver, loaded on Amlogic and NXP boards too: with no RKNN name
    # in the message the RKNN entry (named_only) does not claim it.
    _, m = _top(kb, "OSError: libOpenVX.so.1.2: cannot open shared object file: No such file or directory")
    assert m.entry.id == "runtime-missing-shared-object"
    assert "rknn" not in detect_families("OSError: libOpenVX.so.1.2: cannot open shared object file")


@pytest.mark.parametrize(
    ("message", "value"),
    [
        (
            r"RuntimeError: Error opening D:\models\phi-3\cpu-int4\model.onnx\genai_config.json",
            r"D:\models\phi-3\cpu-int4\model.onnx\genai_config.json",
        ),
        ("RuntimeError: Error opening /srv/llm/genai_config.json", "/srv/llm/genai_config.json"),
    ],
)
def test_onnxruntime_genai_config_open(kb: KnowledgeBase, message: str, value: str) -> None:
    found, m = _top(kb, message)
    assert m.entry.id == "onnxruntime-h23v2-genai-config-open"
    assert m.entry.family == "onnxruntime" and found.confidence == "high"
    assert dict(m.captures)["value"] == value
    assert "folder that contains genai_config.json" in m.entry.fix


def test_onnxruntime_genai_names_onnxruntime(kb: KnowledgeBase) -> None:
    assert detect_families("import onnxruntime_genai as og\nog.Model(path) failed") == ["onnxruntime"]
    assert detect_families("OgaCreateModel returned an error") == ["onnxruntime"]


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("Error in cpuinfo: Unknown chip model name 'Vendor X - P42100'.", "Vendor X - P42100"),
        ("onnxruntime cpuid_info warning: Unknown CPU vendor. cpuinfo_vendor value: 0", ""),
    ],
)
def test_cpuinfo_warning_is_a_warning_not_core_ml(kb: KnowledgeBase, message: str, value: str) -> None:
    _, m = _top(kb, message)
    assert m.entry.id == "onnxruntime-h23v2-cpuinfo-unknown-chip"
    assert m.entry.family != "coreml"
    assert dict(m.captures).get("value", "") == value
    assert m.entry.cause.startswith("A warning, not the failure")


def test_geniex_plugin_load(kb: KnowledgeBase) -> None:
    found, m = _top(kb, '{"code":-100302,"error":"SDKError(Invalid plugin)"}')
    assert m.entry.id == "qualcomm-h23v2-geniex-plugin-load"
    assert dict(m.captures)["value"] == "Invalid plugin"
    assert "plugin_id" in m.entry.cause and "ml_get_plugin_list" in m.entry.fix


def test_npu_wrappers_own_error_is_the_intel_npu_card(kb: KnowledgeBase) -> None:
    # NPUW's own error, from its own source folder, printed by a Windows build: the NPU plugin speaks, and
    # dumpscope has no entry for it, so the Intel NPU card answers rather than OpenVINO's family card.
    message = (
        "RuntimeError: Exception from src\\inference\\src\\cpp\\core.cpp:100:\n"
        "Exception from src\\inference\\src\\dev\\plugin.cpp:50:\n"
        "Exception from src\\plugins\\intel_npu\\src\\plugin\\npuw\\compiled_model.cpp:400:\n"
        "Failed to compile Model0_FCEW000__0 for all devices in [NPU]"
    )
    found = kb.answer(message)
    assert found.uncovered is not None and found.uncovered[0] == "intel_npu"


def test_openvino_core_error_inside_the_npu_plugin_stays_openvino(kb: KnowledgeBase) -> None:
    # The same chain around an error of OpenVINO's core (src/core/src/descriptor/tensor.cpp): OpenVINO's
    # entry, whose fix (reshape to static shapes before compiling) is what the NPU plugin needs, answers.
    message = (
        "RuntimeError: Exception from src\\inference\\src\\cpp\\core.cpp:100:\n"
        "Exception from src\\plugins\\intel_npu\\src\\plugin\\src\\plugin.cpp:500:\n"
        "get_shape was called on a descriptor::Tensor with dynamic shape"
    )
    found, m = _top(kb, message)
    assert found.uncovered is None
    assert m.entry.id == "openvino-get-shape-dynamic"
