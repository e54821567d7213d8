"""The tools' own inner forms, as wording cues (s32i and s36b: the claimed tools; s35f: the new families).

With a tool's markers blanked (``bench/eval_explain.py --blank-markers``) or never pasted, what is left of its
own text is often a form its sources print around a name, a number or a path: no 4-gram of its wording
survives what lies in between.  Each ``(family, literal, form)`` of :data:`INNER_CUES` counts as one of that
family's 4-grams for :func:`.kb.wording_cue`, as onnxruntime's (``kb._ENVELOPE_CUES``, session s32c) do; the
literal, in the lower-cased text, is tested before the form.

Each form is one the tool's own sources print, and each holds in its own tool's dev messages only (dev
records with their markers kept and blanked, and the entries' text): TensorRT's log location ``func::N]`` 71
(tensorrt only), its error names ``N: Internal Error (`` 80, its builder's ``(Could not find any
implementation for node`` 17; CANN's ``[PID: N]`` 23 and its log location ``[file.cc:N]tid Function:`` 3;
onnx's ``in dimension N: (a) vs (b)`` 4 (and one onnxsim message that onnx's shape inference printed, whose
record accepts onnx too), its checker's ``==> Context:`` 5 and ``is higher than the checker's`` 4; QNN's HTP
location ``:N:ERROR:`` 5; RKNN-Toolkit's ``Invalid
input_shape = [`` 2; onnx-optimizer's ``passes/<file>.h:N: <function>: Assertion`` 2 (onnxsim only).

On ``bench/eval_explain.py --blank-markers``: first tool right tensorrt 167 -> 173 of 193, ascend 72 -> 75 of
86, onnx 45 -> 50 of 57, qualcomm 51 -> 52 of 66, rknn 84 -> 85 of 95, onnxsim 9 -> 10 of 13 (claimed 629 ->
646 of 747), confident and wrong 22 -> 20; the other families did not move.  With the markers kept, two dev
answers' second or third match became their own tool's card in place of another tool's entry; no first
match, confidence or "not covered" moved.  Measured and dropped: CANN's log time stamp
``2021-11-18-01:09:39.548.671`` (slog's, 38 ascend messages, +1 on the proxy, but it pushed a same-tool entry
out of a MindSpore message's top 3 for the Ascend card: no right-tool gain), its driver location ``][LINE:N]``
(28 ascend, but also one onnxruntime CANN execution provider message), RKNN's bare ``[HH:MM:SS.mmm]`` after
``E RKNN:`` (many tools print such a time).

Session s35f added the new families' forms under the same rules, each cited to the tool's source and held in
its own tool's dev messages only (the number of dev messages holding it, with their markers kept and blanked
alike): OpenVINO's Model Optimizer replacer ``"<id>" (<class '...'>): `` 7, its samples' ``[ INFO ] `` 4, its
2021 Python API's ``inference_engine.ie_api.`` 3, its NVIDIA plugin's ``file.cpp:N(function): `` 1 and its
Model Server's ``[level][file.cpp:N] `` 2; TFLite's ``'<OP>' version '<N>'`` 12 (and one Edge TPU compiler
record, the same resolver's text, which TFLite's marker names first) and its converter's ``'tf.<Op>' op`` 2;
Paddle2ONNX's ``[<op>: <var>.tmp_N]`` 2, its ``Model file path:`` / ``Parameters file path:`` lines 3, its
legacy exporter's ``to onnx, which op_type is '<type>' with inputs: {`` 1 and its old
``/op_mapper/<module>.py`` frames 1; TVM's ``_ffi.base`` 3, its ``src/<relay|tir|codegen...>/<file>.cc:N`` 3,
its Relax ONNX importer's ``Error converting operator <Op>, with inputs: [`` 1 and its
``Expect <type> but get `` 2; MNN's ``NOT_SUPPORTED_OP: [ <op> ]`` 9 and its OpenCL
``: <code>, info:<kernel>`` 1; ncnn's ``failed`` then ``Try`` 5; Core ML's progress ``N/M [..., R ops/s]`` 3,
its ``{ key = "value"; }`` userInfo 8, NSError's ``Error Domain=... Code=N `` 4, ``/model.mil`` 6 and its MIL
``Op "<name>" (op_type: <type>) `` 3.  No scan-noise log holds any of them; the KB entries that hold one are
all of its own tool.

On ``bench/eval_explain.py --blank-markers``: first tool right coreml 57 -> 68 of 84, mnn 18 -> 24 of 32, ncnn
29 -> 33 of 41, openvino 61 -> 68 of 87, paddle2onnx 11 -> 15 of 18, tflite 43 -> 48 of 62, tvm
12 -> 17 of 20, torch_onnx 11 of 18 unchanged (new families 242 -> 284 of 362), confident and wrong 11 -> 6
(four confident answers that named the process's end now name their own tool, one of them confidently; one
OpenVINO message's answer is now withheld, another tool closest); the claimed families did not move
(646 of 747, 20).  With the markers kept ``bench/eval_explain.py --specific`` and
``--leave-source-out --specific`` print the same, line for line. Measured and dropped: OpenVINO's source
location ``inference/src/cpp/core.cpp:90:`` (what ``Exception from src/`` leaves, 13 openvino messages, but an
onnxruntime OpenVINO execution provider entry's text and an Intel NPU record hold it too), onnx2ncnn's
attribute lines ``  # axis=1`` (3 ncnn, no answer moved, and a Python comment has the form), Paddle2ONNX's
``Due to the operator: <op>, requires`` (its words before the operator are one of its 4-grams already; the one
message's cue turned, not its answer), Paddle's bare variable ``<name>.tmp_N`` (a TensorRT message,
onnxruntime and RKNN logs in the scan noise), torch.onnx's ``aten.<op>.default`` (ExecuTorch's QNN,
Torch-TensorRT and LiteRT entries print it), TFLite's ``Node number N (<OP>)`` left as ``N (<OP>)``
(onnxruntime, TensorRT, CANN and Core ML texts hold ``N (<name>)``), MNN's operator list ``A | B`` (other
tools' tables) and its converter's ``[HH:MM:SS] file:line: `` (dmlc's, which TVM prints too).

Session s36b added more of the claimed tools' forms under the same rules, each cited to the tool's source and
held in its own tool's dev messages only (the number of dev messages holding it with their markers blanked):
torch_npu's error head ``(PID:N, Device:N, RankID:N)`` 21 and its allocator's ``(NPU N; X GiB total
capacity; `` 1; onnxruntime-web's own ``<file>.ts:N`` sources 2, its Java binding's ``OrtSession.java:N`` 3
and its execution providers' ``providers/<provider>/<file>.cc:N`` 7; TensorRT 7's ``<file> (N) - Error in
<function>:`` 8 (and one onnxruntime TensorRT execution provider record that accepts tensorrt), its default
layer's ``(Unnamed Layer* N) [<kind>]:`` 4 and Torch-TensorRT's ``[Torch-TensorRT] - <sentence>`` 4;
Qualcomm's FastRPC ``<file>.c:N:`` 3 and its converters' ``converters/onnx/onnx_to_ir`` 1; onnx's schema
registry's ``with name <op> (domain: `` 1; onnxsim's ``in simplify`` frame over one of its own lines 9 (and
one onnx record that accepts onnxsim).  No scan-noise line holds any of them; the KB entries that hold one are
all of its own tool.

On ``bench/eval_explain.py --blank-markers``: first tool right ascend 75 -> 78 of 90, onnxruntime 198 -> 199
of 230, onnxsim 11 -> 12 of 14, qualcomm 52 -> 54 of 66, tensorrt 173 -> 177 of 196 (claimed 652 -> 663 of
761), confident and wrong 23 -> 21 (onnxsim 2 -> 1, tensorrt 6 -> 5); the new families did not move (290 of
369, 6).  Measured and dropped: the QNN/SNPE converters' log line ``<time>,<ms> - <line> - <LEVEL> - `` (a
Qualcomm marker already, :data:`.family._QAIRT_PY_LOG`), TensorRT's ``Skipping tactic 0x<N>`` (a TensorRT
log in the scan noise holds it), its Myelin tensor names ``__mye<N>`` (no source to cite), onnxruntime's
``providers/<provider>/`` without a line (links to its files in the scan noise), onnxsim's bare ``line N, in
simplify`` (other tools' ``simplify`` functions), TensorRT's layer kinds without the name's bracket before
them (onnx-tensorrt's ``node number N [<OnnxOp>]:`` is another form), RKNN-Toolkit 1's Acuity
``netbuilder.py`` and ``layer/<x>layer.py`` frames (VeriSilicon's Acuity is other NPU vendors' toolkits'
too), and what blanking leaves of a marker alone (RKNN's ``Export      model failed!``, its compiler's pass
names after ``rknn::RKNN``).  The float16 converter's misses are onnxruntime's texts about float16 models: no
form of the converter's own is left in them.

Session s37b added onnxruntime's status, ``[ONNXRuntimeError] : N : <NAME> : `` (Status::ToString), which with
its marker blanked is left in 37 onnxruntime dev messages and 4 float16 ones (onnxruntime's errors on a
float16 model, as its load envelope's are; one float16 entry's text holds it), no other tool's dev message,
entry or scan-noise line.  On ``bench/eval_explain.py --blank-markers``: onnxruntime first tool right 206 ->
209 of 239 (claimed 677 -> 680 of 778), confident and wrong unchanged (22), nothing else moved.  Measured and
dropped: TensorRT-LLM's ``CUDA runtime error in <call>(`` (its cudaUtils.h, but vLLM and TensorRT's plugins
print the same sentence), onnxruntime's bare ``NodeArg`` (scan-noise lines hold it), MindIE's ``[llm]
[<LEVEL>] [<file>.cpp:N]`` log line (2 ascend messages, no source of its format found), TensorRT's ``GPU error
during getBestTactic:`` (one message), and a partial match of another tool than the one a message leans to or
cues ranked under that tool's card (claimed 680 -> 681, confident and wrong 22 -> 21, but float16 7 -> 6 with
one more confident wrong answer, coreml and tflite -1 each)."""

