"""The stored compiled forms of the KB's patterns (``kb_forms.bin``, :mod:`dumpscope.core.knowledge.forms`):
fresh, equal to what ``re.compile`` makes, and never used when they do not fit (another interpreter, a damaged
file or form, another pattern): then ``re`` compiles the pattern, as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import forms, load_kb
from dumpscope.core.knowledge.codes import extractor_patterns
from dumpscope.core.knowledge.forms import FORMS_FILE, Forms, build_forms, patterns_of
from dumpscope.core.knowledge.package_data import package_bytes


def _same(built: re.Pattern[str] | None, pattern: str, flags: int = 0) -> bool:
    """``built`` is the pattern ``re.compile`` makes: text, flags and opcodes (``==``), groups and names."""
    made = re.compile(pattern, flags)
    return (
        built is not None
        and built == made
        and built.groups == made.groups
        and list(built.groupindex.items()) == list(made.groupindex.items())
    )


def _shipped() -> Forms:
    shipped = forms.stored()
    if shipped is None:
        pytest.skip("kb_forms.bin was written by another interpreter: every pattern is compiled by re")
    return shipped


def test_shipped_forms_are_a_fresh_build_for_every_kb_pattern_and_code_extractor() -> None:
    """Edit kb.jsonl (or a code extractor), then run ``python -m dumpscope.core.knowledge``."""
    _shipped()
    wanted = patterns_of(package_bytes("kb.jsonl").decode("utf-8"), extractor_patterns())
    assert {p for p, _ in wanted} >= set(extractor_patterns())
    assert package_bytes(FORMS_FILE) == build_forms(wanted), (
        "kb_forms.bin is stale: python -m dumpscope.core.knowledge"
    )


def test_every_shipped_form_is_the_pattern_re_compiles() -> None:
    shipped = _shipped()
    wanted = dict.fromkeys(patterns_of(package_bytes("kb.jsonl").decode("utf-8"), extractor_patterns()))
    assert len(shipped) == len(wanted)
    for pattern, flags in wanted:
        assert _same(shipped.compile(pattern, flags), pattern, flags), pattern


PIECES = st.sampled_from(
    [
        "a",
        "Error",
        r"\d+",
        r"[^\n]{0,20}?",
        r"(?P<op>\w+)",
        r"(?P<shape>\[[\d, ]*\])",
        "(?:x|yz)",
        r"(?>[^\n]{0,9}?:)",
        "(?i:fail)",
        r"\s*",
        "é",
        r"\bword\b",
        "(?=Z)",
        "b++",
        "(c)",
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(PIECES, min_size=1, max_size=6, unique=True).map("".join), min_size=1, max_size=5),
    st.text(),
)
def test_stored_forms_round_trip_to_the_patterns_re_compiles(patterns: list[str], text: str) -> None:
    store = Forms(build_forms((p, 0) for p in patterns))
    for pattern in patterns:
        built = store.compile(pattern)
        assert _same(built, pattern), pattern
        assert built is not None
        found, made = built.search(text), re.compile(pattern).search(text)
        assert (found and (found.span(), found.groupdict())) == (made and (made.span(), made.groupdict()))
    assert store.compile("not (stored)") is None


def test_a_flag_is_part_of_the_form() -> None:
    store = Forms(build_forms([("abc", re.IGNORECASE)]))
    assert store.compile("abc") is None
    assert _same(store.compile("abc", re.IGNORECASE), "abc", re.IGNORECASE)


def test_a_damaged_form_is_not_used_and_re_compiles_the_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = r"Value \[(?P<value>[^\]]{1,80})\] for parameter"
    good = build_forms([(pattern, 0)])
    damaged = bytearray(good)
    damaged[-5] ^= 0x40  # an opcode of the one form: its CRC no longer fits
    assert Forms(bytes(damaged)).compile(pattern) is None
    assert Forms(good[:-4]).compile(pattern) is None  # cut short: the opcodes are missing
    monkeypatch.setattr(forms, "_STORE", [Forms(bytes(damaged))])
    assert _same(forms.compile(pattern), pattern)  # re compiled it


def test_forms_of_another_interpreter_or_no_forms_file_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    good = build_forms([("abc", 0)])
    size = int.from_bytes(good[4:8], "little" if forms.sys.byteorder == "little" else "big")
    header = json.loads(good[8 : 8 + size])
    other = json.dumps({**header, "hexversion": header["hexversion"] + 1}, sort_keys=True).encode()
    assert len(other) <= size
    foreign = good[:8] + other.ljust(size) + good[8 + size :]
    with pytest.raises(ValueError):
        Forms(foreign)
    with pytest.raises(ValueError):
        Forms(b"not a forms file")
    monkeypatch.setattr(forms, "package_buffer", lambda name: foreign)
    monkeypatch.setattr(forms, "_STORE", [])
    assert forms.stored() is None
    assert _same(forms.compile("abc"), "abc")


def test_a_lookup_compiles_no_kb_pattern_with_re(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worst dev messages compiled 15-24 patterns in their look-up; from the stored forms, ``re`` compiles
    none of the KB's (nor of the code extractors')."""
    _shipped()
    kb = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
    message = (
        "RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:506 NPU function error: "
        "AclrtSynchronizeDevice, error code is 507035\n[ERROR] 2025-01-02 (PID:1) ERR00100 PTA call acl api "
        "failed\nEZ9999: Inner Error!\n[TRT] [E] 4: [network.cpp::validate::2997] Error Code 4"
    )
    wanted = {p for p, _ in patterns_of(package_bytes("kb.jsonl").decode("utf-8"), extractor_patterns())}
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    assert kb.lookup(message)
    assert not [p for p in compiled if p in wanted]
