"""Issue 23 (latency): the work a lookup skips gives the answers it gave before.

A pasted block's lines are tested only for the anchors and code extractors the whole block holds; whether an
anchor is a core phrase is kept; patterns some texts need are compiled on first use; an ASCII answer is
checked for control characters without a regex; the grams table is mapped, not read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dumpscope.core.knowledge import builtin_entries, load_kb
from dumpscope.core.knowledge import kb as kb_module
from dumpscope.core.knowledge.codes import _EXTRACTORS, extract_codes, possible_extractors
from dumpscope.core.knowledge.kb import _Segment, segments
from dumpscope.core.knowledge.package_data import package_buffer, package_bytes
from dumpscope.core.knowledge.words import tokens
from dumpscope.core.lazyre import LazyPattern
from dumpscope.core.names import _UNPRINTABLE, _UNPRINTABLE_LINES, json_safe, printable

NO_USER_DIR = Path("/nonexistent-dumpscope-test")

RKNN_PASTE = (
    "I rknn-toolkit2 version: 2.3.0\n"
    "--> Init runtime environment\n"
    "E RKNN: [02:59:59.949] Invalid RKNN model version 6\n"
    "E RKNN: [02:59:59.949] rknn_init, load model failed!\n"
    "E init_runtime: Traceback (most recent call last):\n"
    '  File "rknn/api/rknn_base.py", line 2483, in rknn.api.rknn_base.RKNNBase.init_runtime\n'
    "Exception: RKNN init failed. error code: RKNN_ERR_FAIL"
)


def _blocks() -> list[str]:
    """Multi-line texts made of the KB's own examples (three per block), plus non-ASCII ones with CRLF and
    vertical-tab line ends (Greek capital sigma lower-cases by its context)."""
    examples = [e.example for e in builtin_entries() if e.example]
    blocks = [RKNN_PASTE]
    blocks += ["\n".join(examples[i : i + 3]) for i in range(0, 240, 3)]
    blocks += [f"ΣΑΣ {a}\r\nΣ{b}\x0bEND" for a, b in zip(examples[:40], examples[40:80], strict=True)]
    return blocks


def test_a_line_of_a_block_is_tested_for_the_anchors_the_block_holds_with_the_same_candidates() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    checked = 0
    for block in _blocks():
        lowered = block.lower()
        present = [a for a in kb._by_anchor if a in lowered]
        for segment in segments(block)[1:]:
            low = segment.lower()
            if not (segment in block and low in lowered):
                continue  # such a segment is tested for every anchor (lookup's ``inside``)
            seg = _Segment(segment, low, {}, set(), {}, frozenset(), [], [], ())
            assert kb._candidates(seg, present) == kb._candidates(seg, kb._by_anchor), segment
            checked += 1
    assert checked > 200


def test_a_line_of_a_block_is_searched_by_the_extractors_whose_literals_the_block_holds() -> None:
    every = list(range(len(_EXTRACTORS)))
    found_any = 0
    for block in _blocks():
        possible = possible_extractors(block, block.lower())
        assert possible == [i for i in every if i in possible]  # in the extractors' order
        for segment in segments(block):
            if segment in block and segment.lower() in block.lower():
                codes = extract_codes(segment, possible)
                assert codes == extract_codes(segment) == extract_codes(segment, every), segment
                found_any += bool(codes)
    assert found_any > 20


def test_a_block_s_answer_is_the_one_every_segment_tested_in_full_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lookup with the whole block's anchors and extractors, against the same lookup told that no
    segment is inside the block (every anchor and extractor tested, as before)."""
    kb = load_kb(user_dir=NO_USER_DIR)
    blocks = _blocks()[:60]
    fast = [kb.lookup(block) for block in blocks]
    every = list(range(len(_EXTRACTORS)))
    monkeypatch.setattr(kb_module, "possible_extractors", lambda text, lowered: every)
    original = kb._lookup_segment

    def in_full(*args: object) -> object:
        # every anchor tested (None); the wording cue, after the anchors, kept as the lookup found it
        return original(*args[:6], args[6], None, *args[8:])  # type: ignore[arg-type]

    monkeypatch.setattr(kb, "_lookup_segment", in_full)
    assert [kb.lookup(block) for block in blocks] == fast
    assert fast[0][0].entry.family == "rknn" and "rknn:RKNN_ERR_FAIL" in fast[0][0].codes


