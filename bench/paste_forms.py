"""How the answers survive the ways people paste a message: re-wrapped, re-spaced, quoted, escaped.

    .venv/bin/python bench/paste_forms.py [--data FILE ...] [--family] [--misses]

A message reaches ``dumpscope explain`` through a terminal, a forum or an issue tracker: lines broken at 80
columns (mid-word by a terminal, at spaces by a mail client or forum), spaces doubled or collapsed, tabs,
CRLF, a log prefix on each line, Markdown's ``> `` quote marks, HTML entities (``&lt;`` ``&quot;``
``&#39;``), smart quotes, a tool's tag printed with other separators (``[E:onnxruntime: Default, ...`` against
``[E:onnxruntime:Default, ...``), a coloured terminal's codes, a notebook's error output as an editor copies
it (a JSON object; session u42).  Each form of :data:`PASTES` is a small
pure function of the message.  The log prefix comes in each grammar users paste it with (session s33c):
Python logging's, a bracketed time, glog's, logcat's (an app's own tag, which names no tool), Docker
Compose's column, journalctl's, a CI runner's time stamp; the tags also as the dev pastes space them
(``[ONNXRuntimeError]:1:FAIL:``, ``[x.cpp:: f::35]``).

For every dev record (``split == "dev"``; held-out records are dropped before anything else is done with
them) whose top entry in the full knowledge base is found by its pattern, each form rewrites the message and
the rewritten message is looked up again: the record counts as *changed* when its top entry differs and as
*family changed* when the top entry's family differs too.  ``--family`` also prints the changes per family
(summed over the forms), ``--misses`` the changed records (dev only) per form.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench.eval_explain is importable from the checkout
    sys.path.insert(0, str(ROOT))

from bench.eval_explain import dev_records as file_dev_records  # noqa: E402
from bench.eval_explain import hard_wrap  # noqa: E402

DATA_DIR = ROOT / "tests" / "data" / "explain"


def word_wrap(message: str, width: int = 80) -> str:
    """A mail client's or forum's re-wrap: lines broken at the last space before ``width`` columns."""
    out: list[str] = []
    for line in message.splitlines() or [""]:
        pieces = textwrap.wrap(
            line, width, break_long_words=False, break_on_hyphens=False, replace_whitespace=False
        )
        out.extend(pieces or [line])
    return "\n".join(out)


def spaces_doubled(message: str) -> str:
    """Every space between two words doubled (a justified or re-flowed paste)."""
    return re.sub(r"(?<=\S) (?=\S)", "  ", message)


def spaces_collapsed(message: str) -> str:
    """Every run of spaces or tabs one space (HTML rendering collapses white space); line breaks kept."""
    return re.sub(r"[ \t]+", " ", message)


def tabs_between_words(message: str) -> str:
    """The spaces between words written as tabs (a terminal's copy of a tab-separated column)."""
    return re.sub(r"(?<=\S) +(?=\S)", "\t", message)


def nbsp(message: str) -> str:
    """Every space a no-break space (U+00A0), as a web page's copy gives them."""
    return message.replace(" ", "\u00a0")


def crlf(message: str) -> str:
    """CRLF line ends."""
    return message.replace("\n", "\r\n")


def log_prefix(message: str) -> str:
    """A logger's stamp before every line."""
    return "\n".join(f"[2025-01-01 12:00:00,123] ERROR {line}" for line in message.splitlines() or [""])


def _prefixed(message: str, prefix: Callable[[int], str]) -> str:
    """``prefix(i)`` before the ``i``-th line (from 0) of the message."""
    return "\n".join(prefix(i) + line for i, line in enumerate(message.splitlines() or [""]))


def python_logging_prefix(message: str) -> str:
    """Python logging's ``%(asctime)s - %(name)s - %(levelname)s - `` before every line."""
    return _prefixed(message, lambda i: f"2024-05-01 10:22:{31 + i % 20},{123 + i} - root - ERROR - ")


def bracketed_time_prefix(message: str) -> str:
    """A time stamp in brackets before every line (``[2024-05-01 10:22:31] ``)."""
    return _prefixed(message, lambda i: f"[2024-05-01 10:22:{31 + i % 20}] ")


def glog_prefix(message: str) -> str:
    """glog's / absl's header (level, date, time, thread, file:line) before every line."""
    return _prefixed(message, lambda i: f"E0501 10:22:31.{123456 + i}  1234 main.cc:{42 + i}] ")


def logcat_prefix(message: str) -> str:
    """Android logcat's ``brief`` header (``E/tag  (pid): ``) of an app's tag before every line."""
    return _prefixed(message, lambda i: "E/native  (12345): ")


def docker_prefix(message: str) -> str:
    """Docker Compose's (or ``kubectl logs --prefix``') service column before every line."""
    return _prefixed(message, lambda i: "web-1  | ")


def journalctl_prefix(message: str) -> str:
    """journalctl's / syslog's ``Mon DD HH:MM:SS host prog[pid]: `` before every line."""
    return _prefixed(message, lambda i: f"May 01 10:22:{31 + i % 20} gpu-host python3[4321]: ")


def ci_runner_prefix(message: str) -> str:
    """A CI runner's time stamp (GitHub Actions: ISO time with seven fraction digits and ``Z``)."""
    return _prefixed(message, lambda i: f"2024-05-01T10:22:{31 + i % 20}.{1234567 + i}Z ")


def markdown_quote(message: str) -> str:
    """Markdown's quote marks: ``> `` before every line (a reply quoting the message)."""
    return "\n".join(f"> {line}" if line else ">" for line in message.splitlines() or [""])


def html_entities(message: str) -> str:
    """The message as an HTML page escapes it: ``& < > " '`` as ``&amp; &lt; &gt; &quot; &#39;``."""
    for ch, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#39;")):
        message = message.replace(ch, entity)
    return message


def smart_quotes(message: str) -> str:
    """Straight quotes made typographic by an editor: ``"a"`` as “a”, ``'a'`` as ‘a’, an apostrophe as ’."""
    message = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", message)
    message = re.sub(r"(?<=\w)'(?=\w)", "\u2019", message)
    return re.sub(r"'([^'\n]*)'", "\u2018\\1\u2019", message)


def tag_colons_spaced(message: str) -> str:
    """A space after each colon inside a bracketed tag that has none (``[E:onnxruntime:Default, x.cc:12
    Run]`` as ``[E: onnxruntime: Default, x.cc: 12 Run]``); times (``12:00:00``) and ``::`` kept."""
    return re.sub(
        r"\[[^\[\]\n]{1,120}\]",
        lambda m: re.sub(r"(?<=[A-Za-z_.])(?<!:):(?=[A-Za-z_\d])(?!\d\d:)", ": ", m.group()),
        message,
    )


def tags_respaced(message: str) -> str:
    """Tags spaced as users' pastes of the dev messages show them: onnxruntime's status without its spaces
    (``[ONNXRuntimeError]:1:FAIL:``) and a space after TensorRT's ``::`` (``[stdArchiveReader.cpp::
    StArchiveReader::35]``)."""
    message = re.sub(r"\[ONNXRuntimeError\] : (\d+) : ([A-Z_ ]+?) : ", r"[ONNXRuntimeError]:\1:\2:", message)
    return re.sub(r"(\[[\w.-]+\.(?:cpp|cc|h|hpp)::)(?=\w)", r"\1 ", message)


def colour_codes(message: str) -> str:
    """A terminal's colour codes around every line (a log saved from a coloured terminal: ``ESC[0;31m``)."""
    return "\n".join(f"\x1b[0;31m{line}\x1b[0m" if line else line for line in message.split("\n"))


def notebook_output(message: str) -> str:
    """A notebook cell's error output as VS Code copies it: a JSON object of ``name``, ``message`` and a
    coloured ``stack``, its strings JSON-escaped (``\\"``, ``\\n``, ``\\u001b``)."""
    named = re.search(r"(?m)^(\w+(?:Error|Exception))\b", message)
    stack = colour_codes(message)
    fields = (("name", named.group(1) if named else "Error"), ("message", message), ("stack", stack))
    return "{\n" + ",\n".join(f'\t"{k}": {json.dumps(v)}' for k, v in fields) + "\n}"


PASTES: dict[str, Callable[[str], str]] = {
    "hard wrap at 80 columns": hard_wrap,
    "word wrap at 80 columns": word_wrap,
    "spaces doubled": spaces_doubled,
    "spaces collapsed": spaces_collapsed,
    "tabs between words": tabs_between_words,
    "no-break spaces": nbsp,
    "CRLF line ends": crlf,
    "log prefix on every line": log_prefix,
    "Python logging prefix": python_logging_prefix,
    "bracketed time prefix": bracketed_time_prefix,
    "glog prefix": glog_prefix,
    "logcat prefix": logcat_prefix,
    "Docker prefix": docker_prefix,
    "journalctl prefix": journalctl_prefix,
    "CI runner prefix": ci_runner_prefix,
    "Markdown quote": markdown_quote,
    "HTML entities": html_entities,
    "smart quotes": smart_quotes,
    "tag colons spaced": tag_colons_spaced,
    "tags respaced": tags_respaced,
    "colour codes": colour_codes,
    "notebook error output": notebook_output,
}
"""The ways a pasted message differs from what the tool printed (each a pure function of the message)."""


def dev_records(paths: list[Path]) -> list[dict[str, Any]]:
    """The dev records with a family of the files (:func:`.eval_explain.dev_records`: held-out ones dropped
    before anything else is done with them)."""
    return [r for path in paths for r in file_dev_records(path) if "family" in r]


def default_files() -> list[Path]:
    """Every file of records with a family (the ``*_unknown`` files score uncovered tools)."""
    return sorted(p for p in DATA_DIR.glob("*.jsonl") if "unknown" not in p.name)


def pattern_found(kb: Any, records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any]]:
    """The records whose top entry is found by its pattern, with that match."""
    found = []
    for r in records:
        matches = kb.lookup(r["message"], top=3)
        if matches and "pattern" in matches[0].reason.split("+"):
            found.append((r, matches[0]))
    return found