from __future__ import annotations

from dumpscope.core.lazyre import LazyPattern

TRT_LOCATION = LazyPattern(r"[a-z_]\w{0,80}::\d{1,5}\]")
"""TensorRT's log location, ``[<file>.cpp::<function>::<line>]`` before ``Error Code N:`` (its libraries'
error recorder, e.g. ``[shapeContext.cpp::checkVolume::2923]``, ``[codeGenerator.cpp::compileGraph::894]``,
``[graphShapeAnalyzer.cpp::processCheck::862]``): with ``.cpp::`` (a marker) blanked, the function and line
``compileGraph::894]`` are left.  onnxruntime's location has one colon and a space (``file.cc:N Function]``),
glog's none before the bracket."""

TRT_ERROR_NAME = LazyPattern(
    r"\b\d{1,2}: (?:internal error|api usage error|cuda runtime|myelin|dla|cask|outofmemory"
    r"|invalid argument|invalid config|invalid state|unsupported state) \("
)
"""TensorRT's ``Error Code <N>: <name> (<description>)`` (the ErrorCode the builder and runtime report
through ILogger/IErrorRecorder, ``NvInferRuntimeBase.h``; the names its libraries print: ``Internal Error``,
``API Usage Error``, ``Cuda Runtime``, ``Myelin``, ``DLA``, ``Cask``, ``OutOfMemory`` ...): with
``Error Code `` (a marker) blanked, ``N: <name> (`` is left."""

