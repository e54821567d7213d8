"""Audit: every KB entry's cause and fix rendered with its parts missing, and the renders that break.

    python bench/audit_renders.py            # counts per class, and the entries with a broken render
    python bench/audit_renders.py --quiet    # counts only

An entry found by its code, its words or a partial phrase, or whose pattern's group is optional, renders its
``{part}`` placeholders without the part (:func:`dumpscope.core.knowledge.kb.fill`).  Each entry's cause and
fix are rendered with every part missing and with each part alone missing (the others given a value), and
each render is checked for the marks of a sentence with a hole (:data:`BROKEN`): empty brackets, a doubled
space, an article or preposition left before punctuation, a doubled word, a placeholder left.  A mark
already in the render with every part given is the entry's own text, not a hole, and is not counted.
No message is read: only the entries.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BROKEN: dict[str, re.Pattern[str]] = {
    "empty brackets": re.compile(r"\(\s*\)|\[\s*\]|(?<!\w)''(?!\w)|(?<!\w)\"\"(?!\w)"),
    "doubled space": re.compile(r"\S  +\S"),
    "space before punctuation": re.compile(r"\w \s*[,.;:)](?!\w)"),
    "article or preposition before punctuation": re.compile(
        r"(?<!\basked )\b(?:the|a|an|of|for|to|in|on|at|with|by|from|into|as|its|their)\s*[,.;:)](?=\s|$)",
        re.IGNORECASE,
    ),
    "doubled article": re.compile(r"\b(?:the|a|an) (?:the|a|an)\b", re.IGNORECASE),
    "doubled word": re.compile(r"\b(?!that\b|had\b)([A-Za-z]{3,}) \1\b", re.IGNORECASE),
    "kind word before default words": re.compile(
        r"(?<!\bthe )\b(?:operation|operator|op|node|layer|tensor|plugin|attribute|option|parameter|argument"
        r"|file|library|device|function|method|kernel) the (?:node|layer|operator type|type|operators|input"
        r"|output|tensor|argument|value|option|data type|shape|version|file|opset|domain|axis|index|library"
        r"|name|details"
        r"|reason|call|device|attribute|package|part the message names)\b",
        re.IGNORECASE,
    ),
    "placeholder left": re.compile(r"\{[a-z][a-z0-9_]{0,20}(?:\|[^{}]*)?\}|\x00"),
    "code word before default words": re.compile(
        r"\b(?:error|code|status|errno|returned|returns) the (?:value|argument|details|reason)\b",
        re.IGNORECASE,
    ),
}
"""The marks of a broken render, by class."""
GIVEN = "Val1"
"""The value each given part takes (a word that makes no mark of :data:`BROKEN` next to any text)."""


def renders(cause: str, fix: str, names: list[str]) -> Iterator[tuple[str, str]]:
    """``(which parts are missing, render)`` for the cause and the fix with every part missing and with each
    part alone missing."""
    from dumpscope.core.knowledge.kb import fill

    cases = [("all", ())] if names else []
    if len(names) > 1:
        cases += [(n, tuple((o, GIVEN) for o in names if o != n)) for n in names]
    for label, captures in cases:
        for text in (cause, fix):
            yield label, fill(text, captures)


def marks(text: str) -> set[str]:
    return {name for name, rx in BROKEN.items() if rx.search(text)}


def broken_renders(entries: list[Any]) -> list[tuple[str, str, str, str]]:
    """``(entry id, class, parts missing, render)`` for each broken render of ``entries``."""
    from dumpscope.core.knowledge.kb import _placeholder_names, fill

    out = []
    for e in entries:
        names = sorted(_placeholder_names(f"{e.cause}\n{e.fix}"))
        if not names:
            continue
        full = {t: marks(fill(t, tuple((n, GIVEN) for n in names))) for t in (e.cause, e.fix)}
        own = full[e.cause] | full[e.fix]
        seen: set[tuple[str, str]] = set()
        for label, text in renders(e.cause, e.fix, names):
            for cls in sorted(marks(text) - own):
                if (cls, text) not in seen:
                    seen.add((cls, text))
                    out.append((e.id, cls, label, text))
    return out


def clause_entries() -> list[Any]:
    """Each clause of :mod:`dumpscope.core.knowledge.clauses` as an entry of its own cause and fix (its
    ``{card}`` and ``{card_fix}`` read as a card's one sentence), so that its renders are audited too."""
    from dumpscope.core.knowledge.clauses import CLAUSES
    from dumpscope.core.knowledge.entry import Entry

    card = "The card's own sentence."
    return [
        Entry(
            f"clause:{c.id}",
            "tool",
            "run",
            c.cause.replace("{card}", card),
            c.fix.replace("{card_fix}", card),
            c.source or "clause",
        )
        for c in CLAUSES
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="counts only")
    args = parser.parse_args()
    from dumpscope.core.knowledge import load_kb

    kb = load_kb(user_dir=Path("/nonexistent"))
    found = broken_renders([*kb.entries, *clause_entries()])
    per_class = Counter(cls for _, cls, _, _ in {(i, c, "", "") for i, c, _, _ in found})
    print(f"{len(kb.entries)} entries and their clauses; {len({i for i, *_ in found})} with a broken render")
    for cls, n in per_class.most_common():
        print(f"   {cls:45s} {n:4d} entries")
    if not args.quiet:
        for entry_id, cls, label, text in found:
            print(f"{entry_id} [{cls}; missing {label}]: {text[:300]}")


if __name__ == "__main__":
    main()