def test_whether_an_anchor_is_a_core_phrase_is_kept_and_equals_its_computation() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    for anchor in list(kb._by_anchor)[:400]:
        computed = len(anchor) >= kb_module.PARTIAL_ANCHOR and " " in anchor and len(tokens(anchor)) >= 2
        assert kb_module._is_core_phrase(anchor) == computed == kb_module._CORE_PHRASES[anchor], anchor


def test_a_lazy_pattern_compiles_on_first_use_and_then_answers_as_the_compiled_one() -> None:
    source = r"(?P<word>[A-Z][a-z]+)Error\b"
    lazy = LazyPattern(source, re.IGNORECASE)
    assert "_compiled" not in lazy.__dict__ and lazy.pattern == source
    text = "a KeyError and a valueerror here"
    rx = re.compile(source, re.IGNORECASE)
    assert [m.group("word") for m in lazy.finditer(text)] == [m.group("word") for m in rx.finditer(text)]
    assert lazy.compiled() is lazy.__dict__["_compiled"]
    assert lazy.sub("#", text) == rx.sub("#", text) and lazy.findall(text) == rx.findall(text)
    assert lazy.groupindex == rx.groupindex and lazy.flags == rx.flags
    assert lazy.search.__self__ is lazy.compiled()  # kept on the object: later calls go straight to it
    with pytest.raises(AttributeError):
        lazy.no_such_attribute  # noqa: B018


def test_the_patterns_only_some_texts_need_are_not_compiled_by_an_ordinary_lookup() -> None:
    import subprocess
    import sys

    code = (
        "from dumpscope.core.knowledge import load_kb, kb, entry, family, tracebacks, words\n"
        "load_kb().answer('E RKNN: failed to open rknpu module, need to insmod rknpu dirver!')\n"
        "lazy = [kb._KEY_VALUE, kb.FLOAT16_CLASH, family._EP_NAME, family._NAME_LIST, tracebacks.PY_FRAME,"
        " words._BRACKETED, entry._TOOL_SPECIFIC]\n"
        "print(sum('_compiled' in p.__dict__ for p in lazy), 'array' in __import__('sys').modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "False"]


@pytest.mark.parametrize("lines", [True, False])
def test_an_ascii_text_is_escaped_exactly_as_the_character_class_escapes_it(lines: bool) -> None:
    cls = re.compile(_UNPRINTABLE_LINES if lines else _UNPRINTABLE)
    for code in range(128):
        text = f"ab{chr(code)}\n\tc"
        expected = cls.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
        assert printable(text, lines=lines) == expected, code
        assert json_safe(text) == text.replace("\x7f", "\\u007f")
    assert printable("\u202e x\x9b", lines=lines) == "\\u202e x\\x9b"  # any other text: the class as before


def test_the_grams_table_is_mapped_with_the_file_s_bytes() -> None:
    from dumpscope.core.knowledge.family import _source_grams

    mapped = package_buffer("source_grams.bin")
    assert not isinstance(mapped, bytes)  # a mapping where the file is a plain file beside the module
    assert bytes(mapped) == package_bytes("source_grams.bin")
    families, keys, owners = _source_grams()
    assert isinstance(keys, memoryview) and isinstance(owners, memoryview)
    assert len(keys) == len(owners) == len(mapped) // 5


def test_a_mapped_built_in_file_gives_the_entries_and_answers_of_its_bytes() -> None:
    """``explain MESSAGE`` maps kb.jsonl (one answer, then the process ends); everything else reads it."""
    from dumpscope.core.knowledge.loader import builtin_index

    mapped, read = builtin_index(mapped=True), builtin_index()
    assert mapped is not None and read is not None
    assert isinstance(read.text, bytes) and not isinstance(mapped.text, bytes)
    assert bytes(mapped.text) == read.text
    fast, slow = load_kb(user_dir=NO_USER_DIR, mapped=True), load_kb(user_dir=NO_USER_DIR)
    assert list(fast.entries) == list(slow.entries) == list(builtin_entries())
    for block in _blocks()[:30]:
        assert fast.lookup(block) == slow.lookup(block)


def test_whether_a_pattern_is_a_literal_alone_is_kept_per_pattern() -> None:
    from dumpscope.core.knowledge.entry import literal_only

    pattern = r"TraceBack \(most recent call last\):"
    first = literal_only(pattern)
    hits = literal_only.cache_info().hits
    assert literal_only(pattern) == first == "traceback (most recent call last):"
    assert literal_only.cache_info().hits == hits + 1
    assert literal_only(r"(?i)TraceBack") is None and literal_only(r"Error \d+") is None
