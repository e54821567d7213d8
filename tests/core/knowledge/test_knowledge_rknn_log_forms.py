"""Branch s26b: RKNN's log forms that no literal marker holds, and the toolkit's own error texts.

* the forms (:func:`dumpscope.core.knowledge.family._log_forms`): Rockchip's build stamp after a version
  (``(8d7e25ad@2021-06-30T18:33:39)``; airockchip/rknn-toolkit2:
  rknn-toolkit2/examples/functions/npu_device_test/README.md), the toolkit logger's ``E Traceback`` lines
  (rknn/api/rknn_log), the board runtime's ``driver version: ..., platform: RK3588`` banner
  (airockchip/rknn-llm) and the example scripts' ``--> Building model`` lines
  (rknn-toolkit2/examples/*/*/test.py);
* the entries ``rknn-s26b-*``: texts of the rknn-toolkit2 2.3.2 wheel's compiled modules (rknn_base,
  rknn_runtime, rknn_utils, ir_graph, graph_optimizer, quantizer, quant_utils, load_checker) and of
  rknpu2's rknn_api.h, with made-up names and values; never an eval message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import _log_forms, family_evidence
from dumpscope.core.knowledge.markers import MEDIUM
from tests.support.advice import answered_by_entry


@pytest.mark.parametrize(
    "text",
    [
        "I RKNN: librknnc version: 1.6.0 (585b3edcf@2023-12-11T07:42:56)",
        "I NPUTransfer(2231): Starting NPU Transfer Client, "
        "Transfer version 2.1.0 (b5861e7@2024-05-09T09:12:37)",
        "DRV: rknn_server: 1.5.2 (8babfea build@2023-08-25T10:30:12)",
        'E Catch exception!\nE Traceback (most recent call last):\nE   File "x.py", line 3, in build',
        "I rkllm: rkllm-runtime version: 1.2.0, rknpu driver version: 0.9.6, platform: RK3576",
        "--> Loading model\ndone\n--> Building model\nBuild model failed!",
    ],
)
def test_rockchip_log_forms_lean_to_rknn(text: str) -> None:
    """Each form counts as one MEDIUM marker of RKNN, wherever it starts."""
    low = text.lower()
    hits = _log_forms(low)
    assert list(hits) == ["rknn"]
    assert [w for w, _ in hits["rknn"]] == [MEDIUM]
    assert family_evidence(text)["rknn"] >= MEDIUM


@pytest.mark.parametrize(
    "text",
    [
        "Version: 2.3.1 (built 2023-08-25T10:30:12)",  # a date without Rockchip's commit@ form
        "user@2023-08-25T10:30:12 logged in",
        'Traceback (most recent call last):\n  File "x.py", line 3, in <module>',  # Python's own traceback
        "E       Traceback (most recent call last):",  # pytest's indented E lines
        "platform: linux, driver version: 535.104",
        "--> building a wheel for foo",
    ],
)
def test_other_texts_hold_no_rockchip_form(text: str) -> None:
    """The forms need their whole shape: a date, a traceback or a platform line alone is no Rockchip's."""
    assert "rknn" not in _log_forms(text.lower())


def test_two_forms_name_rknn_and_a_strong_marker_still_names_its_tool(kb: KnowledgeBase) -> None:
    """Two forms together reach a named tool's weight; another tool's strong marker keeps its name first."""
    both = (
        "I librknnrt version: 1.4.0 (a10f100eb@2022-09-09T09:07:14)\nE Traceback (most recent call last):\n"
    )
    assert family_evidence(both)["rknn"] >= 2 * MEDIUM
    other = (
        "[TRT] [E] 1: [network.cpp::validate::2789] Error Code 1\nversion 8.6 (abc1234@2023-01-01T00:00:00)"
    )
    assert kb.named_families(other)[0] == "tensorrt"


def test_a_stamped_build_log_is_rknns_without_its_markers(kb: KnowledgeBase) -> None:
    """A compiler log whose only Rockchip sign is the build stamp is answered as RKNN's, not as the process's
    abort (any tool's runtime text)."""
    text = (
        "I     : lib    c version: 1.1.0b0 (8d7e25ad@2021-06-30T18:33:39)\n"
        "[19:07:42.147] buffer overflow!!!\nAborted"
    )
    first = kb.lookup(text, top=1)[0]
    assert first.entry.family == "rknn"


CASES = [
    (
        "W load_onnx: Load external data for 'model.layers.0.mlp.weight' failed! "
        "Generate random data for test!",
        "rknn-s26b-external-data-random",
        ("model.layers.0.mlp.weight", "random"),
    ),
    (
        "E build: Einsum(/blocks.2/attn/Einsum_1) equation completion failed. "
        "Please fill equation in explicit form.",
        "rknn-s26b-einsum-equation",
        ("/blocks.2/attn/Einsum_1", "->"),
    ),
    (
        "E load_onnx: Not support 'sizes' for Resize(/fpn/Resize_2)!",
        "rknn-s26b-resize-sizes",
        ("/fpn/Resize_2",),
    ),
    (
        "E build: The 'min/max' of '/head/Mul_out' is too large for 'w16a16i_dfp'! "
        "Please try other quantized_dtype",
        "rknn-s26b-w16a16-dfp-range",
        ("/head/Mul_out", "w16a16i"),
    ),
    (
        "E build: kl_divergence error, please contact RK for help.",
        "rknn-s26b-kl-divergence-error",
        ("normal",),
    ),
    (
        "E inference: rknn run failed. error code: RKNN_ERR_TIMEOUT",
        "rknn-s26b-board-call-failed",
        ("rknn run", "RKNN_ERR_TIMEOUT"),
    ),
    (
        "E init_runtime: librknnrt.so in board is old, please update!",
        "rknn-s26b-board-runtime-old",
        ("rknn_server",),
    ),
    (
        "E build: Not support file_ext = .tif in file '/data/calib/0001.tif'",
        "rknn-s26b-dataset-file-ext",
        ("/data/calib/0001.tif", ".npy"),
    ),
    (
        "E build: The image of ./calib/broken.jpg is invalid!",
        "rknn-s26b-dataset-image-invalid",
        ("./calib/broken.jpg",),
    ),
    (
        "E accuracy_analysis: The input file './bus.jpg' not found!",
        "rknn-s26b-input-file-missing",
        ("accuracy_analysis",),
    ),
    (
        "E eval_memory: When init runtime, parameter <eval_mem> should be set to True, "
        "or we can not eval memory!",
        "rknn-s26b-eval-mem-flag",
        ("eval_mem=True",),
    ),
    (
        "E build: To using yuv preprocess,HW must be divisible by 4. But we got [1, 3, 258, 258] for input0",
        "rknn-s26b-yuv-hw-divisible",
        ("input0",),
    ),
    (
        "W RKNN: [10:11:12.345] Output(logits): size_with_stride larger than model origin size, if need run "
        "OutputOperator in NPU, please call rknn_create_memory using size_with_stride.",
        "rknn-s26b-output-size-with-stride",
        ("logits", "size_with_stride"),
    ),
    (
        "W build: NAN should not be in 2th output, check will be ignored, "
        "which may result in a loss in accuracy!",
        "rknn-s26b-nan-output-check",
        ("output 2",),
    ),
    (
        "E load_onnx: The Conv('/stem/Conv') not supported 'float16' dtype at weight!",
        "rknn-s26b-float16-dtype-op",
        ("/stem/Conv", "float32"),
    ),
]


#: The toolkit's own texts: each answered confidently by its entry, with specific advice naming the parts.
test_toolkit_texts_get_their_entry_filled = answered_by_entry(CASES, confident=True)
