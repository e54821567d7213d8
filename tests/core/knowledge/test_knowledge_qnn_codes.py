"""Qualcomm QNN's error codes from its SDK headers: the enum names (``QNN_GRAPH_ERROR_FINALIZE_FAILED``) are
codes too, keyed by their number, and every number of the headers' error enums has an entry with a fix beyond
"get verbose logs".  The table is checked against the headers' own arithmetic (each component's codes are
``QNN_MIN_ERROR_<COMPONENT> + n``); the messages are of our own, in QNN's log format, never an evaluation
message.

From s21b (was test_knowledge_rknn_runtime_api_and_qnn_status.py): the QNN status a QnnHtp/QnnDsp
backend prints after a failure's colon ("<what> failed: N") is its code, from the QNN SDK headers' error
codes (QnnDevice.h, QnnGraph.h, QnnContext.h); a number there that is no header code is not taken.
"""

from __future__ import annotations

import re

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.family import detect_families, family_evidence
from dumpscope.core.knowledge.qnn_codes import FASTRPC_ERROR_NAMES, QNN_ERROR_NAMES

#: QnnCommon.h's code space: each API component's first code.
COMPONENT_BASE = {
    "COMMON": 1000,
    "PROPERTY": 2000,
    "OP_PACKAGE": 3000,
    "BACKEND": 4000,
    "SAVER": 4950,
    "CONTEXT": 5000,
    "GRAPH": 6000,
    "TENSOR": 7000,
    "MEM": 8000,
    "SIGNAL": 9000,
    "LOG": 11000,
    "PROFILE": 12000,
    "DEVICE": 14000,
    "GLOBAL_CONFIG": 15000,
}
#: Codes an enum aliases to the common ones
#: (QnnGraph.h: ``QNN_GRAPH_ERROR_MEM_ALLOC = QNN_COMMON_ERROR_MEM_ALLOC``).
COMMON_ALIASES = {1000, 1002, 1004, 1006, 1100}


@pytest.mark.parametrize(("name", "number"), sorted(QNN_ERROR_NAMES.items()))
def test_each_name_lies_in_its_components_block(name: str, number: int) -> None:
    """An enum's number is in its component's block of QnnCommon.h, or one of the common codes it aliases."""
    if name.startswith("QNN_ERROR_"):  # QnnError.h's own API: QNN_MIN_ERROR_ERROR
        assert 10000 <= number < 11000
        return
    component = re.match(r"QNN_(?:SYSTEM_\w+?|(?:HTP|DSP|HTA)_PERF_INFRASTRUCTURE|(\w+?))_ERROR_", name)
    if number in COMMON_ALIASES or component is None or component.group(1) is None:
        assert number in COMMON_ALIASES or 13000 <= number < 14000 or 30000 <= number < 50000
        return
    base = COMPONENT_BASE[component.group(1)]
    assert base <= number < base + 1000 or number in COMMON_ALIASES


@pytest.mark.parametrize(
    ("text", "key", "printed"),
    [
        (
            "QnnDsp <E> graph finalize failed: QNN_GRAPH_ERROR_FINALIZE_FAILED",
            "qnn:6022",
            "QNN_GRAPH_ERROR_FINALIZE_FAILED",
        ),
        (
            "Failed to create device. Error: QNN_DEVICE_ERROR_INVALID_CONFIG",
            "qnn:14001",
            "QNN_DEVICE_ERROR_INVALID_CONFIG",
        ),
        ("memRegister returned QNN_MEM_ERROR_MAPPING", "qnn:8003", "QNN_MEM_ERROR_MAPPING"),
        ("QNN_CONTEXT_ERROR_MEM_ALLOC while loading", "qnn:1002", "QNN_CONTEXT_ERROR_MEM_ALLOC"),
    ],
)
def test_an_enum_name_is_a_code_kept_as_printed(text: str, key: str, printed: str) -> None:
    found = {c.key: c.text for c in extract_codes(text)}
    assert found.get(key) == printed


@pytest.mark.parametrize(
    "text",
    [
        "QNN_SUCCESS after QNN_BACKEND_ID_HTP",
        "QNN_LOG_LEVEL_ERROR set; QNN_GRAPH_ERROR_UNDEFINED",
        "QNN_BACKEND_CONFIG_OPTION_ERROR_REPORTING = 1",
    ],
)
def test_names_that_are_not_error_codes_are_no_code(text: str) -> None:
    assert not [c for c in extract_codes(text) if c.key.startswith("qnn:")]


