"""Append hand-written entries to the built-in knowledge base, with their derived fields.

    .venv/bin/python -m bench.kb_add [--replace] NEW.jsonl   # then: python -m dumpscope.core.knowledge

Each line of NEW.jsonl holds the fields a curator writes (``id, family, tool, stage, code, keys,
pattern, cause, fix, source`` and optionally ``example, uncertain, generic, level, group``); this
fills ``anchors``, ``words`` and the complete ``keys`` exactly as the tests recompute them, checks
the entry loads (pattern compiled and checked for catastrophic backtracking, example matched) and
refuses an id that is already there; with ``--replace`` an entry whose id is there is rewritten in
its place instead (a rewritten cause, fix or pattern), the others appended.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dumpscope.core.knowledge.codes import keys_for_code
from dumpscope.core.knowledge.entry import entry_from_dict, entry_words, pattern_anchors

KB = Path(__file__).resolve().parent.parent / "core" / "knowledge" / "kb.jsonl"
ORDER = (
    "id",
    "family",
    "tool",
    "stage",
    "code",
    "keys",
    "pattern",
    "cause",
    "fix",
    "source",
    "uncertain",
    "generic",
    "anchors",
    "example",
    "words",
    "level",
    "group",
)


def completed(raw: dict[str, object]) -> dict[str, object]:
    """``raw`` with defaults and derived fields, in the file's field order."""
    pattern, code = str(raw.get("pattern", "")), str(raw.get("code", ""))
    out: dict[str, object] = {
        "code": "",
        "keys": [],
        "pattern": "",
        "uncertain": False,
        "generic": False,
        **raw,
    }
    out["keys"] = sorted(set(out["keys"]) | set(keys_for_code(code)))  # type: ignore[arg-type]
    out["anchors"] = list(pattern_anchors(pattern)) if pattern else []
    out["words"] = sorted(entry_words(pattern, code))
    out["example"] = str(raw.get("example", ""))
    return {k: out[k] for k in ORDER if k in out} | {k: v for k, v in out.items() if k not in ORDER}


def main(argv: list[str]) -> int:
    replace = argv[:1] == ["--replace"]
    path = Path(argv[-1])
    current = [json.loads(line) for line in KB.read_text(encoding="utf-8").splitlines() if line.strip()]
    position = {str(e["id"]): i for i, e in enumerate(current)}
    appended = replaced = 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = completed(json.loads(line))
        if raw["id"] in position and not replace:
            raise SystemExit(f"{path}:{n}: id {raw['id']} is already in the knowledge base")
        entry = entry_from_dict(raw)
        if entry.example and entry.pattern and not entry.search(entry.example):
            raise SystemExit(f"{path}:{n}: {raw['id']}: the pattern does not match its example")
        if raw["id"] in position:
            current[position[str(raw["id"])]] = raw
            replaced += 1
        else:
            position[str(raw["id"])] = len(current)
            current.append(raw)
            appended += 1
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in current)
    KB.write_text(text, encoding="utf-8")  # a curator's tool, not the product: no atomic writer needed
    print(f"{appended} entries appended to {KB}, {replaced} rewritten in place")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
