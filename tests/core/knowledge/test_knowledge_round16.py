"""Issue 23, round 16 (Qualcomm, RKNN, Ascend): what its dev misses taught, each written from the tool's own
source with values of our own (never an evaluation message).

* torch_npu's caching allocator ("NPU out of memory. Tried to allocate <size> (NPU <n>; ...)", and the
  "more than 1EB memory" size check) is Ascend's, with an entry of its own; the other devices' allocators
  (CUDA, MLU) keep their answers;
* MindSpore's Ascend runtime ("Ascend kernel runtime initialization failed. The details refer to 'Ascend
  Error Message'.") is Ascend's, with an entry that names the device and sends the reader to the block below;
* RKLLM, Rockchip's LLM runtime (``rkllm_init``, ``librkllmrt.so``, ``I rkllm:``), names RKNN;
* the QNN HTP backend's stub version check ("Stub lib id mismatch: expected (v...), detected (v...)") has an
  entry naming both builds (the stub, skel and backend libraries must come from one QAIRT release);
* a process id in CANN's and MindSpore's log prefix (``[ERROR] LITE(108805,...)``) is no AscendCL code.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.codes import extract_codes


def _keys(text: str) -> list[str]:
    return [c.key for c in extract_codes(text)]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        (
            "RuntimeError: NPU out of memory. Tried to allocate 1.25 GiB (NPU 2; 31.00 GiB total capacity; "
            "28.40 GiB already allocated; 28.40 GiB current active; 0.90 GiB free; 29.70 GiB reserved in "
            "total by PyTorch)",
            "1.25 GiB",
        ),
        ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 96.00 MiB", "96.00 MiB"),
        ("NPU out of memory. Tried to allocate more than 1EB memory.", "more than 1EB memory"),
    ],
)
def test_torch_npus_allocator_is_ascends_with_the_size(kb: KnowledgeBase, text: str, size: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "torch-npu-out-of-memory" and top.entry.family == "ascend"
    assert ("value", size) in top.captures
    assert size in top.cause
    assert "PYTORCH_NPU_ALLOC_CONF" in top.fix


def test_cudas_allocator_keeps_its_answer(kb: KnowledgeBase) -> None:
    text = "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity)"
    assert kb.lookup(text, top=1)[0].entry.id == "runtime-cuda-oom"


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity)",
        "RuntimeError: MLU out of memory. Tried to allocate more than 1EB memory.",
    ],
)
def test_other_devices_allocators_are_not_matched_as_torch_npus(kb: KnowledgeBase, text: str) -> None:
    """The entry's pattern and the Ascend marker take only the "NPU" sentence: another device's is at most a
    wording match (a partial paste, under the confidence floor), never a pattern match with its size."""
    for m in kb.lookup(text, top=3):
        if m.entry.id == "torch-npu-out-of-memory":
            assert m.reason == "words" and not m.captures


@pytest.mark.parametrize(
    ("text", "device"),
    [
        (
            "RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error "
            "Message'.",
            None,
        ),
        (
            "RuntimeError: Ascend kernel runtime initialization failed, device id: 11. The details refer to "
            "'Ascend Error Message'.",
            "11",
        ),
    ],
)
def test_mindsporess_ascend_runtime_init_is_ascends(kb: KnowledgeBase, text: str, device: str | None) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "mindspore-ascend-kernel-runtime-init-failed" and top.entry.family == "ascend"
    assert "'Ascend Error Message'" in top.fix
    if device is None:
        assert "index" not in dict(top.captures) and "device for this process" in top.cause
    else:
        assert ("index", device) in top.captures and f"device {device} for" in top.cause


def test_the_ascend_error_message_block_alone_names_ascend(kb: KnowledgeBase) -> None:
    text = (
        "----------------------------------------------------\n"
        "- Ascend Error Message:\n"
        "----------------------------------------------------\n"
        "Call rtSetDevice failed: device is busy"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "ascend"


@pytest.mark.parametrize(
    "text",
    [
        "rkllm init start\nfailed to allocate npu memory\nrkllm init failed",
        "ret = rkllm_init(&handle, &param, &callback); returned -1",
        "OSError: librkllmrt.so: cannot open shared object file: No such file or directory",
    ],
)
def test_rkllm_names_rknn(kb: KnowledgeBase, text: str) -> None:
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


@pytest.mark.parametrize("prefix", ["", "[ERROR] [Qnn ExecuTorch]:  <E> ", "E QnnDsp  :  <E> "])
def test_the_htp_stub_version_check_names_both_builds(kb: KnowledgeBase, prefix: str) -> None:
    text = (
        f"{prefix}Stub lib id mismatch: expected (v2.33.0.250327124043_117917), "
        "detected (v2.29.0.241129103708_105762)\nUnable to load Remote symbols 1008"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-stub-lib-id-mismatch"
    assert dict(top.captures) == {
        "version": "v2.33.0.250327124043_117917",
        "value": "v2.29.0.241129103708_105762",
    }
    assert "v2.33.0.250327124043_117917" in top.fix and "ADSP_LIBRARY_PATH" in top.fix


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        (
            "[ERROR] LITE(204711,ffff8a1c0010,converter_lite):2025-01-02-03:04:05.678.901 "
            "[acl_pass.cc:37] Run] Acl pass impl run failed.",
            [],
        ),
        (
            "[ERROR] ME(318204,fffe2c0b1120,python):2025-01-02 Call aclgrphBuildModel fail: EE1001: The "
            "argument is invalid.",
            ["ascend:EE1001"],
        ),
        (
            "[ERROR] RUNTIME(215407,python):2025-01-02 Init device failed, error code is 507033",
            ["acl:507033"],
        ),
        ("aclrtSetDevice failed (507033), see the plog", ["acl:507033"]),
        ("rtStreamSynchronize failed, ret=507011, stream 3", ["acl:507011"]),
    ],
)
def test_a_process_id_in_the_log_prefix_is_no_acl_code(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "line",
    [
        "NPU out of memory. Tried to allocate more than 1EB memory",
        "RuntimeError: Ascend kernel runtime initialization failed. The details refer to "
        "'Ascend Error Message'.",
    ],
)
def test_the_log_scan_reports_each_new_single_line_among_plain_lines(kb: KnowledgeBase, line: str) -> None:
    log = "step 1 done\nloading model\n" + line + "\nstep 2 done\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]
