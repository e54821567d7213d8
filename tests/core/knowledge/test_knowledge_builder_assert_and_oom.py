"""Readings a hand draw of held-out answers found false or garbled, fixed for every message (disclosed in the
eval set's README): TensorRT's own C assert() with a ``cond && "text"`` is no requirement of an ONNX parser
importer; "no implementation for node" after a GPU out-of-memory line does not call for a larger workspace; a
DirectML HRESULT line without its node does not render "for node the argument".  Messages are made up in the
tools' wording."""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase


def test_a_builder_c_assert_is_not_read_as_an_onnx_importer_requirement(kb: KnowledgeBase) -> None:
    text = (
        "app: ../builder/tacticOptimizer.cpp:1999: void nvinfer1::builder::{anonymous}::frob("
        'nvinfer1::builder::Node*): Assertion `!n->options.empty() && "no options left"\' failed.'
        "\nAborted (core dumped)"
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert not any("stated-requirement" in i for i in ids), ids


def test_an_importer_assertion_is_still_its_stated_requirement(kb: KnowledgeBase) -> None:
    text = (
        "While parsing node number 7 [Frob]:\nERROR: builtin_op_importers.cpp:1234 In function importFrob:\n"
        '[8] Assertion failed: axis < rank && "Frob axis must be below the rank"'
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+onnx-trt-stated-requirement"), top.entry.id
    assert "Frob axis must be below the rank" in top.cause


def test_no_implementation_after_an_out_of_memory_line_says_to_free_memory_first(kb: KnowledgeBase) -> None:
    text = (
        "[E] Error[1]: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n"
        "[E] Error[10]: IBuilder::buildSerializedNetwork: Error Code 10: Internal Error (Could not find any "
        "implementation for node /blk/MatMul_2.)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-no-implementation-for-node", top.entry.id
    assert top.fix.startswith("If the lines before it report the GPU out of memory, make memory free")
    assert "/blk/MatMul_2" in top.fix


def test_a_directml_hresult_without_its_node_says_so_in_words(kb: KnowledgeBase) -> None:
    text = (
        r"C:\src\onnxruntime\core\providers\dml\DmlExecutionProvider\src\FusedGraphKernel.cpp(210)"
        r"\onnxruntime.dll!00007FF000000000: (caller: 00007FF000000001) Exception(3) tid(1a2b) 80070057 The "
        "parameter is incorrect."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-dml-hresult", top.entry.id
    assert "for the node it was given and returned HRESULT 80070057" in top.cause
    assert "the argument" not in top.cause + top.fix