TRT_NO_IMPL = LazyPattern(r"\(could not find any implementation for node ")
"""TensorRT's builder, ``Error Code 10: Internal Error (Could not find any implementation for node <name>.)``
(its tactic selection, the text of libnvinfer)."""

CANN_PID = LazyPattern(r"\[pid: \d{1,9}\]")
"""CANN's error manager's report head, ``EZ9999: [PID: <pid>] <time> <message>`` (ErrorManager's
``[PID: %d]``, printed before each inner error's time stamp)."""

CANN_LOCATION = LazyPattern(r"\[[\w.-]{1,80}\.(?:cc|cpp|h):\d{1,5}\]\d{1,9} ?[a-z_]\w{0,80}:")
"""CANN's log location, ``[ge_generator.cc:624]39944 GenerateModel:`` (slog's ``[<file>:<line>]<tid>
<function>:``: the thread id right after the bracket, then the function)."""

ONNX_DIM = LazyPattern(r"in dimension \d{1,3}: \(\d{1,12}\) vs \(\d{1,12}\)")
"""onnx's shape inference, ``Inferred shape and existing shape differ in dimension <i>: (<a>) vs (<b>)``
(onnx/shape_inference/implementation.cc, beside checkShapesAndTypes: ``"... in dimension " << i << ": ("
<< inferred << ") vs (" << existing << ")"``); the sentence before it is a marker."""

ONNX_CONTEXT = LazyPattern(r"==> context: ")
"""onnx's checker, ``<reason>\\n\\n==> Context: Bad node spec for node. Name: ...`` (onnx/checker.h and
onnx/defs/schema.h: ValidationError's and SchemaError's AppendContext, ``"\\n\\n==> Context: "``)."""

ONNX_IR_VERSION = LazyPattern(r"is higher than the checker's")
"""onnx's checker, ``Your model ir_version <N> is higher than the checker's (<M>).`` (onnx/checker.cc,
check_model; older releases print it without the numbers)."""

QNN_HTP_LOCATION = LazyPattern(r":\d{1,5}:error:")
"""QNN's HTP log location, ``graph_prepare.cc:2939:ERROR:Graph prepare failed ...`` (its backend's
``<file>:<line>:<LEVEL>:<message>``, no space between them)."""

RKNN_INPUT_SHAPE = LazyPattern(r"invalid input_shape = \[")
"""RKNN-Toolkit's load_onnx check, ``E load_onnx: ValueError: Invalid input_shape = [0, 3, 0, 0] for input
0!`` (rknn/api: the shape list printed after ``= ``)."""

ONNXOPT_ASSERT = LazyPattern(r"passes[/\\][\w.-]{1,80}\.(?:h|cc):\d{1,5}: \w{1,80}: assertion")
"""onnx-optimizer's failed ``ONNX_ASSERT``, ``.../onnxoptimizer/passes/eliminate_shape_gather.h:48:
runTransform: Assertion `...` failed.`` (its passes, run by onnxsim: ``<file>:<line>: <function>:
Assertion``), the pass's file under ``passes/``."""

OV_MO_REPLACER = LazyPattern(r"\"[^\"\n]{0,200}\" \(<class '[^'\n]{1,200}'>\): ")
"""OpenVINO's Model Optimizer, ``[ ERROR ]  Exception occurred during running replacer "REPLACEMENT_ID"
(<class 'extensions.middle.PartialInfer.PartialInfer'>): <reason>`` (openvino tools/mo/openvino/tools/mo/
utils/class_registration.py, apply_transform: ``'Exception occurred during running replacer "{}" ({}):
{}'.format(replacement_id, replacer_cls, ...)``, the class as Python prints it): with the sentence and the
``extensions.``/``mo.`` module names (markers) blanked, ``"<id>" (<class '...'>): `` is left."""

OV_SLOG = LazyPattern(r"\[ info \] ")
"""OpenVINO's samples' and demos' log, ``[ INFO ] Loading model to the device`` (samples/cpp/common/utils/
include/samples/slog.hpp: ``"[ " << _prefix << " ] "`` with the prefixes ``INFO``, ``WARNING`` and ``ERROR``):
the spaces inside the bracket.  Its ``[ ERROR ]`` and ``[ WARNING ]`` are markers already; ``[ INFO ]`` is
left."""

