"""The compiled index of the built-in KB (``kb_index.json``): fresh, tied to its source, lazy,
and giving the same answers as parsing every entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dumpscope.core.knowledge import KnowledgeBase, builtin_entries, entry_from_dict, load_kb
from dumpscope.core.knowledge.index import INDEX_FILE, EntryTable, build_index, read_index
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
    assert fast._norm == pytest.approx(slow._norm)
    for message in [*MESSAGES, "dumpscope test replaced Conv_1", "my brand new failure 42 RKNN_ERR_FAIL"]:
        assert _answers(fast, message) == _answers(slow, message), message
    assert _answers(fast, "my brand new failure 42")[0][0] == "user-new"
    # the shared index itself was not changed by the user entries
    assert KnowledgeBase.from_index(index).entries[0] == builtin_entries()[0]


def _nonempty(table: dict) -> dict:  # type: ignore[type-arg]
    return {k: sorted(v) if isinstance(v, list) else v for k, v in table.items() if v}
