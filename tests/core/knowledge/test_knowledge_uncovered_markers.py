"""Tools dumpscope does not cover are named from their own wording, status names and file names.

Each message is written in our own words around a marker read in the tool's public sources (the list and
where each was read are in ``core/knowledge/markers.py``), none copied from the evaluation set: these tests
check that each marker group names its tool, that a covered tool's own markers still win, and that the
look-alike words of other programs are not taken.
"""

from __future__ import annotations

import json

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_uncovered
from dumpscope.core.knowledge.markers import UNCOVERED
from dumpscope.tui.cli import main as cli

CASES = [
    # Hailo: the Dataflow Compiler's allocator log, with no Hailo name in it.
    ("hailo", "[error] Mapping Failed (allocation time: 5s)\nthe model could not fit in single context."),
    ("hailo", "[info] Solving the allocation (Mapping), time per context: 9m 59s"),
    ("hailo", "Context:0/2 Iteration 1: Trying parallel mapping..."),
    ("hailo", "[info] net Successful Partition and Allocation (duration: 1m 02s)"),
    # Hailo: HailoRT's status names as the CHECK macros print them, and the device names.
    ("hailo", "CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)"),
    ("hailo", "configure failed: HAILO_OUT_OF_PHYSICAL_DEVICES(74)"),
    ("hailo", "the HEF was compiled for hailo8l, the device is a hailo8"),
    ("hailo", "device Hailo-10H reports a firmware error"),
    # Hailo: the model-script commands of a .alls file quoted in an error.
    ("hailo", "Failed to parse model script line: allocator_param(timeout=20m)"),
    ("hailo", "unknown argument optimize_for_batch in performance_param"),
    ("hailo", "context_switch_param(mode=disabled) conflicts with resources_param"),
    ("hailo", "model_optimization_flavor(optimization_level=4) needs a GPU"),
    # Vitis AI: the name families and xcompiler's codes.
    ("vitis_ai", "UNILOG FATAL: XCOM_PM_FAIL: partition failed"),
    ("vitis_ai", "[UNILOG][FATAL][XCOM_PM_FAIL] could not lower the graph for the target"),
    ("vitis_ai", "target DPUCAHX8H_ISA2 does not support this op"),
    ("vitis_ai", "ImportError: cannot import name 'Graph' from pytorch_nndct.parse"),
    ("vitis_ai", "vai_q_onnx.quantize_static: calibration failed"),
    ("vitis_ai", "vaitrace: cannot open the trace buffer"),
    ("vitis_ai", "DpuRunner: the xmodel subgraph has no DPU device"),
    # Sophgo TPU-MLIR.
    ("sophgo", "RuntimeError: [!Error]: tpuc-opt net.mlir --convert-top-to-tpu -o net_tpu.mlir"),
    ("sophgo", "tpulang: unsupported dtype for the chip"),
    ("sophgo", "failed to write net.cvimodel"),
    ("sophgo", "bmruntime: load bmodel failed"),
    ("sophgo", "/workspace/nntoolchain/TPU1686/kernel/src/x.c:10: Assertion failed"),
    # Cambricon.
    ("cambricon", "cndrv: cnCtxCreate failed on card 0"),
    ("cambricon", "cnmon reports MLU590 in error state"),
    ("cambricon", "mlu-ops: mluOpConv kernel launch failed"),
    # Horizon: the J6 toolchain's compiler and quantizer.
    ("horizon", "hb_compile: ERROR: model check failed"),
    ("horizon", "hmct quantization failed on node /Conv_12"),
    ("horizon", "hbir: cannot legalize op"),
    ("horizon", "RuntimeError from horizon_plugin_pytorch.quantization: prepare failed"),
    ("horizon", "libhbrt_bayes_aarch64.so: model load failed"),
    # MediaTek NeuroPilot: NeuronAdapter's result codes, runtime and accelerator names.
    ("neuropilot", "NeuronCompilation_finish returned NEURON_BAD_DATA"),
    ("neuropilot", "execution failed: NEURON_OP_FAILED"),
    ("neuropilot", "neuronrt: cannot load the DLA file"),
    ("neuropilot", "MDLA does not support this operand type"),
    ("neuropilot", "apusys: power on failed"),
    # Intel NPU: the driver compiler and the Level Zero graph extension.
    ("intel_npu", "zeGraphCreate failed with ZE_RESULT_ERROR_INVALID_ARGUMENT"),
    ("intel_npu", "driver_compiler_adapter.cpp:120: compile failed"),
    ("intel_npu", "[ NPUW:ERR ] partitioning failed"),
    ("intel_npu", "npu_compiler: error: unsupported layer"),
    # Axera Pulsar2.
    ("axera", "pulsar2 build: quantization failed, no axmodel written"),
    ("axera", "op Where is not supported on AX650"),
    ("axera", "axclrtMalloc failed: out of device memory"),
    # NXP eIQ.
    ("nxp_eiq", "neutron-converter: operator RESIZE not supported"),
    ("nxp_eiq", "Vx delegate: allowed_builtin_code set is empty"),
    ("nxp_eiq", "TIM-VX: graph verify failed"),
    ("nxp_eiq", "eIQ Toolkit could not convert the model"),
    # Ambarella CVflow.
    ("ambarella", "CNNGen: layer Mish is not supported"),
    ("ambarella", "cvflow compile failed for the vas output"),
    ("ambarella", "eazyai: cavalry buffer allocation failed"),
    # Kneron.
    ("kneron", "ktc.ModelConfig: onnx optimisation failed"),
    ("kneron", "model not supported on KL720"),
    ("kneron", "kneron_plus: device connect failed"),
    # Google Edge TPU compiler.
    ("edge_tpu", "Edge TPU Compiler version 16.0\nModel not quantized"),
    ("edge_tpu", "edgetpu_compiler: Compilation failed!"),
    (
        "edge_tpu",
        "Operator  Count  Status\nADD  3  Mapped to Edge TPU\nMUL  1  Operation version not supported",
    ),
    # A TFLite interpreter check the compiler quotes inside its own segment log stays the compiler's.
    (
        "edge_tpu",
        "Started a compilation timeout timer of 60 seconds.\nERROR: Node number 7 (ADD) failed to prepare.\n"
        "Compilation child process completed within timeout period.\nCompilation failed!",
    ),
    # Issue 23, round 21 (h23v2): AWS Neuron's compiler, frameworks and runtime log.
    ("aws_neuron", "neuronx-cc compile: ERROR 70: the graph has an unsupported operator"),
    ("aws_neuron", 'File "/opt/venv/lib/python3.10/site-packages/torch_neuronx/xla_impl/trace.py", line 7'),
    ("aws_neuron", "2024-Mar-01 10:00:00 ERROR  NRT:nrt_load  could not load the model"),
    ("aws_neuron", "ImportError: libneuronxla.so: cannot open shared object file"),
    ("aws_neuron", "ERROR  TDRV:dmem_alloc  out of device memory for the .neff"),
    # Intel Gaudi / Habana.
    ("habana", "import habana_frameworks.torch.core failed: no HPU device"),
    ("habana", "synDeviceAcquire returned synStatus 26"),
    # Graphcore.
    ("graphcore", "poptorch.Error: the IPU model could not be compiled"),
    ("graphcore", "popart::error: tensor shapes do not match"),
    # Tenstorrent.
    ("tenstorrent", "TT_FATAL @ ttnn/cpp/ttnn/operations/matmul.cpp:42: shapes must be tile aligned"),
    ("tenstorrent", "tt_metal device 0 did not open"),
    # Cerebras.
    ("cerebras", "import cerebras.pytorch as cstorch: compile failed for the CS-3"),
    # FuriosaAI.
    ("furiosa", "furiosa-llm serve: the artifact was built for another device"),
    # Rebellions.
    ("rebellions", "RBLNModel.from_pretrained(export=True) failed: rebel-compiler error"),
    # MemryX.
    ("memryx", "mx_nc: error: operator GridSample is not supported"),
    # Moore Threads.
    ("moore_threads", "RuntimeError: torch_musa: MUSA error: invalid device function"),
    # Enflame / Iluvatar / Hygon / Kunlunxin.
    ("other_china", "torch_gcu: device 0 not found, check the TopsRider driver"),
    ("other_china", "ixsmi: no Iluvatar device found"),
    ("other_china", "hy-smi reports the DCU as unavailable"),
    # SiMa.ai / Blaize.
    ("other_npu", "SiMa.ai Palette: the model could not be quantized"),
    # Session s35u: each tool's own library, package and log forms, with made-up contents.
    # Sophgo: the CV18xx kernel library's parameter check and the CV18xx runtime's C API.
    ("sophgo", "cvkcv181x tiu min pool: wrong parameter"),
    ("sophgo", "CVI_NN_RegisterModel failed, err -1"),
    ("sophgo", "[BMRT][load_bmodel:1234] FATAL:frob.bmodel is not a valid model file"),
    ("sophgo", "bm_dev_request returned BM_ERR_DEVNOTREADY"),
    # Hailo: the Dataflow Compiler's exception classes without their module.
    ("hailo", "[error] BackendAllocatorException: Compilation failed: no valid frob partition"),
    ("hailo", "ParsingWithRecommendationException: Parsing failed. The errors found in the graph are: frob"),
    # Cambricon: CNML's log prefix and status names.
    ("cambricon", "[cnmlError] the frob tensor shape does not match its op"),
    ("cambricon", "cnmlCompileBaseOp returned CNML_STATUS_INVALIDPARAM"),
    ("cambricon", "[2031-1-1 10:00:00] [CNNL] [Error]:[cnnlFrobForward] the frob tensor is too large"),
    # MediaTek NeuroPilot: LiteRT's MediaTek dispatch failing to restore NeuroPilot's compiled network.
    ("neuropilot", "Failed to create invocation context: Failed to restore model from compiled network"),
    # Apple MLX: the Metal allocator's errors, and mlx-serve by its name.
    (
        "apple_mlx",
        "RuntimeError: [metal::malloc] Attempting to allocate 123456789 bytes which is greater than the "
        "maximum allowed buffer size of 1000 bytes.",
    ),
    ("apple_mlx", "mlx-serve: model frob-7b could not be loaded"),
    # Axera Pulsar2: its frozen yamain package in a traceback and in its loguru lines.
    (
        "axera",
        '  File "<frozen yamain.command.build>", line 10, in build\nAssertionError: frob is not supported',
    ),
    ("axera", "2031-01-01 10:00:00.000 | ERROR    | yamain.command.build:quant:42 - calibration failed"),
    # Edge TPU compiler: a TFLite parse error under the compiler's banner, and an operation log status.
    (
        "edge_tpu",
        "Edge TPU Compiler version 16.0.1\nERROR: Didn't find op for builtin opcode 'FROB' version '9'.\n"
        "ERROR: Registration failed.",
    ),
    (
        "edge_tpu",
        "CONV_2D  2  Operation is otherwise supported, but not mapped due to some unspecified limitation",
    ),
    # AWS Neuron: a fatal line of one of neuronx-cc's HLO passes, torch-neuron's logger.
    ("aws_neuron", "2031-01-01 10:00:00.1: F hilo/hlo_passes/FrobPass.cc:12] ERROR: unsupported widget"),
    ("aws_neuron", "WARNING:Neuron:frob could not be partitioned for the NeuronCore"),
    # Android NNAPI: the runtime's Manager and the HAL's versioned methods and package.
    ("android_nnapi", "E/Manager: IDevice::getSupportedOperations returned the error DEVICE_UNAVAILABLE"),
    ("android_nnapi", "getSupportedOperations_1_3 failure: Status(EX_TRANSACTION_FAILED)"),
    ("android_nnapi", "android.hardware.neuralnetworks@1.3::IDevice/frob-npu could not be found"),
    # u41: Paddle Lite's opt tool and runtime, IREE's tools, X2Paddle's op checker.
    ("paddle_lite", "paddle_lite_opt --model_dir=./m --optimize_out_type=naive_buffer: model load failed"),
    ("paddle_lite", "Check failed: op: the operator 'frob' is not supported by Paddle-Lite."),
    ("paddle_lite", "F0101 program.cc:12] Unsupport opencl nb model."),
    ("paddle_lite", "[F 1/2 3:04:05.678 lite/model_parser/general/op_desc.h:118 GetAttr] Check failed"),
    ("iree", "iree-compile --iree-hal-target-backends=llvm-cpu m.mlir: error: failed to legalize op"),
    ("iree", "iree-run-module --module=m.vmfb: INVALID_ARGUMENT; input shape mismatch"),
    ("iree", "ImportError: cannot import name 'ir' from iree.compiler"),
    ("x2paddle", "x2paddle --framework=onnx --model=m.onnx failed"),
    ("x2paddle", "There are 3 ops not supported yet, list as below\nFrob\nGrid"),
]


