"""The claimed tools' own inner forms, as wording cues (session s32i).

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
``E RKNN:`` (many tools print such a time)."""

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
)
"""``(family, literal, form)``: see the module's text."""