OV_IE_API = LazyPattern(r"\binference_engine\.ie_api\.")
"""OpenVINO's 2021 Python API in a Cython frame, ``File "ie_api.pyx", line 1099, in
openvino.inference_engine.ie_api.IECore.__cinit__`` (its module openvino/inference_engine/ie_api.pyx): with
``ie_api.pyx`` and ``openvino`` (markers) blanked, ``inference_engine.ie_api.<Class>.<method>`` is left."""

OV_NVIDIA_LOCATION = LazyPattern(r"\.cpp:\d{1,5}\([a-z_]\w{0,80}\): ")
"""OpenVINO's NVIDIA GPU plugin, ``.../nvidia_plugin/src/ops/subgraph.cpp:59(initExecuteSequence): Node:
...`` (openvino_contrib modules/nvidia_plugin/src/error.cpp, throw_exception: ``fmt::format("{}:{}({}): {}",
location.file_name(), location.line(), location.function_name(), msg)``): the function in brackets right after
the line number."""

OVMS_LOCATION = LazyPattern(
    r"\[(?:trace|debug|info|warning|error|critical)\]\[[\w.-]{1,80}\.(?:cpp|hpp|cc|h):\d{1,5}\] "
)
"""OpenVINO Model Server's log, ``[2031-02-03 04:05:06.789][42][modelmanager][warning][modelmanager.cpp:1354]
<message>`` (model_server src/logging.cpp: ``"[%Y-%m-%d %T.%e][%t][%n][%l][%s:%#] %v"``): spdlog's level, then
the source location in the next bracket, no space between; its loggers' names (``][serving][``...) are
markers."""

TFLITE_OPCODE_VERSION = LazyPattern(r"'[a-z][a-z0-9_]{0,60}' version '\d{1,3}'")
"""TFLite's op resolver, ``Didn't find op for builtin opcode 'FULLY_CONNECTED' version '12'. An older version
of this builtin might be supported.`` (tensorflow/lite/core/api/op_resolver.cc, GetRegistrationFromOpCode,
called by the interpreter builder: ``"Didn't find op for builtin opcode '%s' version '%d'"``): with the
sentence (a marker) blanked, ``'<OP>' version '<N>'`` is left.  The Edge TPU compiler, which reads a model
with TFLite's resolver, prints the same (one uncovered-tool dev record, in which TFLite's marker names TFLite
first: its answer does not move)."""

TFLITE_MLIR_OP = LazyPattern(r"'tfl?\.[a-z]\w{0,60}' op\b")
"""TFLite's MLIR converter, ``<unknown>:0: error: loc(...): 'tf.Cast' op is neither a custom op nor a flex
op`` (tensorflow/compiler/mlir/lite: MLIR's diagnostic names an operation by its dialect, ``'tf.<Op>' op`` for
TensorFlow's, ``'tfl.<Op>' op`` for TFLite's own): TensorFlow's dialect prefixes (other MLIR tools print
``'top.``, ``'tpu.``, ``'IE.``...)."""

P2O_OP_PREFIX = LazyPattern(r"\[[a-z_0-9]{1,60}: [\w.]{1,120}\.tmp_\d{1,4}\]")
"""Paddle2ONNX's mapper log prefix, ``[Paddle2ONNX] [set_value: fill_constant_1.tmp_0] Requires the minimal
opset version of 12.`` (paddle2onnx/mapper/mapper.h, Mapper::Logger: ``"[Paddle2ONNX] [" + op_type + ": " +
output_name + "]"``), the output a Paddle variable ``<name>.tmp_<N>``."""

P2O_MODEL_PATHS = LazyPattern(r"model file path: [^\n]{1,300}\n[^\n]{0,40}param(?:e)?ters file path: ")
"""Paddle2ONNX's start of an export, ``[Paddle2ONNX] Model file path: <x>.pdmodel`` then ``[Paddle2ONNX]
Parameters file path: <x>.pdiparams`` (paddle2onnx/cpp2py_export.cc: ``P2OLogger(verbose) << "Model file
path: "``, then ``"Parameters file path: "``, spelt ``Paramters`` before 2024): the two lines one after the
other."""

P2O_LEGACY_MAPPING = LazyPattern(r"to onnx, which op_type is '[a-z_]\w{0,60}' with inputs: \{")
"""Paddle2ONNX's Python exporter (paddle2onnx/legacy/op_mapper/op_mapper.py, until February 2024): ``Error
happened when mapping node ['<node>'] to onnx, which op_type is '<type>' with inputs: {...} and outputs:
{...}, specific error: ...``: the operator's type between its words."""

P2O_OP_MAPPER_PATH = LazyPattern(
    r"[/\\]op_mapper[/\\](?:nn|math|tensor|activation|logic|search|op_mapper|mapper_helper)\.py\b"
)
"""Paddle2ONNX's Python op mappers before 1.0 in a traceback, ``File ".../paddle2onnx/op_mapper/nn.py", line
186, in opset_1`` (the modules of paddle2onnx/op_mapper/: nn, math, tensor, activation, logic, search,
op_mapper, mapper_helper): with ``paddle2onnx`` (a marker) blanked, ``/op_mapper/<module>.py`` is left.
X2Paddle's mappers lie in sub-folders of its op_mapper/ or in files named ``<framework>_op_mapper.py``."""

