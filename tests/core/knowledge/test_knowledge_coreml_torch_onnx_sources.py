"""Branch s26d: Core ML and torch.onnx entries written from the tools' own sources.

Each row is the text as the source prints it (coremltools' frontend and MIL ops, its ModelPackage reader,
PyTorch's Core ML delegate; torch.onnx's TorchScript exporter, tracer and dynamo exporter; onnxscript's
version converter) with made-up values, answered by its entry with the captured parts in the advice.  The
negative tests pin where an entry stops: a keyword another tool's export() rejects, the flags of the
warning that the dynamo exporter raised the opset, and a squeeze warning's two forms.
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import answered_by_entry, assert_advice, assert_answered

CASES = [
    # ---- torch_onnx: the dynamo exporter and onnxscript's version converter ----
    (
        "W0417 18:01:35.564000 313424 torch/onnx/_internal/exporter/_compat.py:114] Setting ONNX exporter to "
        "use operator set version 18 because the requested opset_version 13 is a lower version than we have "
        "implementations for. Automatic version conversion will be performed.",
        "torch-onnx-s26d-opset-raised-to-torchlib",
        ("opset_version=13", "dynamo=False"),
    ),
    (
        "Failed to convert the model to the target version 12 using the ONNX C API. "
        "The model was not modified",
        "torch-onnx-s26d-version-conversion-failed",
        ("opset 12", "dynamo=False"),
    ),
    (
        "The model version conversion is not supported by the onnxscript version converter and fallback is "
        "enabled. The model will be converted using the onnx C API (target version: 10).",
        "torch-onnx-s26d-version-conversion-failed",
        ("fallback enabled",),
    ),
    (
        "UserWarning: # 'dynamic_axes' is not recommended when dynamo=True, and may lead to "
        "'torch._dynamo.exc.UserError: Constraints violated.' Supply the 'dynamic_shapes' argument instead "
        "if export is unsuccessful.",
        "torch-onnx-s26d-dynamic-axes-with-dynamo",
        ("torch.export.Dim",),
    ),
    (
        "RuntimeError: Encountered autograd state manager op <built-in function _set_grad_enabled> trying to "
        "change global autograd state while exporting.",
        "torch-onnx-s26d-export-autograd-state-op",
        ("<built-in function _set_grad_enabled>", "torch.no_grad()"),
    ),
    # ---- torch_onnx: the TorchScript exporter and the JIT tracer ----
    (
        "torch.onnx.errors.SymbolicValueError: ONNX symbolic expected the output of `%zz.1 : Tensor = "
        "aten::zz_pool(%input)` to be a quantized tensor. Is this likely due to missing support for "
        "quantized `aten::zz_pool`. Please create an issue on https://github.com/pytorch/pytorch/issues",
        "torch-onnx-s26d-quantized-output-expected",
        ("aten::zz_pool", "DeQuantStub"),
    ),
    (
        "UserWarning: No names were found for specified dynamic axes of provided input.Automatically "
        "generated names will be applied to each dynamic axes of input zz_tokens",
        "torch-onnx-s26d-dynamic-axes-list",
        ("'zz_tokens'",),
    ),
    (
        "RuntimeError: Tried to trace <__torch__.torch.classes.c10d.ProcessGroup object at 0x2969c520> "
        "but it is not part of the active trace. Modules that are called during a trace must be "
        "registered as submodules of the thing being traced.",
        "torch-onnx-s26d-tracer-object-not-in-trace",
        ("<__torch__.torch.classes.c10d.ProcessGroup object at 0x2969c520>", "nn.ModuleList"),
    ),
    (
        "RuntimeError: Expected a sequence type, but received a non-iterable type in graph output index 3",
        "torch-onnx-s26d-sequence-output-not-list",
        ("output 3", "torch.stack"),
    ),
    (
        "TypeError: export() got an unexpected keyword argument 'use_external_data_format'",
        "torch-onnx-s26d-export-kwarg-version",
        ("'use_external_data_format'",),
    ),
    (
        "UserWarning: '_retain_param_name' is deprecated and ignored. It will be removed in the next PyTorch "
        "release.",
        "torch-onnx-s26d-deprecated-export-args",
        ("'_retain_param_name'", "Remove _retain_param_name"),
    ),
    (
        "UserWarning: Exporting a model to ONNX with a batch_size other than 1, with a variable length with "
        "LSTM can cause an error when running the ONNX model with a different batch size. Make sure to save "
        "the model with a batch size of 1, or define the initial states (h0/c0) as inputs of the model.",
        "torch-onnx-s26d-lstm-batch-warning",
        ("h0",),
    ),
    (
        "UserWarning: ONNX export squeeze with negative axis -2 might cause the onnx model to be incorrect. "
        "Negative axis is not supported in ONNX. Axis is converted to 1 based on input shape at export time.",
        "torch-onnx-s26d-negative-axis-rank-fixed",
        ("axis -2 as 1", "opset_version=11"),
    ),
    (
        "UserWarning: This model contains a squeeze operation on dimension 2. The size of this dimension in "
        "the given input is 7. The model will be exported without the squeeze node. If the model is intended "
        "to be used with dynamic input shapes, please export with dynamic_axes argument.",
        "torch-onnx-s26d-squeeze-unknown-dim",
        ("x.squeeze(2)", "it was 7"),
    ),
    (
        "DeprecationWarning: You are using the legacy TorchScript-based ONNX export. "
        "Starting in PyTorch 2.9, the new torch.export-based ONNX exporter will be the default.",
        "torch-onnx-s26d-legacy-exporter-deprecation",
        ("dynamo=False",),
    ),
    # ---- coreml ----
    (
        "Failed to read model package at file:///Users/zz/App/zz_encoder.mlpackage. Error: A valid manifest "
        "does not exist at path: /Users/zz/App/zz_encoder.mlpackage/Manifest.json",
        "coreml-s26d-model-package-manifest",
        ("file:///Users/zz/App/zz_encoder.mlpackage", "Manifest.json"),
    ),
    (
        "ValueError: Convolution with dynamic weights does not support dilations!",
        "coreml-s26d-dynamic-weight-conv-dilation",
        ("dilation",),
    ),
    (
        "ValueError: Only bool and int index handled, got fp16",
        "coreml-s26d-torch-index-put",
        ("fp16", "torch.where"),
    ),
    (
        'ValueError: Unsupported quant scheme "torch.per_channel_symmetric"',
        "coreml-s26d-torch-quant-scheme",
        ("torch.per_channel_symmetric", "linear_quantize_weights"),
    ),
    (
        "NotImplementedError: Unhandled node type <class 'zz.Config'>. Node content is: Config(zz=1)",
        "coreml-s26d-torch-graph-node-type",
        ("<class 'zz.Config'>", "run_decompositions"),
    ),
    (
        'E5RT encountered an STL exception. msg = Espresso exception: "Invalid state": MpsGraph backend '
        "validation on incompatible OS.",
        "coreml-s26d-e5rt-mpsgraph-unavailable",
        ("cpuOnly",),
    ),
]

test_the_source_form_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


def test_the_reshape_entry_reads_the_bracketed_target_coremltools_prints(kb: KnowledgeBase) -> None:
    """MIL's reshape prints the target as a list (``list(self.shape.val)``); the entry read parentheses
    only."""
    top = assert_answered(
        kb,
        "ValueError: Invalid target shape in `reshape` op ((1, 3, 64, 64) to [1, 3, 8, 8, 17]).",
        ("(1, 3, 64, 64)",),
        entry="coreml-s21a-mil-reshape-target",
    )
    assert dict(top.captures)["shape2"].strip("[]") == "1, 3, 8, 8, 17"


def test_another_tools_export_keyword_is_not_torch_onnx(kb: KnowledgeBase) -> None:
    """Only the keywords torch.onnx.export removed or added are its own; another export() (a trainer's,
    a hub's) rejecting some other keyword is not answered by the entry's pattern."""
    for kw in ("format", "imgsz", "optimize", "half"):
        for m in kb.lookup(f"TypeError: export() got an unexpected keyword argument '{kw}'", top=3):
            assert m.entry.id != "torch-onnx-s26d-export-kwarg-version" or m.reason != "pattern"


def test_the_opset_warning_captures_both_versions(kb: KnowledgeBase) -> None:
    for have, asked in ((18, 9), (20, 17), (23, 11)):
        text = (
            f"Setting ONNX exporter to use operator set version {have} because the requested opset_version "
            f"{asked} is a lower version than we have implementations for."
        )
        top = kb.answer(text).matches[0]
        assert top.entry.id == "torch-onnx-s26d-opset-raised-to-torchlib"
        assert dict(top.captures) == {"version": str(have), "value": str(asked)}


def test_the_unknown_shape_squeeze_names_its_dimension(kb: KnowledgeBase) -> None:
    text = (
        "UserWarning: This model contains a squeeze operation on dimension 3 on an input with unknown shape. "
        "Note that if the size of dimension 3 of the input is not 1, the ONNX model will return an error."
    )
    top = assert_answered(kb, text, ("x.squeeze(3)",), entry="torch-onnx-s26d-squeeze-unknown-dim")
    assert dict(top.captures)["axis"] == "3"


def test_the_core_ml_delegate_error_carries_core_mls_own_description(kb: KnowledgeBase) -> None:
    """PyTorch's Core ML delegate wraps an NSError: the entry names the step, the description, the domain and
    the code; the description is Core ML's own, which the advice quotes rather than follows (an envelope)."""
    text = (
        "c10::Error: Error running CoreML inference Error details:  Localized_description: zz failure "
        "Domain: com.apple.CoreML Code: 0 User Info: {"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "coreml-s26d-pytorch-coreml-delegate"
    assert dict(top.captures) == {
        "what": "Error running CoreML inference",
        "reason": "zz failure",
        "value": "com.apple.CoreML",
        "value2": "0",
    }
    assert_advice(top, ("'zz failure'", "com.apple.CoreML", "code 0"), judged_specific=False)