@pytest.mark.parametrize("number", sorted(set(QNN_ERROR_NAMES.values())))
def test_every_code_of_the_headers_has_a_specific_entry(kb: KnowledgeBase, number: int) -> None:
    """Each number is answered by its own entry (not a range card), with advice beyond verbose logs."""
    name = min(n for n, v in QNN_ERROR_NAMES.items() if v == number)
    top = kb.lookup(f"[ERROR] QnnDsp <E> call failed with error {number} ({name})", top=1)[0]
    own = top.entry.code.split()[0] == str(number) if top.entry.code else False
    # 6005 (QNN_GRAPH_ERROR_INVALID_OP_CONFIG) may be answered by the addNode card, which reads the name too
    assert own or top.entry.id == "qualcomm-graph-addnode-invalid-op-config", (top.entry.id, top.reason)
    assert "verbose" not in top.fix.split(";")[0].lower()
    assert specific(top) == (True, ""), specific(top)


@pytest.mark.parametrize(
    ("message", "entry_id"),
    [
        (
            "[ERROR] [Qnn ExecuTorch]: QnnDsp <E> graphFinalize failed: QNN_GRAPH_ERROR_FINALIZE_FAILED",
            "qualcomm-qnn-6022",
        ),
        ("QnnDsp <E> deviceCreate failed: QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE", "qualcomm-qnn-14002"),
        ("QnnHtp <E> memRegister failed with QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE", "qualcomm-qnn-8005"),
    ],
)
def test_a_name_alone_reaches_its_codes_entry(kb: KnowledgeBase, message: str, entry_id: str) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry_id, (top.entry.id, top.reason)
    assert top.entry.family == "qualcomm"


@pytest.mark.parametrize(
    ("text", "key", "printed"),
    [
        (
            "Error 0x80000406: remote_handle64_open failed for file:///libQnnHtpV73Skel.so",
            "fastrpc:0x80000406",
            "0x80000406",
        ),
        (
            "DspTransport.openSession qnn_open failed, 0x8000042C, prio 100",
            "fastrpc:0x8000042c",
            "0x8000042C",
        ),
        ("fastrpc invoke returned AEE_ENOSUCHSYMBOL", "fastrpc:0x80000442", "AEE_ENOSUCHSYMBOL"),
    ],
)
def test_a_fastrpc_code_is_kept_as_printed(text: str, key: str, printed: str) -> None:
    """FastRPC's DSP codes (AEEStdErr.h: 0x80000400 + the AEE offset), as a number or a name."""
    found = {c.key: c.text for c in extract_codes(text)}
    assert found.get(key) == printed


@pytest.mark.parametrize("text", ["HRESULT 0x80004005 (E_FAIL)", "addr 0x8000ffff", "AEE_EOFFSET is 0"])
def test_other_0x8000_numbers_are_no_fastrpc_code(text: str) -> None:
    """A Windows HRESULT or an address is not a FastRPC code: only the numbers AEEStdErr.h defines are."""
    assert not [c for c in extract_codes(text) if c.key.startswith("fastrpc:")]


def test_the_fastrpc_table_is_the_dsp_offset_plus_the_aee_offset() -> None:
    assert FASTRPC_ERROR_NAMES["AEE_EFAILED"] == 0x80000401
    assert FASTRPC_ERROR_NAMES["AEE_ERPC"] == 0x80000600
    assert all(0x80000400 < v < 0x80000800 for v in FASTRPC_ERROR_NAMES.values())


@pytest.mark.parametrize(
    ("message", "entry_id", "says"),
    [
        (
            "QnnDsp <E> DspTransport.openSession qnn_open failed, 0x80000406, prio 100",
            "qualcomm-fastrpc-0x80000406",
            "ADSP_LIBRARY_PATH",
        ),
        (
            "apps_dev_init failed for domain 3, errno Success, ioErr 0x80000416",
            "qualcomm-fastrpc-0x80000416",
            "domain",
        ),
        (
            "QnnDsp <E> DspTransport.openSession qnn_open failed, 0x80000481",
            "qualcomm-fastrpc-0x80000481",
            "unsigned PD",
        ),
        ("remote call failed: AEE_ENORPCMEMORY", "qualcomm-fastrpc-0x80000468", "shared"),
    ],
)
def test_a_fastrpc_code_reaches_its_entry(kb: KnowledgeBase, message: str, entry_id: str, says: str) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry_id, (top.entry.id, top.reason)
    assert says in top.cause + top.fix
    assert specific(top) == (True, ""), specific(top)