TVM_FFI = LazyPattern(r"\b_ffi[./]base\b")
"""TVM's FFI error, ``tvm._ffi.base.TVMError: Traceback (most recent call last):``, and its frame ``File
".../tvm/_ffi/base.py", line 62, in check_call`` (python/tvm/_ffi/base.py defines TVMError and check_call):
with ``tvm`` (a marker) blanked, ``_ffi.base`` is left.  Libraries that copied TVM's FFI (DGL's
``dgl._ffi.base``) print it too; none is in the eval set or the KB."""

TVM_SOURCE = LazyPattern(
    r"src/(?:relay|relax|tir|te|arith|codegen|target|meta_schedule|topi|auto_scheduler|autotvm|lang|schedule)"
    r"/[\w/.-]{1,120}\.(?:cc|h):\d{1,5}"
)
"""TVM's C++ source in a check's location, ``[18:14:07] src/codegen/codegen.cc:27: Check failed: bf !=
nullptr Target cuda is not enabled`` (apache/tvm's ``src/`` folders: relay, relax, tir, te, arith, target,
meta_schedule, topi, auto_scheduler, autotvm, and before 0.7 codegen, lang, schedule), a ``.cc`` or ``.h``
file under one of them (its runtime/ and support/ folders are left out: other projects have such)."""

TVM_RELAX_ONNX = LazyPattern(r"error converting operator \w{1,80}, with inputs: \[")
"""TVM Relax's ONNX importer, ``Error converting operator BitwiseNot, with inputs: [R.astype(lv, ...)]``
(python/tvm/relax/frontend/onnx/onnx_frontend.py, _construct_nodes: ``print(f"Error converting operator
{op_name}, with inputs: {inputs}")`` before it raises again): the operator between its words."""

TVM_EXPECT_GET = LazyPattern(r"\bexpect (?:type )?[\w. ]{1,80} but get ")
"""TVM's object type check, ``Check failed: ObjectTypeChecker<TObjectRef>::Check(ptr): Expect relay.Expr but
get IRModule`` (include/tvm/runtime/packed_func.h, TVMArgValue's conversion: ``"Expect " <<
ObjectTypeChecker<TObjectRef>::TypeName() << " but get " << ptr->GetTypeKey()``; src/tir/ir/expr.cc:
``"Expect type "``): the type names between its words."""

MNN_NOT_SUPPORTED = LazyPattern(r": \[ \w{1,60} \](?=[ \t]*(?:\n|$))")
"""MNN's converter, ``MNN Converter NOT_SUPPORTED_OP: [ MatMul ]`` and ``Check failed: creator ==>
NOT_SUPPORTED_OP: [ FAKE_QUANT ]`` (tools/converter/source/tensorflow/TFGraphResolver.cpp and tflite/
liteConverter.cpp: ``"NOT_SUPPORTED_OP: [ " << name << " ]"``): the operator in spaced brackets at the line's
end, after ``NOT_SUPPORTED_OP`` (a marker)."""

MNN_CL_ERROR = LazyPattern(r": -?\d{1,4}, info:[a-z_]\w{0,60}")
"""MNN's OpenCL backend, ``CL ERROR CODE : -36, info:image_to_nchw_buffer`` (source/backend/opencl/core/
runtime/OpenCLWrapper.hpp: ``MNN_PRINT("CL ERROR CODE : %d, info:%s \\n", (int)error, info)``): the code,
then ``info:`` and the kernel's name with no space."""

NCNN_TRY = LazyPattern(r"\bfailed\n(?:[^\n]{0,40}: )?try(?:\n|$)")
"""ncnn's blob look-up, ``find_blob_index_by_name data failed``, then ``Try`` and the model's blob names as
``ex.input("in0", in0);`` (src/net.cpp, Extractor::input and extract: ``NCNN_LOGE("Try")`` after the failed
look-up): ``Try`` alone on the next line (an Android logcat tag may stand before it: ``W/ncnn: Try``)."""

COREML_PROGRESS = LazyPattern(
    r"\d{1,6}/\d{1,6} \[\d\d:\d\d<\d\d:\d\d, {1,2}\d{1,9}(?:\.\d{1,3})? (?:ops|passes)/s\]"
)
"""coremltools' progress bars, ``Converting PyTorch Frontend ==> MIL Ops:  78%|███▏| 32/41 [00:00<00:00,
4002.32 ops/s]`` (coremltools/converters/mil/frontend/torch/ops.py, tensorflow/convert_utils.py and
backend/nn/op_mapping.py: ``_tqdm(..., unit=" ops")``; mil/passes/pass_pipeline.py: ``unit=" passes"``):
tqdm's rate in those units."""

COREML_USERINFO = LazyPattern(r"\{\n\n?[ \t]*(?:[a-z]\w{0,60})?[ \t]*= \"[^\"\n]{0,2000}\";\n")
"""coremltools' error from Core ML, ``RuntimeError: {\\n    NSLocalizedDescription = "<reason>";\\n}``
(coremlpython/CoreMLPythonUtils.mm, Utils::handleError: ``[NSString stringWithFormat:@"%@", [error
userInfo]]`` thrown as std::runtime_error): an NSDictionary's description, ``key = "value";`` under an opening
brace."""

