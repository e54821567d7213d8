"""The compiled index of the built-in KB (``kb_index.json``): fresh, tied to its source, lazy,
and giving the same answers as parsing every entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, builtin_entries, entry_from_dict, load_kb
from dumpscope.core.knowledge.index import (
    INDEX_FILE,
    EntryTable,
    PackedFloats,
    PackedLists,
    build_index,
    read_index,
    word_idf,
    word_norms,
)
from dumpscope.core.knowledge.loader import _package_bytes, builtin_index

NO_USER_DIR = Path("/nonexistent-dumpscope-test")
MESSAGES = [
    "E10001: Value [NCWH] for parameter [--input_format] is invalid.",
    "E RKNN: failed to open rknpu module, need to insmod rknpu dirver!",
    "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from m.onnx failed:This is an invalid model.",
    "Segmentation fault",
    "[TRT] [E] 4: [network.cpp::validate::2997] Error Code 4: Internal Error (something)",
    "aclrtMalloc failed, error code 507899",
]


def _source() -> bytes:
    return _package_bytes("kb.jsonl")


def test_shipped_index_is_a_fresh_build() -> None:
    """Edit kb.jsonl, then run ``python -m dumpscope.core.knowledge`` (this test says so)."""
    shipped = json.loads(_package_bytes(INDEX_FILE))
    assert shipped == build_index(_source().decode("utf-8")), (
        "kb_index.json is stale: python -m dumpscope.core.knowledge"
    )
    assert builtin_index() is not None


def test_index_of_another_source_is_refused() -> None:
    raw = _package_bytes(INDEX_FILE)
    edited = _source().replace(b'"fix": "', b'"fix": "X', 1)
    assert read_index(edited, raw) is None
    assert read_index(_source(), b"not json") is None
    assert read_index(_source(), b'{"format": 99}') is None
    assert read_index(_source(), raw) is not None


def test_an_index_of_the_previous_format_is_refused_and_the_kb_parses_every_entry() -> None:
    """Format 4 held the norms as a JSON list of numbers; format 5 as one string (:class:`PackedFloats`);
    format 6 adds each entry's line CRC-32 (``line_crcs``).  An index of an old form beside a new reader is
    refused as a whole (then every entry is parsed: same answers, slower), never read half-way."""
    data = json.loads(_package_bytes(INDEX_FILE))
    assert data["format"] == 6 and isinstance(data["postings"]["norms"], str)
    old = {
        **data,
        "format": 4,
        "postings": {**data["postings"], "norms": list(PackedFloats(data["postings"]["norms"]))},
    }
    assert read_index(_source(), json.dumps(old).encode()) is None
    five = {k: v for k, v in data.items() if k != "line_crcs"} | {"format": 5}
    assert read_index(_source(), json.dumps(five).encode()) is None
    assert read_index(_source(), json.dumps(five).encode(), by_line=True) is None
    assert read_index(_source(), json.dumps({**five, "format": 6}).encode(), by_line=True) is None
    broken = {**data, "postings": {**data["postings"], "norms": "1.5 not-a-number"}}
    index = read_index(_source(), json.dumps(broken).encode())  # a hand-edited index: fails clearly on use
    assert index is not None
    with pytest.raises(ValueError):
        index.postings(for_change=False).norms[1]  # type: ignore[index]


def test_packed_norms_read_back_the_very_numbers_of_the_list() -> None:
    index = builtin_index()
    assert index is not None
    norms = index.postings(for_change=False).norms
    assert isinstance(norms, PackedFloats)
    built = json.loads(_package_bytes(INDEX_FILE))["postings"]["norms"].split(" ")
    assert len(norms) == len(built) == len(builtin_entries())
    assert list(norms) == [float(x) for x in built] and norms[-1] == float(built[-1])
    assert norms[2:5] == [float(x) for x in built[2:5]]


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=50))
def test_packed_floats_round_trip_exactly(numbers: list[float]) -> None:
    packed = PackedFloats(" ".join(map(repr, numbers)))
    assert len(packed) == len(numbers)
    assert list(packed) == packed.floats() == numbers  # repr -> float is exact: byte-identical scores
    assert [repr(x) for x in packed] == [repr(x) for x in numbers]


def test_an_index_checked_by_line_refuses_a_source_of_another_length() -> None:
    raw = _package_bytes(INDEX_FILE)
    longer = _source().replace(b'"fix": "', b'"fix": "X', 1)
    assert read_index(longer, raw, by_line=True) is None
    index = read_index(_source(), raw, by_line=True)
    assert index is not None and index.lines_checked
    assert read_index(_source(), raw) is not None and not read_index(_source(), raw).lines_checked  # type: ignore[union-attr]


def _same_length_edit() -> tuple[bytes, bytes]:
    """The source with one entry's fix edited in place to the same length, and that entry's example."""
    source = _source()
    for line in source.splitlines():
        entry = json.loads(line) if line.strip() and not line.lstrip().startswith(b"#") else {}
        if (
            entry.get("example")
            and "fix" in entry
            and "E10001" in entry.get("code", "")
            and "a" in entry["fix"]
        ):
            fix = json.dumps(entry["fix"]).encode()
            edited = json.dumps(entry["fix"].replace("a", "o", 1)).encode()
            assert len(edited) == len(fix)
            return source.replace(fix, edited, 1), entry["example"].encode()
    raise AssertionError("no E10001 entry with an example")


def test_a_line_edited_in_place_is_found_when_parsed_and_every_entry_is_parsed_again() -> None:
    """``explain MESSAGE`` checks each line's CRC-32 as it parses it, not the whole file's at start: a line
    that no longer is the indexed one raises :class:`StaleIndex`, and the knowledge base then holds every
    entry of the file, parsed: the answers of a knowledge base built without the index."""
    from dumpscope.core.knowledge.index import StaleIndex, entries_of

    edited, example = _same_length_edit()
    assert len(edited) == len(_source()) and edited != _source()
    index = read_index(edited, _package_bytes(INDEX_FILE), by_line=True)
    assert index is not None and read_index(edited, _package_bytes(INDEX_FILE)) is None
    table = index.table()
    with pytest.raises(StaleIndex):
        list(table)
    kb = KnowledgeBase.from_index(index)
    slow = KnowledgeBase(entries_of(edited))
    message = example.decode("utf-8")
    assert _answers(kb, message) == _answers(slow, message)
    assert [m.fix for m in kb.lookup(message)] == [m.fix for m in slow.lookup(message)]
    assert isinstance(kb.entries, tuple)  # parsed, every one
    fresh = KnowledgeBase.from_index(index)
    assert fresh.answer(message).matches[0].fix == slow.answer(message).matches[0].fix


def test_lines_checked_one_by_one_read_the_entries_of_the_whole_file_check() -> None:
    raw = _package_bytes(INDEX_FILE)
    by_line, whole = read_index(_source(), raw, by_line=True), read_index(_source(), raw)
    assert by_line is not None and whole is not None
    assert list(by_line.table()) == list(whole.table()) == list(builtin_entries())


def test_stale_index_falls_back_to_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    import dumpscope.core.knowledge.loader as loader

    monkeypatch.setattr(loader, "builtin_index", lambda: None)
    slow = load_kb(user_dir=NO_USER_DIR)
    assert isinstance(slow.entries, tuple)
    monkeypatch.undo()
    fast = load_kb(user_dir=NO_USER_DIR)
    assert isinstance(fast.entries, EntryTable)
    for message in MESSAGES:
        assert _answers(fast, message) == _answers(slow, message), message


def _answers(kb: KnowledgeBase, message: str) -> list[tuple[str, float, str, tuple[str, ...]]]:
    return [(m.entry.id, m.score, m.reason, m.codes) for m in kb.lookup(message, top=5)]


def test_a_lookup_parses_only_the_entries_it_reaches() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    kb.lookup(MESSAGES[0])
    assert isinstance(kb.entries, EntryTable)
    parsed = sum(e is not None for e in kb.entries._entries)
    assert 0 < parsed < len(kb) // 10


def test_entries_read_from_the_index_equal_the_parsed_ones() -> None:
    table = load_kb(user_dir=NO_USER_DIR).entries
    assert list(table) == list(builtin_entries())
    assert table[-2:] == builtin_entries()[-2:]


def _user_entries() -> list:  # type: ignore[type-arg]
    first = builtin_entries()[0].to_dict()
    replaced = {
        **first,
        "pattern": "dumpscope test replaced (?P<op>\\w+)",
        "cause": "a user's own cause",
        "fix": "x",
    }
    for name in ("anchors", "keys", "origin"):
        replaced.pop(name)
    added = {
        "id": "user-new",
        "tool": "mytool",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "me",
        "family": "rknn",
        "pattern": "my brand new failure (?P<value>\\d+)",
        "keys": ["rknn:RKNN_ERR_FAIL"],
    }
    again = {**added, "cause": "second version wins"}
    return [entry_from_dict(raw, origin="user:test") for raw in (replaced, added, again)]


def test_user_entries_over_the_index_match_a_full_build() -> None:
    """Replacing a built-in entry and adding new ones gives the same indexes and answers either way."""
    user = _user_entries()
    index = builtin_index()
    assert index is not None
    fast = KnowledgeBase.from_index(index, user)
    merged = {e.id: e for e in builtin_entries()}
    merged.update((e.id, e) for e in user)
    slow = KnowledgeBase(merged.values())
    assert list(fast.entries) == list(slow.entries)
    assert fast.user_entries == slow.user_entries == [user[0], user[2]]
    for name in ("_by_key", "_by_word", "_by_anchor", "_specific"):
        assert _nonempty(getattr(fast, name)) == _nonempty(getattr(slow, name)), name
    assert list(fast._norm) == pytest.approx(slow._norm)
    for message in [*MESSAGES, "dumpscope test replaced Conv_1", "my brand new failure 42 RKNN_ERR_FAIL"]:
        assert _answers(fast, message) == _answers(slow, message), message
    assert _answers(fast, "my brand new failure 42")[0][0] == "user-new"
    # the shared index itself was not changed by the user entries
    assert KnowledgeBase.from_index(index).entries[0] == builtin_entries()[0]


def _nonempty(table: dict) -> dict:  # type: ignore[type-arg]
    return {k: sorted(v) if isinstance(v, list) else v for k, v in table.items() if v}


def test_packed_postings_read_as_the_lists_and_norms_of_a_full_build() -> None:
    """The index stores each posting list as one string, decoded when read, and the entries' norms: the
    same numbers, exactly, as a knowledge base built from every parsed entry computes."""
    fast = load_kb(user_dir=NO_USER_DIR)
    slow = KnowledgeBase(builtin_entries())
    for name in ("_by_key", "_by_word", "_by_anchor"):
        packed, built = getattr(fast, name), getattr(slow, name)
        assert isinstance(packed, PackedLists), name
        assert set(packed) == set(built) and len(packed) == len(built), name
        assert all(packed[k] == built[k] for k in built), name
        assert "no such key" not in packed and packed.get("no such key") is None
    assert list(fast._norm) == pytest.approx(slow._norm)
    # exactly what a knowledge base computes over the index's words (sorted): the same sums in the same order
    words = dict(sorted(slow._by_word.items()))
    assert list(fast._norm) == word_norms(words, word_idf(words, len(slow)), len(slow))
    assert fast._specific == slow._specific and fast._always == slow._always


def test_a_lookup_decodes_only_the_postings_its_message_reaches() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    kb.lookup(MESSAGES[0])
    decoded = sum(len(getattr(kb, name)._decoded) for name in ("_by_key", "_by_word", "_by_anchor"))
    assert 0 < decoded < 100


def test_an_entry_found_by_an_anchor_alone_without_its_literals_is_never_parsed() -> None:
    """ "Error Code 1: |Error[1]: " patterns hold the anchor "error": a message with the word but neither
    alternative reaches none of them, and they are left out before being parsed."""
    kb = load_kb(user_dir=NO_USER_DIR)
    message = "Load model from m.onnx failed: some error happened"
    kb.lookup(message)
    table = kb.entries
    assert isinstance(table, EntryTable)
    builder = [i for i, entry_id in enumerate(table.ids) if entry_id.startswith("tensorrt-ErrorCode-")]
    assert builder and all(table._entries[i] is None for i in builder)
    slow = KnowledgeBase(builtin_entries())
    assert _answers(kb, message) == _answers(slow, message)


def test_a_user_entry_replacing_a_built_in_one_is_judged_by_its_own_literals() -> None:
    index = builtin_index()
    assert index is not None
    first = builtin_entries()[0]
    raw = {**first.to_dict(), "pattern": r"dumpscope (?:alpha|beta) replaced (?P<op>\w+)", "cause": "mine"}
    for name in ("anchors", "keys", "origin"):
        raw.pop(name)
    kb = KnowledgeBase.from_index(index, [entry_from_dict(raw, origin="user:test")])
    found = kb.lookup("dumpscope beta replaced Conv_1")
    assert found and found[0].entry.cause == "mine" and dict(found[0].captures)["op"] == "Conv_1"
    assert not [m for m in kb.lookup("dumpscope gamma replaced Conv_1") if "pattern" in m.reason]


def test_norms_read_one_by_one_or_all_at_once_give_the_same_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A knowledge base reads its entries' norms from the index's string one by one until its lookups have
    read :data:`~dumpscope.core.knowledge.kb.NORMS_AT_ONCE`, then all at once: the same numbers, the same
    answers, whichever way a message is read."""
    import dumpscope.core.knowledge.kb as kb_module

    paste = "\n".join(MESSAGES)
    answers = {}
    for at_once in (0, 10**9):
        monkeypatch.setattr(kb_module, "NORMS_AT_ONCE", at_once)
        kb = load_kb(user_dir=NO_USER_DIR)
        answers[at_once] = [_answers(kb, m) for m in [*MESSAGES, paste]]
        assert isinstance(kb._norm, list) == (at_once == 0)
    assert answers[0] == answers[10**9]
