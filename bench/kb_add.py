"""Append hand-written entries to the built-in knowledge base, with their derived fields.

    .venv/bin/python -m bench.kb_add NEW.jsonl        # then: python -m dumpscope.core.knowledge

Each line of NEW.jsonl holds the fields a curator writes (``id, family, tool, stage, code, keys,
pattern, cause, fix, source`` and optionally ``example, uncertain, generic, level, group``); this
fills ``anchors``, ``words`` and the complete ``keys`` exactly as the tests recompute them, checks
the entry loads (pattern compiled and checked for catastrophic backtracking, example matched) and
refuses an id that is already there.
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
    known = {json.loads(line)["id"] for line in KB.read_text(encoding="utf-8").splitlines() if line.strip()}
    lines = []
    for n, line in enumerate(Path(argv[0]).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = completed(json.loads(line))
        if raw["id"] in known:
            raise SystemExit(f"{argv[0]}:{n}: id {raw['id']} is already in the knowledge base")
        entry = entry_from_dict(raw)
        if entry.example and entry.pattern and not entry.search(entry.example):
            raise SystemExit(f"{argv[0]}:{n}: {raw['id']}: the pattern does not match its example")
        known.add(str(raw["id"]))
        lines.append(json.dumps(raw, ensure_ascii=False))
    with KB.open("a", encoding="utf-8") as f:  # a curator's tool, not the product: no atomic writer needed
        f.write("".join(line + "\n" for line in lines))
    print(f"{len(lines)} entries appended to {KB}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
