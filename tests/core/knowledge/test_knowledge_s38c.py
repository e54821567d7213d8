"""Clause advice true for the stage and the call a message names (s38c).

* TensorRT's parameter check: the call it names (TensorRT 8's '<file>::<function>::<line>', TensorRT 10's
  '<interface>::<function>: Error Code') picks the stage's reading: the network definition, the builder,
  the execution context, the refitter, the runtime's deserialization, an optimization profile; a call of no
  known stage keeps the generic clause, which no longer gives run-time steps;
* a traceback whose last frame calls a tool's native (C++) function, or ends in a class of a C++ extension,
  is read as a native call (the exception's text is the library's status), while a raise in Python code
  keeps the bare-exception clause's advice.

The messages are the vendors' own formats with made-up values, or dev messages."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import CLAUSES, LAST_RESORT, NATIVE_CALL_CLAUSES, TRT_CHECK_STAGES

CODE3 = "tensorrt-ErrorCode-INVALID-ARGUMENT-builder-3"


def _top(kb: KnowledgeBase, text: str):  # type: ignore[no-untyped-def]
    return kb.lookup(text, top=1)[0]


def _trt8(where: str, function: str, condition: str) -> str:
    """TensorRT 8's parameter check, as its logger prints it (made-up line numbers)."""
    base = where.rsplit("/", 1)[-1]
    return (
        f"[TRT] [E] 3: [{base}::{function}::77] Error Code 3: API Usage Error (Parameter check failed at: "
        f"{where}::{function}::77, condition: {condition})"
    )


def _trt10(call: str, condition: str) -> str:
    """TensorRT 10's parameter check: the interface and function before the ErrorCode."""
    return f"[E] {call}: Error Code 3: API Usage Error (Parameter check failed, condition: {condition}. )"


# --- TensorRT: builder-time and run-time checks -----------------------------------------------------------

STAGE_CASES = [
    (
        _trt8("../builder/Network.cpp", "addPluginV2", "plugin != nullptr"),
        "network",
        ("addPluginV2", "plugin != nullptr", "network is being defined", "get_plugin_creator"),
    ),
    (
        _trt10("INetworkDefinition::addConvolutionNd", "kernelWeights.count > 0"),
        "network",
        ("INetworkDefinition::addConvolutionNd", "kernelWeights.count > 0", "Weights must hold"),
    ),
    (
        _trt10("IPluginV2Layer::setInput", "tensor != nullptr"),
        "network",
        ("IPluginV2Layer::setInput", "tensor != nullptr"),
    ),
    (
        _trt8("optimizer/api/builderConfig.cpp", "setDLACore", "dlaCore >= 0"),
        "builder",
        ("setDLACore", "dlaCore >= 0", "before any engine exists", "num_DLA_cores"),
    ),
    (
        _trt10("IBuilderConfig::setFlag", "int(builderFlag) >= 0"),
        "builder",
        ("IBuilderConfig::setFlag", "tensorrt.__version__"),
    ),
    (
        _trt10("IExecutionContext::setInputShape", "mProfileIndex >= 0"),
        "context",
        ("IExecutionContext::setInputShape", "mProfileIndex >= 0", "set_input_shape before enqueue"),
    ),
    (
        _trt8("runtime/api/executionContext.cpp", "enqueueV3", "stream != nullptr"),
        "context",
        ("enqueueV3", "stream != nullptr", "set_tensor_address"),
    ),
    (
        _trt8("engine.cpp", "setBindingDimensions", "mInitialized"),
        "context",
        ("setBindingDimensions", "mInitialized"),
    ),
    (
        _trt10("IRefitter::setNamedWeights", "weights.count == prototype.count"),
        "refit",
        ("IRefitter::setNamedWeights", "get_missing_weights", "BuilderFlag.REFIT"),
    ),
    (
        _trt10("IRuntime::deserializeCudaEngine", "size > 0"),
        "deserialize",
        ("IRuntime::deserializeCudaEngine", "size > 0", "'rb'", "init_libnvinfer_plugins"),
    ),
    (
        _trt10("IOptimizationProfile::setDimensions", "minDims.d[i] <= optDims.d[i]"),
        "profile",
        ("IOptimizationProfile::setDimensions", "min <= opt <= max"),
    ),
]


