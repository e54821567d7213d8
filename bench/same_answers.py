"""Byte-identical ``dumpscope explain`` answers across a change (a faster start must not change a word).

    python bench/same_answers.py OUT_DIR                    # before the change: write the answers
    python bench/same_answers.py OUT_DIR2 --against OUT_DIR  # after it: write again, compare byte for byte

Written: ``explain --json`` and the text answer of every ``dev`` message of ``tests/data/explain/*.jsonl``,
each in a fresh ``dumpscope`` process (the user's path: a cold knowledge base, patterns compiled on
first use), plus ``explain --json`` of every KB entry's ``example`` in one process (``main`` called
again and again: a warm path), plus ``explain --log --json`` of one log holding the dev messages in
noise lines.  Held-out texts are never read.  With ``--against``, exit 1 when any file differs, naming
the first differing answers.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "explain"


def dev_messages() -> list[str]:
    """Every ``dev`` message of the eval sets, in file and line order (held-out records are skipped
    before their text is looked at)."""
    out: list[str] = []
    for path in sorted(DATA.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    record = json.loads(line)
                    if record.get("split") == "dev":
                        out.append(record["message"])
    return out


def _command() -> list[str]:
    script = Path(sys.executable).with_name("dumpscope")
    return [str(script)] if script.exists() else [sys.executable, "-m", "dumpscope"]


def _fresh(args: list[str]) -> str:
    """Exit code, stdout and stderr of one fresh ``dumpscope`` process."""
    done = subprocess.run([*_command(), *args], capture_output=True, check=False)
    out, err = (stream.decode("utf-8", "replace") for stream in (done.stdout, done.stderr))
    return f"exit {done.returncode}\n{out}{err}"


def _in_process(args: list[str]) -> str:
    from dumpscope.tui.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return f"exit {code}\n{out.getvalue()}{err.getvalue()}"


def _kb_examples() -> list[str]:
    from dumpscope.core.knowledge import builtin_entries

    return [e.example for e in builtin_entries() if e.example]


def _log(messages: list[str], path: Path) -> None:
    noise = "2025-01-01 12:00:{s:02d} - INFO - Processing node /backbone/conv{i}/Conv, 0 errors so far"
    lines: list[str] = []
    for k, message in enumerate(messages):
        lines += [noise.format(s=(k + j) % 60, i=j) for j in range(5)]
        lines += message.split("\n")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write(out: Path) -> None:
    """Every answer, one file per kind."""
    out.mkdir(parents=True, exist_ok=True)
    messages = dev_messages()
    answers = {
        "dev-json": [_fresh(["explain", "--json", m]) for m in messages],
        "dev-text": [_fresh(["explain", m]) for m in messages],
        "examples-json": [_in_process(["explain", "--json", m]) for m in _kb_examples()],
    }
    _log(messages, out / "dev.log")
    answers["log-json"] = [_fresh(["explain", "--json", "--log", str(out / "dev.log")])]
    for name, texts in answers.items():
        (out / f"{name}.txt").write_text("\n\x1e\n".join(texts), encoding="utf-8")
        digest = hashlib.sha1("".join(texts).encode()).hexdigest()[:12]
        print(f"{name}: {len(texts)} answers, sha1 {digest}")


def compare(new: Path, old: Path) -> int:
    """1 when a file differs (the first differing answers are named), else 0."""
    differ = 0
    for old_file in sorted(old.glob("*.txt")):
        a = old_file.read_text(encoding="utf-8").split("\n\x1e\n")
        b = (new / old_file.name).read_text(encoding="utf-8").split("\n\x1e\n")
        bad = [i for i in range(max(len(a), len(b))) if a[i : i + 1] != b[i : i + 1]]
        print(f"{old_file.stem}: {len(a)} answers, {len(bad)} differ")
        for i in bad[:3]:
            print(f"   #{i}: was {a[i][:300]!r}\n        now {b[i][:300] if i < len(b) else None!r}")
        differ |= bool(bad)
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the answers to")
    parser.add_argument("--against", type=Path, help="a folder written before the change: compare")
    args = parser.parse_args()
    write(args.out)
    if args.against is not None:
        raise SystemExit(compare(args.out, args.against))


if __name__ == "__main__":
    main()