COREML_NSERROR = LazyPattern(r"error domain=[\w. ]{0,80}? code=-?\d{1,9} ")
"""Core ML's NSError, ``Error Domain=com.apple.CoreML Code=0 "<reason>" UserInfo={...}`` (Foundation's NSError
description, which Core ML's callers print): with ``com.apple.CoreML`` (a marker) blanked, ``Error Domain=``
and ``Code=<N>`` are left."""

COREML_MIL_PROGRAM = LazyPattern(r"[/\\]model\.mil\b")
"""Core ML's ML Program file, ``<model>.mlmodelc/model.mil:4:4`` in its parser's location and ``a model
architecture file '<model>.mlmodelc/model.mil' with error code: -14`` (an ML Program's compiled model keeps
the program in ``model.mil``): with ``.mlmodelc`` (a marker) blanked, ``/model.mil`` is left."""

COREML_OP_TYPE = LazyPattern(r"op \\?\"[^\"\n]{1,200}\\?\" \(op_type: [a-z_]\w{0,60}\) ")
"""coremltools' MIL type check, ``Op "identity_1" (op_type: identity) Input x="probs" expects list, tensor,
or scalar but got ...`` (coremltools/converters/mil/mil/operation.py and input_type.py: ``'Op "{}" (op_type:
{}) '.format(...)``), its quotes escaped where the message is printed inside JSON."""

TORCH_NPU_ERROR_HEAD = LazyPattern(r"\(pid:\d{1,9}, device:-?\d{1,4}, rankid:-?\d{1,9}\)")
"""torch_npu's error head, ``[ERROR] 2024-11-14-15:58:45 (PID:2590239, Device:0, RankID:-1) ERR99999 UNKNOWN
application exception`` (Ascend/pytorch torch_npu/csrc/core/npu/NPUException.cpp, formatErrorCode: ``"(PID:"
<< getpid() << ", Device:" << deviceIndex << ", RankID:" << rank_id << ") "``): with its ``ERR<NNNNN>`` code
blanked, the process, device and rank in brackets are left."""

TORCH_NPU_OOM = LazyPattern(r"\(npu \d{1,3}; \d{1,6}(?:\.\d{1,3})? [kmgt]ib total capacity; ")
"""torch_npu's caching allocator when the device is full, ``NPU out of memory. Tried to allocate 450.00 MiB
(NPU 0; 61.27 GiB total capacity; 55.97 GiB already allocated; ...)`` (Ascend/pytorch torch_npu/csrc/core/npu/
NPUCachingAllocator.cpp, the CUDA allocator's sentence with ``NPU`` for ``GPU``): the device named ``NPU``
before the capacity."""

ORT_WEB_SOURCE = LazyPattern(
    r"\b(?:proxy-wrapper|session-handler(?:-inference)?|inference-session-impl|backend-wasm|wasm-core-impl"
    r"|wasm-factory)\.ts:\d"
)
"""onnxruntime-web's own TypeScript sources in a browser's stack, ``at e.run (proxy-wrapper.ts:215:17) at e.
SessionHandler.run (session-handler.ts:100:15) at .run (inference-session-impl.ts:108:40)``
(microsoft/onnxruntime js/web/lib/wasm/proxy-wrapper.ts, session-handler-inference.ts (session-handler.ts
before 1.16), wasm-core-impl.ts, wasm-factory.ts, js/web/lib/backend-wasm.ts and
js/common/lib/inference-session-impl.ts): a file of its own and its line."""

ORT_JAVA_SESSION = LazyPattern(r"\bortsession(?:\.java:\d|\.<init>|\.createsession\b)")
"""onnxruntime's Java binding in a Java stack, ``at ai.onnxruntime.OrtSession.createSession(Native Method) at
ai.onnxruntime.OrtSession.<init>(OrtSession.java:82)`` (microsoft/onnxruntime
java/src/main/java/ai/onnxruntime/OrtSession.java, whose constructor calls the native createSession): with
``ai.onnxruntime`` (a marker) blanked, the class's file, constructor or native loader is left."""

ORT_EP_SOURCE = LazyPattern(
    r"\bproviders[/\\](?:cpu|cuda|dml|webgpu|tensorrt|openvino|qnn|cann|coreml|nnapi|xnnpack|js|rocm|migraphx"
    r"|vitisai|shared_library|acl|armnn|rknpu|snpe|azure|dnnl|tvm|webnn)[/\\][\w/\\.-]{1,160}\.(?:cc|h|cpp|cu)[:(]\d"
)
"""onnxruntime's execution providers' sources in a location, ``.../onnxruntime/core/providers/webgpu/
buffer_manager.cc:562`` and ``...\\onnxruntime\\core\\providers\\dml\\...\\.cpp(64)`` (microsoft/onnxruntime
onnxruntime/core/providers/<provider>/, one folder per execution provider): with ``onnxruntime/core/`` (a
marker) blanked, ``providers/<provider>/<file>:<line>`` is left; a link to a file (no line) does not count."""