@pytest.mark.parametrize(
    ("message", "stage", "named"), STAGE_CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(STAGE_CASES)]
)
def test_a_parameter_check_is_read_by_the_stage_of_the_call_it_names(
    kb: KnowledgeBase, message: str, stage: str, named: tuple[str, ...]
) -> None:
    top = _top(kb, message)
    assert top.entry.id == f"{CODE3}+trt-parameter-check-{stage}"
    advice = f"{top.cause} {top.fix}"
    for part in named:
        assert part in advice, part


def test_a_network_definition_check_gives_no_run_time_binding_steps(kb: KnowledgeBase) -> None:
    """A dev message of tensorrtx (round33): a builder-time check, no buffers or shapes of a context."""
    text = (
        "[E] [TRT] Parameter check failed at: ../builder/Network.cpp::addScale::484, condition: "
        "shift.count > 0 ? (shift.values != nullptr) : (shift.values == nullptr)\n"
    )
    top = _top(kb, text)
    assert top.entry.id.endswith("+trt-parameter-check-network")
    assert ("call", "addScale") in top.captures
    advice = f"{top.cause} {top.fix}"
    assert "shift.count > 0" in advice and "scale layer's shift" in advice
    for run_time in ("set_tensor_address", "set_input_shape", "bindings[x]", "enqueue"):
        assert run_time not in advice


def test_a_run_time_check_keeps_the_binding_steps(kb: KnowledgeBase) -> None:
    text = _trt8("runtime/api/executionContext.cpp", "enqueueInternal", "bindings[x] || nullBinding")
    top = _top(kb, text)
    assert top.entry.id == f"{CODE3}+trt-parameter-check-context"
    assert "enqueueInternal" in top.cause and "set_tensor_address" in top.fix
    assert "network is being defined" not in top.cause


def test_a_call_of_no_known_stage_keeps_the_generic_clause_without_run_time_steps(kb: KnowledgeBase) -> None:
    top = _top(kb, _trt8("common/api/widget.cpp", "frobnicate", "mWidget != nullptr"))
    assert top.entry.id == f"{CODE3}+trt-parameter-check"
    assert "frobnicate" in top.cause and "mWidget != nullptr" in top.fix
    assert "set_tensor_address" not in top.fix and "IBuilderConfig" in top.fix


def test_the_stage_tables_name_only_tensorrt_header_interfaces() -> None:
    ids = [c.id for _, c in TRT_CHECK_STAGES]
    assert len(ids) == len(set(ids)) == 6
    assert all(
        c.families == ("tensorrt",) and c.pattern == TRT_CHECK_STAGES[0][1].pattern
        for _, c in TRT_CHECK_STAGES
    )
    assert not {c.id for c in CLAUSES} & set(ids)  # read through the generic clause only


# --- a native call at the end of a Python traceback --------------------------------------------------------

_ORT_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "run.py", line 5, in <module>\n'
    '    sess = ort.InferenceSession("m.onnx", providers=["CUDAExecutionProvider"])\n'
    '  File "/venv/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py", '
    "line 419, in __init__\n"
    "    self._create_inference_session(providers, provider_options, disabled_optimizers)\n"
    '  File "/venv/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py", '
    "line 463, in _create_inference_session\n"
    "    sess.initialize_session(providers, provider_options, disabled_optimizers)\n"
)


