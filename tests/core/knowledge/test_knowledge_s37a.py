"""Session 37a: what a message the knowledge base was not written from gets, for the claimed families.

* QNN codes: the reader of a number after ``error``/``failed`` on a QNN line stays on that line (a logcat
  paste's next line starts with the year, which was read as ``qnn:2025`` and answered by the 2xxx card).
* Ascend: aclnn's "Do not find tiling func of <op>!" (and its newer "The tiling function does not exist")
  is no tiling check that refused the call: no tiling function is registered for the op (the ops
  package's tiling library, its version, set_env.sh, a custom op's registration).
* RKNPU driver: the kernel's devres failure as newer kernels print it through dev_err_probe
  ("error -EBUSY: can't request region for resource ...") reaches the entry the older wording did.
* onnx: "No Op registered for <op> with domain_version of 0" names its cause: the model declares opset
  version 0 for the node's domain (no schema exists at version 0), not an unknown operator.

Messages here are made up around the tools' own wording (no evaluation record is copied).
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes


def _keys(text: str) -> list[str]:
    return [c.key for c in extract_codes(text)]


def test_a_qnn_failed_line_does_not_read_the_next_lines_year_as_a_code() -> None:
    text = (
        "2024-11-02 10:01:02.123 4242-4243 QnnDsp com.example.app E   <E> Htp startup on load failed\n"
        "2024-11-02 10:01:02.124 4242-4243 QnnDsp com.example.app E   <E> Failed to init router\n"
    )
    assert not any(k.startswith("qnn:") for k in _keys(text))


def test_a_qnn_code_on_its_own_line_is_still_read() -> None:
    assert "qnn:4000" in _keys("[ ERROR ]  <E> Failed to load skel, error: 4000\n")
    assert "qnn:1008" in _keys("QnnHtp <E> graph execute failed 1008\n")


def test_no_tiling_function_names_the_op_and_its_package(kb: KnowledgeBase) -> None:
    text = (
        "EZ9999: Inner Error!\n"
        "EZ9999[PID: 77] 2025-01-02-03:04:05.678.901 AclNN_Inner_Error(EZ9999):  Do not find tiling func of "
        "RmsNorm!\n        TraceBack (most recent call last):\n"
        "       Check NnopbaseExecutorDoTiling(executor) failed\n"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "ascend-s37a-aclnn-no-tiling-func"
    assert dict(top.captures) == {"op_type": "RmsNorm"}
    assert "no host-side tiling function registered for operator RmsNorm" in top.cause
    assert (
        "liboptiling.so" in top.fix and "IMPL_OP_OPTILING registers exactly the op type 'RmsNorm'" in top.fix
    )


def test_the_newer_wording_of_a_missing_tiling_function_reaches_the_same_entry(kb: KnowledgeBase) -> None:
    text = "Failed to execute operator GroupedMatmul. Reason: The tiling function does not exist."
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "ascend-s37a-aclnn-no-tiling-func"
    assert dict(top.captures) == {"op_type": "GroupedMatmul"}


def test_a_tiling_check_that_failed_is_still_the_do_tiling_entry(kb: KnowledgeBase) -> None:
    text = (
        "       FlashAttentionScore do tiling failed, ret is -1.\n"
        "       Check NnopbaseExecutorDoTiling(executor) failed"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "ascend-s23b-aclnn-do-tiling-failed"
    assert dict(top.captures) == {"op_type": "FlashAttentionScore"}


def test_the_rknpu_region_busy_line_of_newer_kernels_reaches_its_entry(kb: KnowledgeBase) -> None:
    for line in (
        "[    3.100000] RKNPU fdab0000.npu: error -EBUSY: can't request region for resource "
        "[mem 0xfdab0000-0xfdabffff]",
        "[    3.100000] RKNPU fdab0000.npu: can't request region for resource [mem 0xfdab0000-0xfdabffff]",
    ):
        top = kb.lookup(line, top=1)[0]
        assert top.entry.id == "rknn-h23f3-rknpu-mem-region-busy"
        assert "0xfdab0000-0xfdabffff" in top.cause


def _web_session_error(op: str, version: int) -> str:
    """onnxruntime-web's session envelope around the checker's no-schema line for ``op`` at ``version``."""
    return (
        "Error: Can't create a session. ERROR_CODE: 10, ERROR_MESSAGE: This is an invalid model. In Node, "
        f'("", {op}, "", -1) : ("x": tensor(float),) -> ("y": tensor(float),) , Error No Op registered for '
        f"{op} with domain_version of {version}"
    )


def test_domain_version_zero_names_the_models_opset_import(kb: KnowledgeBase) -> None:
    """Where a card answers the message (onnxruntime-web's session envelope), the clause reads the version."""
    top = kb.lookup(_web_session_error("Relu", 0), top=1)[0]
    assert top.entry.id.endswith("+onnx-s37a-domain-version-zero"), top.entry.id
    assert "declares opset version 0 for the domain of node Relu" in top.cause
    assert "make_opsetid('', 13)" in top.fix


def test_another_domain_version_keeps_the_general_no_schema_reading(kb: KnowledgeBase) -> None:
    ids = [m.entry.id for m in kb.lookup(_web_session_error("MyOp", 13), top=3)]
    assert not any("domain-version-zero" in i for i in ids), ids