TRT_OLD_ERROR = LazyPattern(r"\.(?:h|hpp|cpp|cu) \(\d{1,5}\) - (?:[\w ]{0,40} )?error in {1,40}\w{1,80}: ")
"""TensorRT 7's and 6's error line, ``../rtSafe/cuda/cudaConvolutionRunner.cpp (457) - Cudnn Error in execute:
3 (CUDNN_STATUS_BAD_PARAM)`` and ``GraphContext.h (26) - Error in GraphContext: 1`` (libnvinfer's ``<file>
(<line>) - [<library>] Error in <function>: <code> (<name>)``, before TensorRT 8's ``Error Code N:``): the
line in brackets after a space, then `` - `` and ``Error in <function>:``."""

TRT_LAYER_TYPE = LazyPattern(
    r"\) \[(?:elementwise|shuffle|convolution|deconvolution|matrix multiply|activation|pooling|reduce|gather"
    r"|unary|select|fill|constant|concatenation|slice|resize|softmax|scale|padding|topk|pluginv2|cast|identity"
    r"|shape)\](?:_output|:)"
)
"""TensorRT's default layer name and its output's, ``(Unnamed Layer* 0) [ElementWise]: operation AND requires
boolean inputs`` and ``(Unnamed Layer* 0) [ElementWise]_output`` (NVIDIA's TensorRT samples' logs, e.g.
sample_cudla's ``{ForeignNode[(Unnamed Layer* 0) [ElementWise]]}``; the layer kinds of NvInfer.h's LayerType
as TensorRT prints them): with ``Unnamed Layer*`` (a marker) blanked, ``<N>) [<kind>]:`` is left."""

TORCH_TRT_LOG = LazyPattern(r"\] - (?:unsupported operator: |method requested cannot be compiled end to end)")
"""Torch-TensorRT's logger, ``ERROR: [Torch-TensorRT - Debug Build] - Unsupported operator:
aten::addcmul(...)`` and ``INFO: [Torch-TensorRT] - Method requested cannot be compiled end to end by
Torch-TensorRT.TorchScript.`` (pytorch/TensorRT core/util/logging/TorchTRTLogger.cpp, get_global_logger: the
prefixes ``"[Torch-TensorRT - Debug Build] - "`` and ``"[Torch-TensorRT] - "``;
core/conversion/conversion.cpp, VerifyConverterSupportForBlock: ``"Method requested cannot be compiled end to
end by Torch-TensorRT.TorchScript."`` and ``"Unsupported operator: "``): with the tool's name (a marker)
blanked, its bracket's end and `` - `` before its sentence are left."""

FASTRPC_SOURCE = LazyPattern(
    r"\b(?:fastrpc_apps_user|apps_mem_imp|apps_std_imp|mod_table|listener_android|fastrpc_perf|fastrpc_pm"
    r"|fastrpc_config|fastrpc_ioctl|fastrpc_mem|fastrpc_notif|fastrpc_async|fastrpc_cap|rpcmem_linux|log_config"
    r"|dspqueue_cpu)\.c:\d{1,5}:"
)
"""Qualcomm's FastRPC user library, through which QNN's and SNPE's HTP/DSP backends reach the Hexagon DSP,
``E/<tag>: .../src/apps_mem_imp.c:216:Error : ... _unmap64 failed`` and ``.../src/mod_table.c:863: Error :
open_mod_table_handle_invoke failed`` (quic/fastrpc src/: fastrpc_apps_user.c, apps_mem_imp.c, apps_std_imp.c,
mod_table.c, listener_android.c, fastrpc_perf.c, fastrpc_pm.c, fastrpc_config.c, fastrpc_ioctl.c,
fastrpc_mem.c, fastrpc_notif.c, fastrpc_async.c, fastrpc_cap.c, rpcmem_linux.c, log_config.c,
dspqueue/dspqueue_cpu.c; its FARF log prints ``<file>:<line>:``): one of its C files and the line."""

QNN_ONNX_TO_IR = LazyPattern(r"converters[/\\.]onnx[/\\.]onnx_to_ir\b")
"""The QNN/SNPE ONNX converter's frontend in a traceback, ``.../lib/python/qti/aisw/converters/onnx/
onnx_to_ir.py", line 643, in convert`` (QAIRT lib/python/qti/aisw/converters/onnx/onnx_to_ir.py): with
``qti/aisw`` (a marker) blanked, ``converters/onnx/onnx_to_ir`` is left."""

ONNX_SCHEMA_REGISTER = LazyPattern(r"trying to register schema with name \S{1,80} \(domain: ")
"""onnx's operator schema registry, ``Schema error: Trying to register schema with name TreeEnsembleClassifier
(domain: ai.onnx.ml version: 3) from file .../onnx/defs/traditionalml/old.cc line 175, but it is already
registered`` (onnx/defs/schema.h, OpSchemaRegistry::RegisterOpSchema: ``"Trying to register schema with name "
<< op_name << " (domain: " << op_domain << " version: " << ver << ") from file "``)."""

ONNXSIM_SIMPLIFY_FRAME = LazyPattern(
    r"in simplify\n\s{0,8}(?:model_opt_bytes = c\.simplify\(|check_ok = |model = optimize\("
    r"|model_bytes = model\.serializetostring\(\))"
)
"""onnxsim's ``simplify`` in a traceback, ``File ".../onnxsim/onnx_simplifier.py", line 199, in simplify``
over ``model_opt_bytes = c.simplify(`` (daquexian/onnx-simplifier onnxsim/onnx_simplifier.py, simplify: since
0.4 it calls the C++ ``c.simplify(``; before, ``model = optimize(model, skip_fuse_bn, skipped_optimizers)``,
``check_ok = check(model_ori, model, ...)`` / ``check_ok = model_checking.compare(`` and ``model_bytes =
model.SerializeToString()``): the function's name and one of its own lines under it; with ``onnxsim`` (a
marker) blanked, the file's path says nothing."""