def test_the_skel_open_card_keeps_its_place_above_the_codes_entry(kb: KnowledgeBase) -> None:
    """FastRPC's remote_handle64_open wording names the skel library: its card (which says the library's
    name) answers first, the code's own entry second."""
    text = (
        "E cdsprpc: fastrpc_apps_user.c:1521: Error 0x80000406: remote_handle64_open failed for "
        "file:///libQnnHtpV75Skel.so?qnn_skel_handle_invoke&_modver=1.0&_dom=cdsp"
    )
    ids = [m.entry.id for m in kb.lookup(text, top=2)]
    assert ids == ["qualcomm-fastrpc-skel-open-failed", "qualcomm-fastrpc-0x80000406"]


def test_a_fastrpc_code_without_its_own_entry_gets_the_range_card(kb: KnowledgeBase) -> None:
    """AEE_EBADELF (0x80000452) has no entry of its own: the range card answers, naming the table."""
    matches = kb.lookup("fastrpc_apps_user.c: Error 0x80000452: remote_handle_open failed", top=3)
    assert "qualcomm-fastrpc-range" in [m.entry.id for m in matches]
    assert all(m.entry.family == "qualcomm" for m in matches[:1])


@pytest.mark.parametrize(
    "message",
    [
        # FastRPC's DSP search path and the compute DSP's name (qualcomm/fastrpc sources), wording ours
        "model load aborted: check that ADSP_LIBRARY_PATH lists the folder of the backend libraries",
        "remote session on domain cdsp could not be opened: Permission denied",
        # AIMET's packages (quic/aimet) in a traceback
        'File "/usr/lib/python3/site-packages/aimet_torch/quantsim.py", line 412, in compute_encodings\n'
        "RuntimeError: encodings could not be computed for a quantizer",
    ],
)
def test_qualcomms_stack_names_route_to_qualcomm(message: str) -> None:
    assert detect_families(message)[:1] == ["qualcomm"], family_evidence(message)


def test_cdsp_counts_only_as_a_word() -> None:
    """ "cdsp" inside another identifier (a hash, a longer name) does not make the text Qualcomm's."""
    assert "qualcomm" not in family_evidence("checksum 9fcdsp2a of the upload did not match")


#: GenieCommon.h's status codes (Genie API 1.13), which a message prints by name.
GENIE_STATUSES = [
    "GENIE_STATUS_ERROR_GENERAL",
    "GENIE_STATUS_ERROR_INVALID_ARGUMENT",
    "GENIE_STATUS_ERROR_MEM_ALLOC",
    "GENIE_STATUS_ERROR_INVALID_CONFIG",
    "GENIE_STATUS_ERROR_INVALID_HANDLE",
    "GENIE_STATUS_ERROR_QUERY_FAILED",
    "GENIE_STATUS_ERROR_JSON_FORMAT",
    "GENIE_STATUS_ERROR_JSON_SCHEMA",
    "GENIE_STATUS_ERROR_JSON_VALUE",
    "GENIE_STATUS_ERROR_GENERATE_FAILED",
    "GENIE_STATUS_ERROR_GET_HANDLE_FAILED",
    "GENIE_STATUS_ERROR_APPLY_CONFIG_FAILED",
    "GENIE_STATUS_ERROR_SET_PARAMS_FAILED",
    "GENIE_STATUS_ERROR_BOUND_HANDLE",
    "GENIE_STATUS_WARNING_ABORTED",
    "GENIE_STATUS_WARNING_CONTEXT_EXCEEDED",
]


@pytest.mark.parametrize("status", GENIE_STATUSES)
def test_each_genie_status_has_its_own_specific_entry(kb: KnowledgeBase, status: str) -> None:
    text = f"GenieDialog call failed, status {status}"
    assert [c.text for c in extract_codes(text) if c.key.startswith("genie:")] == [status]
    top = kb.lookup(text, top=1)[0]
    assert top.entry.keys == (f"genie:{status}",) or f"genie:{status}" in top.entry.keys
    assert specific(top) == (True, ""), specific(top)


def test_genie_success_is_no_code() -> None:
    assert not extract_codes("GenieDialog_create returned GENIE_STATUS_SUCCESS")


# ---- s21b (test_knowledge_rknn_runtime_api_and_qnn_status.py) ----


@pytest.mark.parametrize(
    ("message", "key", "printed"),
    [
        ("QnnHtp <E> Failed to create device: 14001", "qnn:14001", "14001"),
        ("QnnDsp <E> Failed to finalize graph (id: 1): 6022", "qnn:6022", "6022"),
        ("QnnHtp <E> Failed to retrieve graph: 6002", "qnn:6002", "6002"),
        ("[QNN] <E> Context binary load failed, 5005", "qnn:5005", "5005"),
    ],
)
def test_a_qnn_status_after_a_failures_colon_is_its_code(message: str, key: str, printed: str) -> None:
    found = [c for c in extract_codes(message) if c.key == key]
    assert found, extract_codes(message)
    assert found[0].text.endswith(printed)