def measure(
    kb: Any, found: list[tuple[dict[str, Any], Any]], pastes: dict[str, Callable[[str], str]] = PASTES
) -> dict[str, list[tuple[dict[str, Any], str, str]]]:
    """Per form, the records whose top entry changed: ``(record, entry id before -> after, family after)``."""
    changed: dict[str, list[tuple[dict[str, Any], str, str]]] = {}
    for name, rewrite in pastes.items():
        rows = []
        for r, before in found:
            after = kb.lookup(rewrite(r["message"]), top=1)
            top = after[0].entry if after else None
            if top is None or top.id != before.entry.id:
                rows.append((r, f"{before.entry.id} -> {top.id if top else '-'}", top.family if top else "-"))
        changed[name] = rows
    return changed


def report(found: list[tuple[dict[str, Any], Any]], changed: dict[str, list[Any]], by_family: bool) -> None:
    """One line per form: changed and family-changed counts; per family when asked."""
    family_of = {id(r): m.entry.family for r, m in found}
    print(f"{len(found)} dev records whose top entry is found by its pattern")
    print(f"{'form':28s} {'top entry changed':>18s} {'family changed':>15s}")
    for name, rows in changed.items():
        fam = sum(after != family_of[id(r)] for r, _, after in rows)
        print(f"{name:28s} {len(rows):18d} {fam:15d}")
    total = sum(len(rows) for rows in changed.values())
    fam_total = sum(after != family_of[id(r)] for rows in changed.values() for r, _, after in rows)
    print(f"{'all forms':28s} {total:18d} {fam_total:15d}")
    if by_family:
        n = Counter(m.entry.family for _, m in found)
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for rows in changed.values():
            for r, _, after in rows:
                per[family_of[id(r)]][0] += 1
                per[family_of[id(r)]][1] += after != family_of[id(r)]
        print(f"\n{'family':16s} {'records':>8s} {'changed (all forms)':>20s} {'family changed':>15s}")
        for family in sorted(n):
            c, f = per.get(family, [0, 0])
            print(f"{family:16s} {n[family]:8d} {c:20d} {f:15d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="a file of records (default: all)")
    parser.add_argument("--family", action="store_true", help="also the changes per family")
    parser.add_argument("--misses", action="store_true", help="list the changed dev records per form")
    parser.add_argument("--only", action="append", help="measure only these forms (repeatable)")
    args = parser.parse_args()
    from dumpscope.core.knowledge import load_kb

    kb = load_kb(user_dir=Path("/nonexistent"))
    found = pattern_found(kb, dev_records(args.data or default_files()))
    pastes = {k: v for k, v in PASTES.items() if not args.only or k in args.only}
    changed = measure(kb, found, pastes)
    report(found, changed, args.family)
    if args.misses:
        for name, rows in changed.items():
            for r, ids, after in rows:
                print(f"CHANGED [dev] {name}: {ids} ({after}): {r['message'][:120]!r}")


if __name__ == "__main__":
    main()
