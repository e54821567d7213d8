"""The code extractors' literal precheck: a pattern is compiled and run only on a text holding one of its
literals.  It must never change which codes are found, only skip work.

From s21c (was test_knowledge_ascend_code_tables.py): GE data-flow status codes (345xxx) are AscendCL codes,
from CANN's ``ge/ge_error_codes.h`` and hicann/runtime ``docs/03_api_ref/aclError.md`` (table 3).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import codes
from dumpscope.core.knowledge.codes import extract_codes, may_match
from tests.support.paths import DATA, REPO

EXTRACTORS = list(enumerate(codes._EXTRACTORS))


def _eager(text: str) -> list[tuple[str, str, int]]:
    """The codes of ``text`` found by running every extractor's pattern, none skipped (the reference)."""
    found: dict[str, tuple[str, str, int]] = {}
    for pattern, scheme, _, _ in codes._EXTRACTORS:
        for m in re.finditer(pattern, text):
            for key in codes.keys_of(scheme, m):
                if key not in found:
                    found[key] = (key, m.group(0), m.start())
    return sorted(found.values(), key=lambda c: c[2])


def _found(text: str) -> list[tuple[str, str, int]]:
    return [(c.key, c.text, c.start) for c in extract_codes(text)]


def _precheck_says(i: int, text: str) -> bool:
    _, _, literals, folded = codes._EXTRACTORS[i]
    return may_match(literals, folded, text, text.lower())