ORT_STATUS = LazyPattern(
    r"\] : \d{1,2} : (?:fail|invalid_argument|no_suchfile|no_model|engine_error|runtime_exception"
    r"|invalid_protobuf|model_loaded|not_implemented|invalid_graph|ep_fail|model_load_canceled"
    r"|model_requires_compilation|not_found) : "
)
"""onnxruntime's status as its Python and C APIs print it, ``onnxruntime_pybind11_state.Fail:
[ONNXRuntimeError] : 1 : FAIL : Load model from ...`` (microsoft/onnxruntime onnxruntime/core/common/
status.cc, Status::ToString: ``"[ONNXRuntimeError]"``, then ``" : "``, the code's number, ``" : "``,
StatusCodeToString's name (``FAIL``, ``INVALID_ARGUMENT``, ``NO_SUCHFILE``, ``NO_MODEL``, ``ENGINE_ERROR``,
``RUNTIME_EXCEPTION``, ``INVALID_PROTOBUF``, ``MODEL_LOADED``, ``NOT_IMPLEMENTED``, ``INVALID_GRAPH``,
``EP_FAIL``, ``MODEL_LOAD_CANCELED``, ``MODEL_REQUIRES_COMPILATION``, ``NOT_FOUND``) and ``" : "``): with
``ONNXRuntimeError`` (a marker) blanked, its bracket's end, the number and the name between the colons are
left.  Most of the names are markers themselves; ``FAIL``, ``NO_MODEL`` and ``NOT_FOUND`` are not."""


INNER_CUES: tuple[tuple[str, str, LazyPattern], ...] = (
    ("tensorrt", "::", TRT_LOCATION),
    ("tensorrt", " (", TRT_ERROR_NAME),
    ("tensorrt", "(could not find any implementation for node ", TRT_NO_IMPL),
    ("ascend", "[pid: ", CANN_PID),
    ("ascend", "]", CANN_LOCATION),
    ("onnx", "in dimension ", ONNX_DIM),
    ("onnx", "==> context: ", ONNX_CONTEXT),
    ("onnx", "is higher than the checker's", ONNX_IR_VERSION),
    ("qualcomm", ":error:", QNN_HTP_LOCATION),
    ("rknn", "invalid input_shape = [", RKNN_INPUT_SHAPE),
    ("onnxsim", "passes", ONNXOPT_ASSERT),
    ("openvino", "(<class '", OV_MO_REPLACER),
    ("openvino", "[ info ] ", OV_SLOG),
    ("openvino", "ie_api.", OV_IE_API),
    ("openvino", ".cpp:", OV_NVIDIA_LOCATION),
    ("openvino", "][", OVMS_LOCATION),
    ("tflite", "' version '", TFLITE_OPCODE_VERSION),
    ("tflite", "' op", TFLITE_MLIR_OP),
    ("paddle2onnx", ".tmp_", P2O_OP_PREFIX),
    ("paddle2onnx", "file path: ", P2O_MODEL_PATHS),
    ("paddle2onnx", "which op_type is '", P2O_LEGACY_MAPPING),
    ("paddle2onnx", "op_mapper", P2O_OP_MAPPER_PATH),
    ("tvm", "_ffi", TVM_FFI),
    ("tvm", "src/", TVM_SOURCE),
    ("tvm", "error converting operator ", TVM_RELAX_ONNX),
    ("tvm", " but get ", TVM_EXPECT_GET),
    ("mnn", ": [ ", MNN_NOT_SUPPORTED),
    ("mnn", ", info:", MNN_CL_ERROR),
    ("ncnn", "try", NCNN_TRY),
    ("coreml", "/s]", COREML_PROGRESS),
    ("coreml", '= "', COREML_USERINFO),
    ("coreml", "error domain=", COREML_NSERROR),
    ("coreml", "model.mil", COREML_MIL_PROGRAM),
    ("coreml", "(op_type: ", COREML_OP_TYPE),
    ("ascend", "rankid:", TORCH_NPU_ERROR_HEAD),
    ("ascend", "total capacity; ", TORCH_NPU_OOM),
    ("onnxruntime", ".ts:", ORT_WEB_SOURCE),
    ("onnxruntime", "ortsession", ORT_JAVA_SESSION),
    ("onnxruntime", "providers", ORT_EP_SOURCE),
    ("tensorrt", " error in ", TRT_OLD_ERROR),
    ("tensorrt", ") [", TRT_LAYER_TYPE),
    ("tensorrt", "] - ", TORCH_TRT_LOG),
    ("qualcomm", ".c:", FASTRPC_SOURCE),
    ("qualcomm", "onnx_to_ir", QNN_ONNX_TO_IR),
    ("onnx", "trying to register schema with name ", ONNX_SCHEMA_REGISTER),
    ("onnxsim", "in simplify", ONNXSIM_SIMPLIFY_FRAME),
    # s37b:
    ("onnxruntime", " : ", ORT_STATUS),
)
"""``(family, literal, form)``: see the module's text."""
