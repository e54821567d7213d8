"""The knowledge tests of PyTorch's ONNX exporter: each case is a vendor's own wording with made-up names
and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From s19a (was test_knowledge_torch_onnx_qualcomm_s19a.py):

Branch s19a: torch.onnx's and Qualcomm's common failures, from their own sources.

* torch.onnx, dynamo exporter (pytorch/pytorch torch/onnx/_internal/exporter: _dispatching.py, _core.py,
  _building.py; the FX exporter's fx/analysis/unsupported_nodes.py): DispatchError, ConversionError,
  GraphConstructionError, the decomposition step, 'Unsupported FX nodes';
* torch.onnx, TorchScript exporter and its tracer (symbolic_helper.py _parse_arg; csrc/jit/serialization/
  export.cpp; csrc/jit/passes/onnx/constant_fold.cpp; csrc/jit/frontend/tracer.h; csrc/jit/ir/constants.cpp;
  torch/_tensor.py): constants expected, Python operators, leftover ATen ops, pack/pad pairs, complex
  and unknown scalar types, Resize/Upsample before opset 11, the tracer's warnings;

From s20e (was test_knowledge_trt_trtllm_torch_onnx_s20e.py):

Branch s20e: TensorRT's ONNX parser, TensorRT-LLM and the dynamo-based torch.onnx exporter, the forms no
entry covered, from their own sources.

* torch.onnx (pytorch/pytorch: torch/onnx/_internal/onnx_proto_utils.py, torch/onnx/_internal/exporter/
  _core.py and _capture_strategies.py).

From s21a (was test_knowledge_coreml_torch_onnx_onnx_source_classes.py):

Core ML, torch.onnx and onnx failure classes written from the vendors' own sources answer with their entry.

Each form is a format string of the tool's source, filled with made-up names, as the tool prints it:

* torch.onnx: pytorch/pytorch ``torch/onnx/utils.py`` and the ``torch.export`` failures that
  ``torch.onnx.export(..., dynamo=True)`` surfaces (``torch/fx/experimental/symbolic_shapes.py``,
  ``torch/export/dynamic_shapes.py``).

Each row: the text, the entry that must answer it, and the captured parts its advice must name.

From s22a: torch.export's strict-mode and input checks (torch/_dynamo/symbolic_convert.py,
torch/export/_trace.py, torch/_subclasses/fake_tensor.py, torch/_dynamo/eval_frame.py) and the
TorchScript tracer's getOutput.

From s23c: the TorchScript exporter's opset range, strided slices before opset 10 and its "Unsupported: ONNX
export of <op> <case>" refusals (torch/onnx/_globals.py, symbolic_opset9/10/11.py), the JIT tracer's untypable
inputs/outputs (torch/csrc/jit/python/pybind_utils.h).

From s24f: the dynamo exporter's overload matching (torch/onnx/_internal/exporter/_dispatching.py).

From s25f: torch.export's ExportedProgram input check and dynamic_shapes validation (torch/_export/utils.py,
torch/export/dynamic_shapes.py).

From s30e (was test_knowledge_s30e_sources.py):

Branch s30e: texts of torch.onnx, coremltools, Paddle2ONNX, MNN, OpenVINO's Python API, LiteRT's Python
interpreter and the RKNPU runtime that users hit often and that got only a family card (or no confident
answer) before, each case written from the vendor's format string with names and values of our own (never
an evaluation message).

Vendor files read: pytorch/pytorch torch/onnx/errors.py (UnsupportedOperatorError),
torch/onnx/_internal/torchscript_exporter/symbolic_helper.py (_parse_arg, _onnx_unsupported),
torch/onnx/_internal/torchscript_exporter/utils.py (the opset ceiling warning), torch/onnx/_internal/exporter/
_compat.py (dynamic_axes to dynamic_shapes), torch/onnx/__init__.py (dynamic_shapes with dynamo=False);
apple/coremltools coremltools/converters/mil/input_types.py (Shape); PaddlePaddle/Paddle2ONNX
paddle2onnx/optimizer/paddle2onnx_optimizer.cc; alibaba/MNN
source/backend/*/ (onCreate's "Don't support type" and "The Creator Don't support type");
openvino's wheel openvino/tools/ovc/cli_parser.py and openvino/utils/data_helpers/data_dispatcher.py;
google-ai-edge/LiteRT tflite/python/interpreter_wrapper/interpreter_wrapper.cc and
tflite/core/model_builder.cc; airockchip/rknn-toolkit2 doc/rknn_server_proxy.md (the fd allocation FAQ).

Also from s28e_sources (test_knowledge_ascend.py) and s29a_sources and s31e_removed_apis
(test_knowledge_openvino.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.scan import scan_log
from tests.support.advice import (
    Case,
    answered_by_entry,
    answered_by_generic_entry,
    assert_answered,
    first_with_values,
    in_top3_with_values,
    not_among_answers,
)

CASES = [
    # ---- s19a (test_knowledge_torch_onnx_qualcomm_s19a.py) ----
    (
        "torch.onnx._internal.exporter._errors.DispatchError: No ONNX function found for "
        "<OpOverload(op='aten.zz_pool2d', overload='default')>. Failure message: No decompositions "
        "registered for the complex-valued input",
        "torch-onnx-s19a-dynamo-no-onnx-function",
        ("aten.zz_pool2d", "complex-valued", "custom_translation_table", "view_as_real"),
    ),
    (
        "<class 'torch.onnx._internal.exporter._errors.ConversionError'>: Error when translating node "
        "%zz_op : [num_users=1] = call_function[target=torch.ops.aten.zz_op.default](args = (%x,), "
        "kwargs = {}). See the stack trace for more information.",
        "torch-onnx-s19a-dynamo-translate-node",
        ("node zz_op", "torch.ops.aten.zz_op.default", "onnxscript"),
    ),
    (
        "<class 'torch.onnx._internal.exporter._errors.GraphConstructionError'>: Error when calling function "
        "'TracedOnnxFunction(<function aten_zz_like at 0x7f00aa12>)' with args '[SymbolicTensor('x')]' and "
        "kwargs '{'pin_memory': False}'",
        "torch-onnx-s19a-dynamo-graph-construction",
        ("aten_zz_like", "pip install -U onnxscript"),
    ),
    (
        "torch.onnx.OnnxExporterError: Failed to decompose the FX graph for ONNX compatibility. This is "
        "step 2/3 of exporting the model to ONNX.",
        "torch-onnx-s19a-dynamo-decompose-step",
        ("register_fake", "dynamo=False"),
    ),
    (
        "RuntimeErrorWithDiagnostic: Unsupported FX nodes: {'call_function': ['aten.zz_op.default', "
        "'aten.zz_other.Tensor']}. ",
        "torch-onnx-s19a-fx-unsupported-nodes",
        ("aten.zz_op.default", "dynamo=False", "OnnxRegistry"),
    ),
    (
        "TracerWarning: Converting a tensor to a Python integer might cause the trace to be incorrect. We "
        "can't record the data flow of Python values, so this value will be treated as a constant in the "
        "future.",
        "torch-onnx-s19a-tracer-python-value",
        ("Python integer", "dynamic_axes"),
    ),
    (
        "TracerWarning: torch.as_tensor results are registered as constants in the trace. You can safely "
        "ignore this warning if you use this function to create tensors out of constant variables that would "
        "be the same every time you call this function. In any other case, this might cause the trace to be "
        "incorrect.",
        "torch-onnx-s19a-tracer-constant-tensor",
        ("torch.as_tensor", "torch.full_like"),
    ),
    (
        "TracerWarning: Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of "
        "different shape won't change the number of iterations executed (and might lead to errors or "
        "silently give incorrect results).",
        "torch-onnx-s19a-tracer-iterating-tensor",
        ("fixed count", "torch.unbind"),
    ),
    (
        "RuntimeError: Expected node type 'onnx::Constant' for argument 'zdim' of node 'zz_unsqueeze', got "
        "'prim::Param'.",
        "torch-onnx-s19a-parse-arg-not-constant",
        ("zdim", "zz_unsqueeze", "prim::Param"),
    ),
    (
        "RuntimeError: ONNX export failed: Couldn't export Python operator ZzRoundFunction\n\nDefined at:\n",
        "torch-onnx-s19a-python-operator",
        ("ZzRoundFunction", "symbolic(g, *inputs)"),
    ),
    (
        "RuntimeError: ONNX export failed: Couldn't export operator aten::zz_op\n\nDefined at:\n",
        "torch-onnx-s19a-couldnt-export-operator",
        ("aten::zz_op", "register_custom_op_symbolic('aten::zz_op'"),
    ),
    (
        "RuntimeError: Cannot insert a Tensor that requires grad as a constant. Consider making it a "
        "parameter or input, or detaching the gradient\nTensor:\n 0.1000\n[ torch.FloatTensor{1} ]",
        "torch-onnx-s19a-requires-grad-constant",
        ("register_buffer", "detach"),
    ),
    (
        "UserWarning: Only steps=1 can be constant folded for opset >= 10 onnx::Slice op. Constant folding "
        "not applied.",
        "torch-onnx-s19a-slice-step-not-folded",
        ("step-1 Slice", "Nothing needs doing"),
    ),
    (
        "RuntimeError: ONNX export failed: Cannot export individual pack_padded_sequence or "
        "pad_packed_sequence; these operations must occur in pairs.",
        "torch-onnx-s19a-pack-padded-pairs",
        ("pad_packed_sequence", "same exported forward"),
    ),
    (
        '  File "/zz/site-packages/torch/onnx/_internal/jit_utils.py", line 308, in _create_node\n'
        "RuntimeError: ScalarType ComplexDouble is an unexpected tensor scalar type",
        "torch-onnx-s19a-unexpected-scalar-type",
        ("ComplexDouble", "view_as_real", "dynamo=True"),
    ),
    (
        "UserWarning: You are trying to export the model with onnx:Upsample for ONNX opset version 9. This "
        "operator might cause results to not match the expected results by PyTorch.",
        "torch-onnx-s19a-resize-before-opset11",
        ("onnx:Upsample at opset 9", "opset_version=11"),
    ),
    # ---- s20e (test_knowledge_trt_trtllm_torch_onnx_s20e.py) ----
    # --- torch.onnx ---
    (
        "torch.onnx.errors.OnnxExporterError: Module onnx is not installed!",
        "torch-onnx-s20e-onnx-not-installed",
        ("pip install onnx", "import onnx", "protobuf"),
    ),
    (
        "TypeError: Cannot take content out from the FakeTensor ('zz.weight'). Please replace the tensor "
        "with a tensor backed by real data using ONNXProgram.apply_weights() or save the model without "
        "initializers by setting include_initializers=False.",
        "torch-onnx-s20e-fake-tensor-content",
        ("initializer zz.weight is a FakeTensor", "apply_weights(model.state_dict())"),
    ),
    (
        "[torch.onnx] Obtain model graph for `ZzNet([...]` with `torch.export.export(..., strict=False)`"
        "... ❌",
        "torch-onnx-s20e-capture-strategy-failed",
        ("capture ZzNet([...] with torch.export.export(..., strict=False)", "TorchExportError"),
    ),
    (
        "torch._dynamo.exc.UserError: Constraints violated (zz_batch)! For more information, run with "
        'TORCH_LOGS="+dynamic".\n'
        "  - Not all values of zz_batch = L['x'].size()[0] in the specified range zz_batch <= 64 are valid "
        "because zz_batch was inferred to be a constant (1).\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "torch.onnx._internal.exporter._errors.TorchExportError: Failed to export the model with "
        "torch.export. This is step 1/3 of exporting the model to ONNX.",
        "torch-onnx-s20e-export-dim-specialized",
        ("dimension zz_batch", "fixed to 1", "Dim.AUTO", "at least 2"),
    ),
    # ---- s21a (test_knowledge_coreml_torch_onnx_onnx_source_classes.py) ----
    # torch.onnx, and torch.export failures surfaced through torch.onnx.export(..., dynamo=True)
    (
        "RuntimeError: number of input names provided (3) exceeded number of inputs (2)",
        "torch-onnx-s21a-io-names-exceed",
        ("3", "2", "input"),
    ),
    (
        "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on "
        "data-dependent expression Eq(u2, 1) (unhinted: Eq(u2, 1)).  (Size-like symbols: none)",
        "torch-onnx-s21a-data-dependent-guard",
        ("Eq(u2, 1)", "torch._check"),
    ),
    (
        "torch._dynamo.exc.UserError: Constraints violated (seq_len)! For more information, "
        'run with TORCH_LOGS="+dynamic".',
        "torch-onnx-s21a-constraints-violated",
        ("seq_len",),
    ),
    (
        "torch._dynamo.exc.UserError: When `dynamic_shapes` is specified as a dict, its "
        "top-level keys must be the arg names ['pixel_values'] of `inputs`, but here they are "
        "['images']. Alternatively, you could also ignore arg names entirely and specify "
        "`dynamic_shapes` as a list/tuple matching `inputs`.",
        "torch-onnx-s21a-dynamic-shapes-keys",
        ("pixel_values", "images"),
    ),
    # ---- s22a: pytorch/pytorch torch/_dynamo/symbolic_convert.py (dynamic control flow),
    # torch/export/_trace.py (args tuple, data-dependent value), torch/_subclasses/fake_tensor.py,
    # torch/_dynamo/eval_frame.py (check_user_input_output),
    # torch/csrc/jit/frontend/tracer.cpp (TracingState::getOutput)
    (
        "torch._dynamo.exc.UserError: Dynamic control flow is not supported at the moment. Please use "
        "functorch.experimental.control_flow.cond to explicitly capture the control flow.",
        "torch-onnx-s22a-export-dynamic-control-flow",
        ("torch.cond",),
    ),
    (
        "torch._subclasses.fake_tensor.DataDependentOutputException: aten._local_scalar_dense.default",
        "torch-onnx-s22a-export-data-dependent-op",
        ("(aten._local_scalar_dense.default)", "torch._check"),
    ),
    (
        "torch._dynamo.exc.UserError: It looks like one of the inputs with type `<class 'cfg.DecodeState'>` "
        "is not supported or pytree-flattenable. \nExported graphs inputs can only contain the following "
        "supported types: [<class 'torch.Tensor'>, <class 'int'>].",
        "torch-onnx-s22a-export-pytree-type",
        ("<class 'cfg.DecodeState'>", "input", "torch.export.register_dataclass"),
    ),
    (
        "torch._dynamo.exc.UserError: Expecting `args` to be a tuple of example positional inputs, "
        "got <class 'dict'>",
        "torch-onnx-s22a-export-args-not-tuple",
        ("<class 'dict'>", "(x,)"),
    ),
    (
        "RuntimeError: output 2 ( 0.5000 [ CPUDoubleType{1} ]) of traced region did not have observable "
        "data dependence with trace inputs; this probably indicates your program cannot be understood by "
        "the tracer.",
        "torch-onnx-s22a-tracer-output-not-dependent",
        ("Output 2", "torch.randn_like"),
    ),
    # s23c: pytorch/pytorch torch/onnx/_globals.py (export_onnx_opset_version), symbolic_opset9.py (slice,
    # _convolution), symbolic_opset10.py/symbolic_opset11.py ("Unsupported: ONNX export of <op> <case>") and
    # torch/csrc/jit/python/pybind_utils.h (toTypeInferredIValue)
    (
        "ValueError: Unsupported ONNX opset version: 23",
        "torch-onnx-s23c-opset-version-unsupported",
        ("opset_version=23", "opset 23", "ONNX_MAX_OPSET"),
    ),
    (
        "torch.onnx.errors.SymbolicValueError: step!=1 is currently not supported  [Caused by the value "
        "'y.7 defined in (%y.7 : Float(1, 8) = onnx::Slice(%a, %b)",
        "torch-onnx-s23c-slice-step-before-opset10",
        ("opset_version=10", "steps"),
    ),
    (
        "torch.onnx.errors.SymbolicValueError: Unsupported: ONNX export of index_put with accumulate=False, "
        "because the indices is a boolean tensor",
        "torch-onnx-s23c-unsupported-export-case",
        ("index_put", "(with accumulate=False, because the indices is a boolean tensor)", "dynamo=True"),
    ),
    (
        "RuntimeError: Tracer cannot infer type of (tensor([1., 2.]), None)\n:Only tensors and (possibly "
        "nested) tuples of tensors, lists, or dicts are supported as inputs or outputs of traced functions, "
        "but instead got value of type NoneType.",
        "torch-onnx-s23c-tracer-cannot-infer-type",
        ("(tensor([1., 2.]), None)", "cannot type: NoneType", "return a tuple"),
    ),
    # s24f: the dynamo exporter's dispatcher (torch/onnx/_internal/exporter/_dispatching.py,
    # get_matching_overload)
    (
        "- Failed to match overload `OnnxFunction(<function aten_cumsum at 0x7f01>)`: Parameter type "
        "not compatible with argument: param=`self: TReal`, assigned_types=`{}`, arg=`Tensor(BOOL)`",
        "torch-onnx-s24f-dynamo-overload-mismatch",
        ("self: TReal", "Tensor(BOOL)", "custom_translation_table"),
    ),
    (
        "- Failed to match overload `TracedOnnxFunction(<function aten_sum_dim at 0x7f02>)`: "
        "Attribute type not compatible with argument: param=`dim: INT`, arg=`1.5`",
        "torch-onnx-s24f-dynamo-overload-mismatch",
        ("dim: INT", "passes 1.5"),
    ),
    # s25f: torch.export's input check of an ExportedProgram (torch/_export/utils.py,
    # _check_input_constraints_for_graph), the first step of torch.onnx.export(dynamo=True)
    (
        "RuntimeError: Expected input at *args[0].shape[1] to be equal to 77, but got 128",
        "torch-onnx-s25f-exported-program-input-shape",
        ("*args[0] (dim 1) has 128", "expects 77", "dynamic_shapes"),
    ),
    (
        "RuntimeError: Unexpected number of dimensions in input at *args[1].shape "
        "(expected torch.Size([2, 3]), got torch.Size([2, 3, 4]))",
        "torch-onnx-s25f-exported-program-input-shape",
        ("torch.Size([2, 3, 4])", "torch.Size([2, 3])"),
    ),
    # s25f: torch.export's dynamic_shapes validation (torch/export/dynamic_shapes.py, _check_dynamic_shapes,
    # _tree_map_with_path), which torch.onnx.export(dynamo=True) runs in its first step
    (
        "torch._dynamo.exc.UserError: Detected mismatch between the structure of `inputs` and "
        "`dynamic_shapes`: `inputs['zz_feats']` is a <class 'list'>, "
        "but `dynamic_shapes['zz_feats']` is a <class 'dict'>",
        "torch-onnx-s25f-dynamic-shapes-structure",
        ("`inputs['zz_feats']` is a <class 'list'>", "a list of per-tensor specs"),
    ),
    (
        "torch._dynamo.exc.UserError: Cannot associate shape [{0: Dim('zz_b', min=1, max=4)}] specified at "
        "`dynamic_shapes['zz_cache']` to non-tensor type <class 'zz_pkg.ZzCache'> at `inputs['zz_cache']` "
        "(expected None)",
        "torch-onnx-s25f-dynamic-shapes-structure",
        ("<class 'zz_pkg.ZzCache'>", "torch.utils._pytree"),
    ),
    (
        "torch._dynamo.exc.UserError: Expected dynamic shape spec (Dim('zz_n'),) specified at "
        "`dynamic_shapes['zz_x']` to have the same length as the actual tensor shape torch.Size([2, 3]) "
        "(expected 2, but got 1 instead)",
        "torch-onnx-s25f-dynamic-shapes-spec-value",
        ("(Dim('zz_n'),)", "'zz_x'", "one entry per axis"),
    ),
    (
        "torch._dynamo.exc.UserError: Found different definitions Dim('zz_n', min=1, max=8) and "
        "Dim('zz_n', min=2, max=16) for the same symbolic dimension <class '__main__.zz_n'>!",
        "torch-onnx-s25f-dynamic-shapes-spec-value",
        ("Dim('zz_n', min=2, max=16)", "reuse that object"),
    ),
    (
        "torch._dynamo.exc.Unsupported: Dynamic shape operator\n"
        "  Explanation: Operator `aten.masked_select.default`'s output shape depends on input Tensor data.",
        "torch-onnx-s29a-dynamo-dynamic-shape-operator",
        ("aten.masked_select.default",),
    ),
    (
        "torch._dynamo.exc.Unsupported: dynamic shape operator: aten.unique_consecutive.default; "
        "to enable, set torch._dynamo.config.capture_dynamic_output_shape_ops = True",
        "torch-onnx-s29a-dynamo-dynamic-shape-operator",
        ("aten.unique_consecutive.default",),
    ),
    (
        "torch._dynamo.exc.Unsupported: data dependent operator: aten._local_scalar_dense.default; "
        "to enable, set torch._dynamo.config.capture_scalar_outputs = True",
        "torch-onnx-s29a-dynamo-item-scalar-output",
        ("aten._local_scalar_dense.default",),
    ),
    (
        "torch._export.verifier.SpecViolationError: Operator 'aten.index_put_.default' is not functional",
        "torch-onnx-s29a-export-spec-violation",
        ("aten.index_put_.default",),
    ),
    (
        "RuntimeError: Found <class 'mymodels.heads.DetectionOutput'> in output, which is not a known type. "
        "If this type holds tensors, you need to register a pytree for it.",
        "torch-onnx-s29a-output-not-known-type",
        ("mymodels.heads.DetectionOutput",),
    ),
    (
        "torch._dynamo.exc.Unsupported: Graph break due to unsupported builtin mylib_ext.PyCapsule.nms. This "
        "function is either a Python builtin (e.g. _warnings.warn) or a third-party C/C++ Python extension "
        "(perhaps created with pybind).",
        "torch-onnx-s29a-dynamo-unsupported-builtin",
        ("mylib_ext.PyCapsule.nms",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


# ---- s19a (test_knowledge_torch_onnx_qualcomm_s19a.py) ----


def test_dispatch_error_without_failure_message_still_names_the_op(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        "DispatchError: No ONNX function found for aten.zz_op.Tensor. Failure message: All overloads did not "
        "match the node `%zz_op`.",
        ("aten.zz_op.Tensor",),
        entry="torch-onnx-s19a-dynamo-no-onnx-function",
    )
    assert ("op_type", "aten.zz_op.Tensor") in top.captures


# ---- s20e (test_knowledge_trt_trtllm_torch_onnx_s20e.py) ----


def test_a_capture_strategy_that_succeeded_is_no_error(kb: KnowledgeBase) -> None:
    """Only the failure mark matches the entry's pattern; a success line shares its words at most (no phrase,
    so the log scan, which reports pattern and phrase matches, does not list it)."""
    line = (
        "[torch.onnx] Obtain model graph for `ZzNet([...]` with `torch.export.export(..., strict=False)`"
        "... ✅"
    )
    for m in kb.lookup(line, top=3):
        if m.entry.id == "torch-onnx-s20e-capture-strategy-failed":
            assert m.reason == "words"
    assert len(scan_log([line], kb)) == 0


def test_a_specialized_dimension_without_the_exporter_is_not_torch_onnx(kb: KnowledgeBase) -> None:
    """torch.export's constraint text is torch.onnx's only inside the exporter's report: alone (torch.compile
    in another framework) the entry's pattern does not answer it (its words may still rank it,
    unconfidently)."""
    text = (
        "Constraints violated (L['zz'].size()[0])! For more information, run with TORCH_LOGS=\"+dynamic\".\n"
        "  - Not all values of RelaxedUnspecConstraint(L['zz'].size()[0]) are valid because "
        "L['zz'].size()[0] was inferred to be a constant (64)."
    )
    for m in kb.lookup(text, top=3):
        if m.entry.id == "torch-onnx-s20e-export-dim-specialized":
            assert m.reason == "words"


TOP3_VALUE_CASES = [
    (
        "torch._dynamo.exc.InternalTorchDynamoError: PendingUnbackedSymbolNotFound: Pending unbacked symbols "
        "{u3} not in returned outputs FakeTensor(..., size=(u3, 2), dtype=torch.int64) ((2, 1), 0).",
        "torch-onnx-s28e-export-pending-unbacked",
        {"value": "{u3}"},
    ),
    (
        "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in method conv2d of type "
        "object at 0x7f00aa11>(*(FakeTensor(..., size=(2, 1, 64, 64)), Parameter(FakeTensor(..., "
        "size=(16, 3, 3, 3), requires_grad=True))), **{}):",
        "torch-onnx-s28e-fake-tensor-op-failed",
        {"op": "conv2d", "kind": "function"},
    ),
    (
        "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::col2im' to ONNX opset "
        "version 17 is not supported. Support for this operator was added in version 18, try exporting with "
        "this version.",
        "torch-onnx-unsupported-operator",
        {"op_type": "aten::col2im", "version": "17", "value": "18"},
    ),
    (
        # A paste that starts mid-message: only the exporter's own ending is left.
        "    ...to ONNX opset\nversion 9 is not supported. Support for this operator was added in "
        "version 11, try exporting with this version.",
        "torch-onnx-s28e-unsupported-operator-tail",
        {"value": "11"},
    ),
]

test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(TOP3_VALUE_CASES)


GENERIC_CASES = [
    (
        "torch._dynamo.exc.Unsupported: Failed to trace builtin operator\n"
        "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types "
        "['str'].\n"
        "  Hint: Avoid calling builtin `print` with argument types ['str'].",
        "torch-onnx-s29a-dynamo-graph-break-explained",
        ("Failed to trace builtin operator", "Avoid calling builtin `print`"),
    ),
]

test_a_catch_all_form_is_answered_by_its_generic_entry_with_the_text_after_it = answered_by_generic_entry(
    GENERIC_CASES
)


CONFIDENT_CASES: list[Case] = [
    # torch/onnx/_internal/torchscript_exporter/symbolic_helper.py (_parse_arg, a list of sizes)
    (
        "torch.onnx.errors.SymbolicValueError: Failed to export a node '%87 : Long(device=cpu) = "
        "onnx::Gather[axis=0](%85, %86)' (in list node %99 : int[] = prim::ListConstruct(%87, %98)) because "
        "it is not constant. Please try to make things (e.g. kernel sizes) static if possible.  [Caused by "
        "the value '99 defined in (%99 : int[] = prim::ListConstruct(%87, %98))' (type 'List[int]') in the "
        "TorchScript graph. The containing node has kind 'prim::ListConstruct'.]",
        "torch-onnx-s30e-list-node-not-constant",
        ("onnx::Gather",),
    ),
    # torch/onnx/symbolic_helper.py of 1.x releases (_parse_arg, an attribute)
    (
        "RuntimeError: Failed to export an ONNX attribute 'onnx::Cast', since it's not constant, please try "
        "to make things (e.g., kernel size) static if possible",
        "torch-onnx-attribute-not-constant",
        ("onnx::Cast",),
    ),
    # torch/onnx/errors.py: today's form names the op without quotes
    (
        "torch.onnx.errors.UnsupportedOperatorError: ONNX export failed on an operator with unrecognized "
        "namespace mmcv::modulated_deform_conv2d. If you are trying to export a custom operator, make sure "
        "you registered it with the right domain and version.",
        "torch-onnx-unrecognized-namespace",
        ("mmcv::modulated_deform_conv2d",),
    ),
    (
        "ONNX export failed on an operator with unrecognized namespace 'torchvision::roi_align'. If you are "
        "trying to export a custom operator, make sure you registered it with the right domain and version.",
        "torch-onnx-unrecognized-namespace",
        ("torchvision::roi_align",),
    ),
    (
        "torch.onnx.errors.OnnxExporterError: ONNX export failed on max_unpool2d, which is not implemented "
        "for opset 9. Try exporting with other opset versions.",
        "torch-onnx-s30e-not-implemented-for-opset",
        ("max_unpool2d", "9"),
    ),
    (
        "UserWarning: Exporting to ONNX opset version 21 is not supported. by 'torch.onnx.export()'. The "
        "highest opset version supported is 20. To use a newer opset version, consider "
        "'torch.onnx.export(..., dynamo=True)'.",
        "torch-onnx-s30e-opset-above-torchscript-max",
        ("21", "20"),
    ),
    (
        "RuntimeError: # Failed to convert 'dynamic_axes' to 'dynamic_shapes'. Please provide "
        "'dynamic_shapes' directly. Refer to the documentation for 'torch.export.export' for more "
        "information on dynamic shapes.",
        "torch-onnx-s30e-dynamic-axes-to-shapes",
        ("dynamic_shapes",),
    ),
    (
        "ValueError: The exporter only supports dynamic shapes through parameter dynamic_axes when "
        "dynamo=False.",
        "torch-onnx-s30e-dynamic-shapes-needs-dynamo",
        ("dynamic_axes",),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


FIRST_VALUE_CASES = [
    (
        "ModuleNotFoundError: No module named 'onnxscript'",
        "torch-onnx-s31e-onnxscript-missing",
        {"value": "onnxscript"},
    ),
    (
        "ModuleNotFoundError: No module named 'onnxscript._framework_apis.torch_2_11'",
        "torch-onnx-s31e-onnxscript-missing",
        {"value": "onnxscript._framework_apis.torch_2_11"},
    ),
    (
        "AttributeError: module 'torch.onnx' has no attribute 'ExportOptions'",
        "torch-onnx-s31e-dynamo-export-removed",
        {"name": "ExportOptions"},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


test_another_tools_failed_run_is_not_the_fake_tensor_entry = not_among_answers(
    [
        # Its core phrase is dynamo's 'Failed running call_', not any 'Failed running'.
        ("Failed running the model: out of memory", "torch-onnx-s28e-fake-tensor-op-failed"),
    ]
)


def test_the_whole_unsupported_operator_message_answers_with_the_main_entry_first(kb: KnowledgeBase) -> None:
    message = (
        "Exporting the operator 'aten::tril' to ONNX opset version 13 is not supported. Support for this "
        "operator was added in version 14, try exporting with this version."
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] == "torch-onnx-unsupported-operator"


def test_the_list_node_check_leads_over_its_torchscript_context(kb: KnowledgeBase) -> None:
    """The SymbolicValueError's '[Caused by the value ...]' tail only says where the failure is: it is a
    context line of its tool, ranked under the check that states the failure."""
    message = (
        "torch.onnx.errors.SymbolicValueError: Failed to export a node '%87 : Long(device=cpu) = "
        "onnx::Gather[axis=0](%85, %86)' (in list node %99 : int[] = prim::ListConstruct(%87, %98)) because "
        "it is not constant. Please try to make things (e.g. kernel sizes) static if possible.  [Caused by "
        "the value '99 defined in (%99 : int[] = prim::ListConstruct(%87, %98))' (type 'List[int]') in the "
        "TorchScript graph. The containing node has kind 'prim::ListConstruct'.]"
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] == "torch-onnx-s30e-list-node-not-constant"
    assert "torch-onnx-caused-by-value" in ids
    alone = kb.answer(
        "[Caused by the value 'x.3 defined in (%x.3 : Float(*, strides=[1]) = aten::relu(%x))' "
        "(type 'Tensor') in the TorchScript graph. The containing node has kind 'aten::relu'.]",
        top=1,
    )
    assert alone.matches[0].entry.id == "torch-onnx-caused-by-value"