def test_a_bare_runtime_error_from_initialize_session_gets_the_native_call_advice(kb: KnowledgeBase) -> None:
    top = _top(kb, _ORT_FRAMES + "RuntimeError\n")
    assert top.entry.id == "family-onnxruntime+python-native-call-ort-initialize-session"
    assert ("native", "sess.initialize_session") in top.captures
    assert "native (compiled C++) code" in top.cause and "execution providers" in top.cause
    assert "ORT_DISABLE_ALL" in top.fix and "no raise to read" in top.fix
    assert "check just before the raise" not in top.fix


def test_a_native_status_after_the_exception_is_quoted(kb: KnowledgeBase) -> None:
    top = _top(kb, _ORT_FRAMES + "RuntimeError: widget provider could not start the frobnicator\n")
    assert top.entry.id == "family-onnxruntime+python-native-call-ort-initialize-session"
    assert "(widget provider could not start the frobnicator)" in top.cause


def test_a_raise_in_python_code_keeps_the_bare_exception_advice(kb: KnowledgeBase) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py", '
        "line 200, in _validate_input\n"
        "    raise ValueError\n"
        "ValueError\n"
    )
    top = _top(kb, text)
    assert top.entry.id.endswith("+python-traceback-bare-exception")
    assert "check just before the raise" in top.fix


def test_a_bare_class_of_onnx_cpp_extension_is_a_native_failure(kb: KnowledgeBase) -> None:
    """A dev message of mxnet's exporter (round9): onnx's checker, its C++ ValidationError, no text."""
    text = (
        '  File "C:\\envs\\lib\\site-packages\\mxnet\\contrib\\onnx\\mx2onnx\\export_onnx.py", '
        "line 312, in create_onnx_graph_proto\n"
        "    checker.check_graph(graph)\n"
        '  File "C:\\envs\\face\\lib\\site-packages\\onnx\\checker.py", line 54, in checker\n'
        "    proto.SerializeToString(), ctx)\n"
        "onnx.onnx_cpp2py_export.checker.ValidationError\n"
    )
    top = _top(kb, text)
    assert top.entry.id == "family-onnx+python-native-call-onnx-cpp"
    assert "onnx_cpp2py_export.checker" in top.cause and "full_check=True" in top.fix


def test_the_native_clauses_are_last_resorts_tried_before_the_python_ones() -> None:
    ids = [c.id for c in CLAUSES]
    native = [c.id for c in NATIVE_CALL_CLAUSES]
    assert set(native) <= LAST_RESORT
    assert max(ids.index(i) for i in native) < ids.index("python-traceback-bare-exception")


def test_tvm_check_call_is_a_native_call_whose_text_is_the_cpp_error(kb: KnowledgeBase) -> None:
    """A dev message's layout (round34): check_call raises the error the FFI call left behind."""
    text = (
        '  File "/opt/tvm/python/tvm/_ffi/base.py", line 62, in check_call\n'
        "    raise TVMError(py_str(_LIB.TVMGetLastError()))\n"
        "tvm._ffi.base.TVMError: [10:00:00] src/target/widget.cc:12: Check failed: w != nullptr Widget off\n"
    )
    top = _top(kb, text)
    assert top.entry.id == "family-tvm+python-native-call-tvm-ffi"
    assert "_LIB.TVMGetLastError" in top.cause and "Check failed: w != nullptr" in top.cause
    assert "TVM_BACKTRACE=1" in top.fix


def test_an_openvino_plugin_check_in_remote_context_code_gets_no_compile_the_model_advice(
    kb: KnowledgeBase,
) -> None:
    remote = (
        "error: Check 'devices.size() == 1' failed at "
        "src/plugins/intel_gpu/src/plugin/remote_context.cpp:40:\n"
        "[GPU] Only one device expected\n"
    )
    compiled = remote.replace("remote_context.cpp", "program_builder.cpp")
    assert not _top(kb, remote).entry.id.endswith("+openvino-plugin-check")
    assert "compiled or ran the model" not in _top(kb, remote).cause
    assert _top(kb, compiled).entry.id.endswith("+openvino-plugin-check")
