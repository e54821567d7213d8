"""Ascend code tables answered code by code: the AscendCL return codes that the CANN table gives (runtime
and Graph Engine codes passed through AscendCL) and HCCL's ``HcclResult`` codes as torch_npu prints them.

Vendor sources: hicann/runtime ``docs/03_api_ref/aclError.md`` (table 1 acl, table 2 returned-through
RUNTIME, table 3 returned-through GE) and CANN's public header ``ge/ge_error_codes.h``; hicann/hccl
``docs/api/context/HcclResult.md`` (the ``HcclResult`` enum); Ascend/pytorch
``torch_npu/csrc/distributed/HCCLUtils.hpp`` (``HCCL_CHECK_ERROR``: ``HCCL function error: <call>, error
code is <n>``).  The texts below are the vendors' line forms with made-up names.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from tests.support.advice import assert_answered

TORCH_NPU_HCCL = (
    "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
    "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is {n}\n"
    "[ERROR] 2025-04-01-08:04:31 (PID:1234, Device:1, RankID:-1) ERR02200 DIST call hccl api failed."
)

CASES = [
    # AscendCL codes the CANN table lists that had no entry of their own
    ("aclmdlExecute failed, error code is 507056", "ascend-507056", ("communication link", "hccn_tool")),
    ("aclrtSynchronizeStream failed, ret=507055", "ascend-507055", ("peer device",)),
    ("aclmdlRICaptureEnd failed, error code is 507903", "ascend-507903", ("capture",)),
    ("aclrtHostRegister failed, error code: 507910", "ascend-507910", ("already registered",)),
    ("aclmdlBundleUnload failed, ret = 148053", "ascend-148053", ("bundle model id",)),
    ("aclmdlRIUpdate failed, error code is 207019", "ascend-207019", ("driver", "25.0.RC1")),
    # Graph Engine codes passed through AscendCL (ge_error_codes.h)
    ("aclmdlLoadFromFile failed, ret=145002", "ascend-145002", ("model path",)),
    ("aclmdlSetDynamicBatchSize failed, error code is 145013", "ascend-145013", ("--dynamic_batch_size",)),
    ("aclmdlExecute failed, error code: 145021", "ascend-145021", ("shape",)),
    ("aclmdlGetFirstAippInfo failed, error code is 145015", "ascend-145015", ("--insert_op_conf",)),
    ("aclmdlLoadFromFile failed, ret=245002", "ascend-245002", ("device memory",)),
    ("FetchDataFlowGraph failed, error code:345104", "ascend-345104", ("output",)),
    ("aclmdlExecute failed, error code is ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT", "ascend-545601", ("timeout",)),
    ("aclmdlLoadFromFile failed, ret=545005", "ascend-545005", ("--soc_version",)),
    # HCCL HcclResult through torch_npu's HCCL_CHECK_ERROR, the call captured
    (
        TORCH_NPU_HCCL.format(n=7),
        "ascend-hccl-e-unavail",
        ("hcclCommInitRootInfoConfig", "HCCL_HOST_SOCKET_PORT_RANGE"),
    ),
    (TORCH_NPU_HCCL.format(n=1), "ascend-hccl-e-para", ("hcclCommInitRootInfoConfig", "set_device")),
    (TORCH_NPU_HCCL.format(n=15), "ascend-hccl-e-runtime", ("hcclCommInitRootInfoConfig", "runtime")),
    (
        "HCCL function error :HcclGetRootInfo(&hcclID), error code is 11",
        "ascend-hccl-e-tcp-connect",
        ("HcclGetRootInfo", "HCCL_IF_IP"),
    ),
    (
        "HCCL function error: HcclAllReduce(input, output, count, type, op, comm, stream), error code is 9",
        "ascend-hccl-e-timeout",
        ("HcclAllReduce", "HCCL_EXEC_TIMEOUT"),
    ),
    (
        "HcclCommInitClusterInfo returned HCCL_E_OPEN_FILE_FAILURE",
        "ascend-hccl-e-open-file-failure",
        ("RANK_TABLE_FILE",),
    ),
    ("HcclSend failed: HCCL_E_REMOTE", "ascend-hccl-e-remote", ("peer rank",)),
]


@pytest.mark.parametrize(("message", "entry", "named"), CASES)
def test_ascend_code_answered_by_its_own_meaning(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_hccl_code_is_not_a_neighbour_code(kb: KnowledgeBase) -> None:
    """``error code is 19`` names HCCL_E_NETWORK, not HCCL_E_PARA (1) whose number starts it."""
    text = "HCCL function error: HcclBroadcast(buf, count, type, root, comm, stream), error code is 19"
    assert kb.lookup(text, top=1)[0].entry.id == "ascend-hccl-e-network"


def test_ge_data_flow_codes_are_acl_codes() -> None:
    """345xxx (GE data-flow status codes) is an AscendCL code range like 145xxx and 545xxx."""
    assert [c.key for c in extract_codes("FetchDataFlowGraph failed, error code:345103")] == ["acl:345103"]