@pytest.mark.parametrize(("i", "extractor"), EXTRACTORS, ids=[f"{i}-{e.scheme}" for i, e in EXTRACTORS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_text_holding_a_match_always_passes_the_precheck(
    i: int, extractor: codes._Extractor, data: st.DataObject
) -> None:
    text = data.draw(st.from_regex(extractor.pattern))
    assert re.search(extractor.pattern, text)
    assert _precheck_says(i, text), (extractor.pattern, text)


def test_every_extractor_has_literals_and_the_folded_ones_are_lower_case() -> None:
    assert all(e.literals for e in codes._EXTRACTORS)
    for e in codes._EXTRACTORS:
        assert not e.folded or all(lit == lit.lower() for lit in e.literals), e
        assert e.folded == e.pattern.startswith("(?i:"), e  # the literals are those of its (?i:...) head


@pytest.mark.parametrize(
    "text",
    [
        "aclrtMalloc failed, reſult 507015",  # long s: (?i:result) matches it, str.lower keeps it
        "ACL ERROR 507033 on device 0",
        "QNN graph finalize faıled 6031",  # dotless i in (?i:failed)
        "QnnDsp <E> Failed to create a new transport session for deviceId 0, coreId 0: err: 1002",
        "[TRT] [E] 3: [network.cpp::addInput::1500] Error Code 3: API Usage Error (invalid shape)",
        "E RKNN: rknn_init error ret=-6",
        "EZ9999: Inner Error! retCode=0x26 ErrorNo: 4294967295 errNo[0x10005]",
        "error_code=1002; error_message=SNPE_ERRORCODE_DLSYSTEM_MISSING_PARAM",
        "CUDA failure 999: unknown error; CUDNN_STATUS_BAD_PARAM; cudaErrorNoKernelImageForDevice",
        "[MIE04E02011C] ERR00100 In function importConv: [8] Assertion failed ... ): UNSUPPORTED_NODE",
        "plain text without any code at all",
        "",
    ],
)
def test_the_precheck_finds_the_same_codes_as_running_every_pattern(text: str) -> None:
    assert _found(text) == _eager(text)


def test_the_same_codes_on_every_dev_message() -> None:
    """Dev messages only (held-out texts are not read here)."""
    messages = []
    for path in sorted((DATA / "explain").glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        messages += [r["message"] for r in records if r.get("split") == "dev"]
    assert len(messages) > 250
    with_codes = 0
    for message in messages:
        assert _found(message) == _eager(message)
        with_codes += bool(_eager(message))
    assert with_codes > 100


_FRAGMENTS = st.sampled_from(
    [
        "error",
        "ERROR",
        "Error Code ",
        "Error[",
        "retCode=0x",
        "ret",
        "result",
        "failed",
        "qnn",
        "QNN",
        "<E>",
        "rknn",
        "RKNN_ERR_",
        "ErrorCode::k",
        "): ",
        "In function f: [",
        "[TRT] ",
        "ErrorNo: ",
        "errNo[0x",
        "error_code=",
        "; error_message=",
        "SNPE_",
        "MIE",
        "ERR",
        " failure ",
        "CUDA",
        "E1",
        "W",
        "\u0131",
        "\u017f",
        "507015",
        "12",
        "-6",
        "3110",
        "UNSUPPORTED_NODE",
        "FAIL",
        "A",
        " ",
        ":",
        "=",
        "]",
        "\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_FRAGMENTS, max_size=14))
def test_the_same_codes_on_generated_texts(parts: list[str]) -> None:
    text = "".join(parts)
    assert _found(text) == _eager(text)


def test_a_pattern_is_compiled_only_when_a_text_holds_one_of_its_literals() -> None:
    i = next(i for i, e in EXTRACTORS if e.scheme == "snpe" and "error_code=" in e.literals)
    codes._COMPILED[i] = None
    extract_codes("E RKNN: failed to open rknpu module")
    assert codes._COMPILED[i] is None
    assert _found("error_code=1002; error_message=x")[0][0] == "snpe:1002"
    assert codes._COMPILED[i] is not None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("aclrtMalloc failed, error code: 207001", "acl:207001"),
        ("aclnnAdd failed, ret = 561103", "acl:561103"),
        ("GE load model failed, result 545001", "acl:545001"),
        ("Reshape error: 262144 elements cannot be reshaped into [1,3,224,225]", None),
        ("read failed: 400000 bytes short", None),
        # s22d: the forms torch_npu, the CANN samples and aclnn callers print besides "error code is N"
        ("call aclrtMalloc, errCode=207001", "acl:207001"),
        ("aclnnMyOpGetWorkspaceSize returned aclnnStatus = 161002", "acl:161002"),
        ("aclrtMemcpy status: 507899", "acl:507899"),
        ("job status: 507011 rows written", None),
    ],
)
def test_an_acl_code_is_a_number_the_cann_headers_define(text: str, key: str | None) -> None:
    """Six digits after "error"/"failed"/"ret" are an AscendCL code only under a prefix CANN defines: a byte
    or element count after "error" must not make a message Ascend's."""
    acl = [c.key for c in extract_codes(text) if c.key.startswith("acl:")]
    assert acl == ([key] if key else [])


def test_every_acl_code_the_kb_names_has_a_known_prefix() -> None:
    """The extractor's prefixes cover every AscendCL code an entry is written for, so no entry's code
    becomes unreachable."""
    kb = [json.loads(line) for line in (REPO / "core/knowledge/kb.jsonl").open(encoding="utf-8")]
    keys = {k for e in kb for k in codes.keys_for_code(e.get("code") or "") if k.startswith("acl:")}
    assert keys
    assert sorted(k for k in keys if k[4:7] not in codes.ACL_PREFIXES) == []


# ---- s21c (test_knowledge_ascend_code_tables.py) ----


def test_ge_data_flow_codes_are_acl_codes() -> None:
    """345xxx (GE data-flow status codes) is an AscendCL code range like 145xxx and 545xxx."""
    assert [c.key for c in extract_codes("FetchDataFlowGraph failed, error code:345103")] == ["acl:345103"]


def test_a_number_after_a_named_value_is_no_ascendcl_code() -> None:
    """A six-digit number with an AscendCL prefix after "error" is the value of a name when a name with "_"
    or a bracket stands between them ('RuntimeError: top_k (100000) must be ...'): no acl key, so no
    AscendCL card answers a sampling argument's check; the forms CANN prints keep their key."""
    from dumpscope.core.knowledge.codes import extract_codes

    for text in (
        "RuntimeError: top_k (100000) must be <= vocab_size (32000)",
        "error: max_length is 200000 but must be less than the context length",
    ):
        assert [c.key for c in extract_codes(text)] == [], text
    for text, key in (
        ("aclrtSetDevice failed (507033)", "acl:507033"),
        ("aclrtMemcpy failed, error code is 507899", "acl:507899"),
        ("call aclnnAdd failed, ret = 161002", "acl:161002"),
    ):
        assert key in [c.key for c in extract_codes(text)], text
