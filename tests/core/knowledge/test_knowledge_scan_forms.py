"""The knowledge tests of the log scan finding the forms above buried in a log: each case is a vendor's own
wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From round12 (was test_knowledge_round12.py):

* the SNPE/QAIRT converters' message keys (``ERROR_TF_*``, ``ERROR_CAFFE_*``, ``ERROR_CAFFE2_*`` of
  code_to_message.py) name Qualcomm: a converter's error line seldom repeats the tool's name, and the log
  scan did not report such a line at all;

From round13 (was test_knowledge_round13.py).

From round14 (was test_knowledge_round14.py): described in test_knowledge_rknn.py's docstring.

From round16 (was test_knowledge_round16.py):

* a process id in CANN's and MindSpore's log prefix (``[ERROR] LITE(108805,...)``) is no AscendCL code.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log

# ---- round12 (test_knowledge_round12.py) ----


def test_a_converter_error_line_is_found_by_the_log_scan(kb: KnowledgeBase) -> None:
    """The converter's ERROR line without the tool's name in it was not reported before its key named it."""
    log = [
        "INFO: loading weights",
        "2023-01-02 03:04:05,678 - 122 - ERROR - Conversion failed: ERROR_TF_NODE_NOT_FOUND_IN_GRAPH: Node "
        "not found in graph. Node name: input_1",
        "INFO: done",
    ]
    problems = scan_log(io.StringIO("\n".join(log)), kb)
    assert [p.first_line_no for p in problems] == [2]


# ---- round13, round14, round16 (test_knowledge_round13.py, _round14.py, _round16.py) ----


@pytest.mark.parametrize(
    "line",
    [
        # round13: OpenVINO's IR reader and legacy CPU plugin, coremltools' predict, TensorRT's engine header
        "[ ERROR ] Error reading network: cannot parse future versions: 11",
        "RuntimeError: unsupported primitive of type: Proposal name: proposal/rpn",
        "RuntimeError: value type not convertible",
        "coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Magic tag does not match)",
        # round14: torch_npu's inner-error line, onnx's version converter range check
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
        "current working operator name is FooBarV3.",
        "RuntimeError: invalid version (must be between 1 and 18)",
        # round16: torch_npu's allocator, MindSpore's Ascend runtime init
        "NPU out of memory. Tried to allocate more than 1EB memory",
        "RuntimeError: Ascend kernel runtime initialization failed. The details refer to "
        "'Ascend Error Message'.",
    ],
)
def test_the_log_scan_reports_each_new_single_line_among_plain_lines(kb: KnowledgeBase, line: str) -> None:
    log = "step 1 done\nloading model\n" + line + "\nstep 2 done\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]
