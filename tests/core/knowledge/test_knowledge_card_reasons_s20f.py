"""A card answered by the reason inside it (s20f): onnxruntime's exception location read by the component its
path names, and text any tool prints (the dynamic loader, the C++ library) inside a named tool's message.

onnxruntime's exceptions print where they were thrown (include/onnxruntime/core/common/exceptions.h,
FormatErrorMessage: '<path>:<line> <function> [<condition> was false.] <message>').  Where only a card
answers such a message (a status-code card, the run-time envelope, a Web API envelope), the path's component
says which part of onnxruntime stopped: a graph transformer (core/optimizer), an execution provider
(core/providers/<ep>), the graph loader (core/graph), or SafeInt's overflow check (core/common/safeint.h).
Each message here is written from that form with names and values of our own; none is a message of the
evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

_ORT = "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "
_ENV = (
    "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while running "
    "{op} node. Name:'{name}' Status Message: "
)


def test_optimizer_location_answers_with_the_optimization_level(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        _ORT + "/onnxruntime_src/onnxruntime/core/optimizer/qdq_transformer/qdq_util.cc:88 "
        "bool onnxruntime::QDQ::IsQDQPairSupported() scale_a was false. Missing scale for node dq_41",
        ("onnxruntime/core/optimizer/qdq_transformer/qdq_util.cc", "ORT_DISABLE_ALL", "disabled_optimizers"),
        clause="ort-location-graph-optimizer",
    )
    assert ("line", "88") in top.captures


def test_provider_location_names_the_provider_and_the_node(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        _ENV.format(op="MatMul", name="/blocks.3/attn/MatMul_1")
        + "C:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\webgpu\\program_manager.cc:120 "
        "onnxruntime::webgpu::ProgramManager::Build shader compilation failed",
        ("webgpu", "/blocks.3/attn/MatMul_1", "CPUExecutionProvider", "shader compilation failed"),
        clause="ort-location-execution-provider",
    )
    assert ("ep", "webgpu") in top.captures


def test_provider_location_on_the_next_line(kb: KnowledgeBase) -> None:
    """The Web API prints the location alone on its line and the condition on the next."""
    assert_answered(
        kb,
        "Error: failed to call OrtRun(). ERROR_CODE: 1, ERROR_MESSAGE:\n"
        "/mnt/build/onnxruntime/core/providers/js/js_kernel.cc:77\n"
        "kernel_ptr != nullptr was false.",
        ("The js execution provider", "kernel_ptr != nullptr was false."),
        clause="ort-location-execution-provider",
    )


def test_cpu_kernels_are_not_read_as_a_provider(kb: KnowledgeBase) -> None:
    """core/providers/cpu holds the default kernels, not an execution provider that took part of the graph."""
    top = kb.lookup(
        _ENV.format(op="Gather", name="gather_9")
        + "/onnxruntime_src/onnxruntime/core/providers/cpu/tensor/gather.cc:55 Status Prepare zzz qqq",
        top=1,
    )[0]
    assert not top.entry.id.endswith("+ort-location-execution-provider")


def test_graph_location_sends_the_user_to_the_checker(kb: KnowledgeBase) -> None:
    assert_answered(
        kb,
        _ORT + "Load model from net.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model.cc:140 "
        "onnxruntime::Model::Model something unexpected in the proto",
        ("onnxruntime/core/graph/model.cc", "onnx.checker.check_model", "strict_mode=True"),
        clause="ort-location-graph-load",
    )


@pytest.mark.parametrize("op, name", [("Expand", "/decoder/Expand_7"), ("Tile", "tile_out")])
def test_safeint_overflow_points_at_the_node_shapes(kb: KnowledgeBase, op: str, name: str) -> None:
    """Looked up as a message of this form the KB was not written from would be: without the entry written
    for SafeInt's overflow, the clause answers the run-time envelope (the node and its shapes)."""
    own = [i for i, e in enumerate(kb.entries) if e.id == "onnxruntime-safeint-overflow"]
    assert own
    top = assert_answered(
        kb.without(own),
        _ENV.format(op=op, name=name) + "/onnxruntime_src/onnxruntime/core/common/safeint.h:17 static void "
        "SafeIntExceptionHandler<onnxruntime::OnnxRuntimeException>::SafeIntOnOverflow() Integer overflow",
        (name, "Integer overflow", "negative"),
        clause="ort-safeint-overflow",
    )
    assert ("op", name) in top.captures


# --- text any tool prints, inside a message that names the tool (kb.lookup: clauses.runtime_answered) -----


def test_runtime_text_answers_the_named_tools_card(kb: KnowledgeBase) -> None:
    """The dynamic loader's 'invalid ELF header' in a message that names RKNN: the tool stays RKNN, the
    advice is the loader's (the file is no library), with the file named."""
    top = assert_answered(
        kb,
        "I RKNN: set log level to 3\nOSError: /opt/board/lib/librknnrt.so: invalid ELF header",
        ("/opt/board/lib/librknnrt.so", "git lfs pull"),
        entry="family-rknn+runtime-invalid-elf-header",
    )
    assert top.entry.family == "rknn"
    assert ("path", "/opt/board/lib/librknnrt.so") in top.captures
    assert top.reason == "pattern"


def test_runtime_text_alone_is_still_its_own_answer(kb: KnowledgeBase) -> None:
    """No tool named: the runtime entry answers first, as before."""
    top = kb.lookup("OSError: /opt/board/lib/libfoo.so: invalid ELF header", top=1)[0]
    assert top.entry.id == "runtime-invalid-elf-header"


def test_a_process_ending_answers_no_card(kb: KnowledgeBase) -> None:
    """A signal says how the process ended, not why: the tool's card is not answered by it."""
    for m in kb.lookup(
        "I RKNN: set log level to 3\nE RKNN: zzz qqq\nSegmentation fault (core dumped)", top=5
    ):
        assert "+runtime-" not in m.entry.id, m.entry.id