@pytest.mark.parametrize(("family", "message"), CASES)
def test_each_marker_group_names_its_uncovered_tool(kb: KnowledgeBase, family: str, message: str) -> None:
    found = kb.answer(message)
    assert found.uncovered == (family, UNCOVERED[family][0])
    assert "not covered" in found.headline()
    assert all(m.entry.family in {"runtime", "onnx"} for m in found.matches)  # never another tool's answer


def test_every_uncovered_tool_has_a_marker_case() -> None:
    # session s32c's tools have their cases in test_knowledge_ort_cues_uncovered.py
    s32c = {"ti_tidl", "arm_nn", "amd_migraphx", "apple_mlx", "kendryte_nncase", "tencent_tnn", "arm_ethos_u"}
    assert {family for family, _ in CASES} >= set(UNCOVERED) - s32c


def test_json_says_which_uncovered_tool(capsys: pytest.CaptureFixture[str]) -> None:
    message = "[error] Mapping Failed (allocation time: 3s)\nmodel could not fit in single context"
    code = cli.main(["explain", message, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["uncovered_tool"] == UNCOVERED["hailo"][0]
    assert data["confident"] is False and data["matches"] == []
    assert code in (0, 1)


@pytest.mark.parametrize(
    ("family", "message"),
    [
        # A claimed tool's envelope around a file named after a Hailo device stays that tool's.
        (
            "onnxruntime",
            "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from yolov8n_hailo8.onnx failed:"
            "This is an invalid model. Error: two nodes with same node name (Conv_0).",
        ),
        # libedgetpu's delegate that fails to load is TFLite's interpreter speaking (its entries answer it).
        ("tflite", "ValueError: Failed to load delegate from libedgetpu.so.1"),
        # Apple's ANE compiler is Core ML's.
        ("coreml", "MILCompilerForANE error: failed to compile ANE model using ANEF."),
        # s35u: TFLite's NNAPI delegate names NNAPI's result codes, not its runtime or HAL: TFLite's.
        (
            "tflite",
            "NN API returned error ANEURALNETWORKS_BAD_DATA at line 12 while completing NNAPI compilation.",
        ),
        # s35u: the same op-version error without the Edge TPU compiler's banner is TFLite's.
        (
            "tflite",
            "ERROR: Didn't find op for builtin opcode 'FROB' version '9'. An older version of this builtin "
            "might be supported. Are you using an old TFLite binary with a newer model?",
        ),
        # s35u: a frame of OpenVINO's CPU plugin is OpenVINO's.
        (
            "openvino",
            "Exception from src/inference/src/cpp/core.cpp:80:\n"
            "Exception from src/plugins/intel_cpu/src/node.cpp:700:\nthe frob widget could not be compiled",
        ),
    ],
)
def test_a_covered_tools_own_markers_still_win(kb: KnowledgeBase, family: str, message: str) -> None:
    found = kb.answer(message)
    assert found.uncovered is None
    assert found.matches and found.matches[0].entry.family == family


@pytest.mark.parametrize(
    "text",
    [
        "set HB_COMPILER=mingw64 and run hbmk2",  # Harbour's compiler variable, not Horizon's hb_compile
        "class CNNGenerator(nn.Module): forward failed",  # a PyTorch class, not Ambarella's CNNGen
        "the cavalry charged at dawn",  # the English word alone is too weak
        "error: bad cmdlargs",  # "mdla" inside a word
        "mapping failed for the key",  # not the allocator's wording
        "ktcp stream closed",  # "ktc" inside a word
        "nvcc -Xcompiler -fPIC -c plugin.cu: error: identifier undefined",  # nvcc's flag, not Vitis AI
        "asynStatus status = writeInt32(pasynUser, value);",  # EPICS, not Habana's synStatus
        "class RecordEpisodeStatisticsTorch(gym.Wrapper)",  # "cstorch" inside a word
        "author: Josh Sixsmith; pixsmith",  # "ixsmi" inside a word
        "hy-smile-under-response fixture",  # "hy-smi" inside a word
        "ImportError: cannot import name 'MusaModel' from mymodule",  # "musa" inside a word, alone weak
        "ValueError: popartist not found",  # "popart" inside a word
        "optimizeGraph failed for the subgraph",  # "zegraph" inside a word
        "taxclass lookup failed",  # "axcl" inside a word
        "Benyamain.update() failed",  # "yamain." ending a longer name
        "the ycnml token and cnmlx",  # "cnml" inside words
        "IDXGIDevice::GetAdapter failed",  # another IDevice interface, not NNAPI's getSupportedOperations
        # u41: RKNN Toolkit Lite's package path, not Paddle Lite's source tree
        'File "/usr/lib/python3/dist-packages/rknnlite/api/rknn_lite.py", line 157, in init_runtime',
    ],
)
def test_look_alikes_name_no_uncovered_tool(text: str) -> None:
    assert detect_uncovered(text) == []