@pytest.mark.parametrize(
    "message",
    [
        "QnnHtp <E> Failed to map tensor: 4096",  # a size, not a header code
        "QnnDsp <E> Failed to create device: 14001.5",
        "Failed to create device: 14001",  # not a QNN line
    ],
)
def test_a_number_after_a_failure_that_is_no_qnn_code_is_not_taken(message: str) -> None:
    assert not [c for c in extract_codes(message) if c.key.startswith("qnn:")]


# ---- s25d: a QNN status inside onnxruntime's QNN EP sentences (onnxruntime/core/providers/qnn/builder/
# qnn_backend_manager.cc, qnn_model.cc, qnn_utils.cc: "<call failed>. Error: N", "Error code: N",
# "Error: <backend text>, Code: N", "Unknown error. QNN error handle: N"), where the line may name no QNN ----


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("Failed to create device. Error: 14001", "qnn:14001"),  # older EPs print the number alone
        ("Failed to create context from binary. Error code: 5000", "qnn:5000"),
        ("Failed to create context. Error: Context binary is incompatible, Code: 5005", "qnn:5005"),
        ("Failed to create context with file mapping enabled. Error: unknown, Code : 5001", "qnn:5001"),
        ("Failed to initialize backend. Error: Unknown error. QNN error handle: 4000", "qnn:4000"),
        ("Failed to get QNN context binary size. Error code: 5006", "qnn:5006"),
        ("Failed to create QNN profile! Error: Unknown error. QNN error handle: 1000", "qnn:1000"),
        ("qnn_interface.contextFree() failed: Unknown error. QNN error handle: 5002", "qnn:5002"),
        (
            "NPU crashed. SSR detected. Recovery not supported (no context binary on disk or JIT or "
            "embed_mode=1). "
            "Error code: 1011",
            "qnn:1011",
        ),
    ],
)
def test_a_qnn_status_in_the_qnn_eps_sentence_is_its_code(message: str, key: str) -> None:
    found = [c for c in extract_codes(message) if c.key == key]
    assert found, extract_codes(message)
    assert found[0].text.endswith(key.split(":")[1])


@pytest.mark.parametrize(
    "message",
    [
        "Failed to get file version info size. Error code: 1813",  # a Windows error, no QNN object named
        "Failed to create device. Error: 4096",  # no header code
        "Failed to create device. Error: 14001.5",
        "Failed to sync trades. Error: 1004",
    ],
)
def test_a_number_in_another_failure_sentence_is_no_qnn_code(message: str) -> None:
    assert not [c for c in extract_codes(message) if c.key.startswith("qnn:")]


@pytest.mark.parametrize(
    ("message", "entry_id", "says"),
    [
        ("Failed to create device. Error: 14001", "qualcomm-qnn-14001", "14001"),
        (
            "Failed to initialize backend. Error: Unknown error. QNN error handle: 4000",
            "qualcomm-qnn-4000",
            "4000",
        ),
        ("Failed to create context from binary. Error code: 5000", "qualcomm-qnn-5000", "5000"),
    ],
)
def test_the_qnn_eps_sentence_gets_its_codes_card(
    kb: KnowledgeBase, message: str, entry_id: str, says: str
) -> None:
    """The code's own card is among the first three answers (the EP's sentence alone only named the call)."""
    top = kb.lookup(message, top=3)
    card = next((m for m in top if m.entry.id == entry_id), None)
    assert card is not None, [m.entry.id for m in top]
    assert card.entry.family == "qualcomm" and not card.entry.generic
    assert says in card.entry.cause
    assert specific(card)[0]


def test_qnnapis_create_from_binary_status_is_its_code(kb: KnowledgeBase) -> None:
    """s25d: Qualcomm's QnnApi.cpp (the QNN loader of Genie and the AI Hub apps) prints the status of
    QnnContext_createFromBinary after the context's index; the code's card answers it (QnnCommon.h: 1002 is
    QNN_COMMON_ERROR_MEM_ALLOC)."""
    message = '[ERROR] "Could not create context from binary for context index = 3 : err 1002"'
    assert [c.key for c in extract_codes(message)] == ["qnn:1002"]
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "qualcomm-qnn-1002"
    assert specific(top)[0]
    assert not extract_codes("context index = 3 : err 4096")  # no header code
