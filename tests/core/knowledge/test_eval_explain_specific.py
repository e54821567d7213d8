"""bench/eval_explain.py: the hand-checked specificity judge and the ``--draw`` of answers to judge by hand.

No held-out text is read or printed here: the draw is run on dev records and on a synthetic file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.eval_explain import DATA, JUDGED, ROOT, draw, load, right_tool_answers, specific, specific_loose
from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.kb import Match
from tests.support.judged import JUDGED_ROLES

SCRIPT = ROOT / "bench" / "eval_explain.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_draw_refuses_to_run_without_a_seed() -> None:
    done = _run("--draw")
    assert done.returncode == 2
    assert "--draw: expected one argument" in done.stderr
    done = _run("--n", "5")
    assert done.returncode == 2
    assert "--n, --draw-split and --drawn go with --draw SEED" in done.stderr


def _entry(**fields: object) -> Entry:
    base: dict[str, object] = {
        "id": "t-1",
        "tool": "T",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "s",
        "family": "onnxruntime",
        "pattern": "x",
    }
    base.update(fields)
    return Entry(**base)  # type: ignore[arg-type]


LONG_CAUSE = (
    "Node {op} reads a tensor whose shape the kernel cannot take after the exporter fixed its batch size."
)
LONG_FIX = (
    "Re-export {op} with dynamic_axes for the batch dimension, or feed the exported batch size instead."
)


@pytest.mark.parametrize(
    ("fields", "captures", "why"),
    [
        ({"cause": "Invalid parameter.", "fix": "Check API arguments."}, (), "code-table text only"),
        (
            {"cause": LONG_CAUSE, "fix": "Read the plog; check npu-smi info; match the driver version."},
            (("op", "Conv_1"),),
            "generic checklist",
        ),
        (
            {"cause": LONG_CAUSE.replace("{op}", "the node"), "fix": LONG_FIX},
            (("op", "Conv_1"), ("reason", "CUBLAS failure 7")),
            "an envelope",
        ),
        (
            {"cause": LONG_CAUSE.replace("{op}", "a float16 node"), "fix": LONG_FIX.replace("{op}", "it")},
            (("op", "Conv_1"), ("dtype", "float16")),
            "not named in the advice",
        ),
        (
            {"cause": LONG_CAUSE.replace("{op}", "the listed ops"), "fix": LONG_FIX.replace("{op}", "it")},
            (),
            "without capturing it",
        ),
    ],
)
def test_tightened_judge_rejects_what_the_loose_one_let_through(
    fields: dict[str, object], captures: tuple[tuple[str, str], ...], why: str
) -> None:
    m = Match(_entry(**fields), 50.0, "pattern", captures)
    assert specific_loose(m)[0]
    ok, reason = specific(m)
    assert not ok
    assert why in reason


def test_tightened_judge_rejects_one_case_of_a_code_found_by_the_code_alone() -> None:
    # A hand verdict of issue 23: an E89999 message about another failure answered by the entry for E89999's
    # dtype mismatch, whose cause then read "inputs of different dtypes (one and another)".
    fields = {"cause": LONG_CAUSE.replace("{op}", "{op|one node}"), "fix": LONG_FIX.replace("{op}", "it")}
    m = Match(_entry(**fields), 46.0, "code", ())
    assert specific_loose(m)[0]
    ok, reason = specific(m)
    assert not ok
    assert "found without its pattern" in reason
    # Its pattern matched: the parts are the message's own, and the same text is specific.
    assert specific(Match(_entry(**fields), 86.0, "code+pattern", (("op", "Conv_1"),)))[0]


def test_tightened_judge_keeps_a_specific_answer() -> None:
    m = Match(_entry(cause=LONG_CAUSE, fix=LONG_FIX), 50.0, "pattern", (("op", "Conv_1"),))
    assert "Conv_1" in m.cause and "Conv_1" in m.fix
    assert specific(m) == (True, "")


def test_hand_verdicts_are_dev_answers_and_say_why(kb: KnowledgeBase) -> None:
    """Every hand verdict names a dev record, its answer's entry (a card answered by a reason clause as
    ``<card>+<clause>``) and a reason; every role is present (tuning and validation draws, s30f's folded
    verdicts, s31b's judged quoting answers, s32b's answers naming a code table's row, s32h's answers drawn
    under leave-source-out, s35a's draw after its reason kinds and the quoting answers no verdict had judged,
    s35h's drawn under leave-source-out after its Core ML validator and DLA entries, s36o's drawn under
    leave-source-out after its onnxruntime provider clause and reason kinds, s36t's drawn under
    leave-source-out after its TensorRT library-status and onnx-optimizer entries, s37a's drawn
    under leave-source-out before and after its entries for nine families' frequent failures, s37c's two
    draws under leave-source-out of eight families' answers, before and after its ncnn and Model Optimizer
    entries).  A record is judged once per draw: the same record drawn before and after a change (or by two
    seeds) has one verdict in each."""
    rows = load(JUDGED)
    assert {r["role"] for r in rows} == JUDGED_ROLES
    assert len({(r["id"], r["draw"]) for r in rows}) == len(rows) >= 60
    by_id: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_id.setdefault(r["id"], []).append(r)
    entries = {e.id for e in kb.entries}
    for name in {i.split(":")[0] for i in by_id}:
        path = DATA.with_name(name)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for row in by_id.get(f"{name}:{n}", []):
                assert json.loads(line)["split"] == "dev"
                assert row["why"] and isinstance(row["specific"], bool)
                assert row["entry"].split("+")[0] in entries, row["entry"]


def test_draw_on_dev_prints_each_answer_with_its_advice(
    kb: KnowledgeBase, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [{**r, "id": f"messages.jsonl:{i}"} for i, r in enumerate(load(DATA), 1)]
    pool = right_tool_answers(kb, records, "dev")
    draw(kb, records, 5, 3, "dev")
    out = capsys.readouterr().out
    assert out.count("\n--- #") == 3
    assert f"3 of {len(pool)} dev right-tool answers" in out
    assert "WARNING" not in out
    draw(kb, records, 5, 3, "dev")
    assert capsys.readouterr().out == out  # the same seed draws the same answers


def test_draw_on_held_out_records_warns_they_are_then_seen(tmp_path: Path) -> None:
    """A synthetic file (no real held-out text): the warning comes before and after the answers."""
    url = next(f"https://example.org/t/{i}" for i in range(100) if _split(f"https://example.org/t/{i}"))
    record = {
        "message": "Load model from m.onnx failed:Protobuf parsing failed.",
        "family": "onnxruntime",
        "codes": [],
        "source": url,
        "split": "heldout",
    }
    data = tmp_path / "h.jsonl"
    data.write_text(json.dumps(record) + "\n", encoding="utf-8")
    done = _run("--draw", "1", "--data", str(data), "--drawn", str(tmp_path / "drawn.jsonl"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("WARNING: the 1 drawn heldout messages below are now seen") == 2
    assert "entry: onnxruntime-protobuf-parsing-failed" in done.stdout


def _held_out_file(path: Path, n: int) -> None:
    """``n`` synthetic held-out onnxruntime records (no real held-out text), each answered by its tool."""
    urls = [f"https://example.org/t/{i}" for i in range(200) if _split(f"https://example.org/t/{i}")]
    rows = [
        {
            "message": f"Load model from model_{i}.onnx failed:Protobuf parsing failed.",
            "family": "onnxruntime",
            "codes": [],
            "source": urls[i],
            "split": "heldout",
        }
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_a_held_out_draw_never_shows_a_message_an_earlier_draw_showed(tmp_path: Path) -> None:
    """Each held-out draw is added to the list of draws; the next draw sets its messages aside before it
    samples, and a seed already drawn is refused."""
    data, drawn = tmp_path / "h.jsonl", tmp_path / "drawn.jsonl"
    _held_out_file(data, 7)
    done = _run("--draw", "3", "--n", "4", "--data", str(data), "--drawn", str(drawn))
    assert done.returncode == 0, done.stderr
    first = load(drawn)
    assert [row["seed"] for row in first] == [3] and len(first[0]["drawn"]) == 4
    done = _run("--draw", "4", "--data", str(data), "--drawn", str(drawn))
    assert done.returncode == 0, done.stderr
    assert "seed 4: 3 of 3 heldout right-tool answers (4 record(s) shown by an earlier draw set aside)" in (
        done.stdout
    )
    second = load(drawn)
    assert second[0] == first[0] and second[1]["seed"] == 4
    ids = [[d["id"] for d in row["drawn"]] for row in second]
    assert len(ids[1]) == 3 and not set(ids[0]) & set(ids[1])
    assert sorted(ids[0] + ids[1]) == sorted(f"h.jsonl:{n}" for n in range(1, 8))
    done = _run("--draw", "5", "--data", str(data), "--drawn", str(drawn))
    assert "seed 5: 0 of 0 heldout right-tool answers" in done.stdout  # every message is seen
    assert load(drawn) == second  # a draw that showed nothing adds no row
    done = _run("--draw", "3", "--data", str(data), "--drawn", str(drawn))
    assert done.returncode != 0 and "seed 3 was drawn already" in done.stderr


def test_draw_sets_aside_the_messages_it_is_told_were_seen(
    kb: KnowledgeBase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process: the same text under another id is the same seen message."""
    from bench.eval_explain import message_hash

    _held_out_file(tmp_path / "h.jsonl", 6)
    records = [{**r, "id": f"h.jsonl:{i}"} for i, r in enumerate(load(tmp_path / "h.jsonl"), 1)]
    seen = frozenset(message_hash(r) for r in records[:4])
    for seed in range(20):
        shown = draw(kb, [*records, {**records[0], "id": "copy:1"}], seed, 10, "heldout", seen)
        assert sorted(r["id"] for r in shown) == ["h.jsonl:5", "h.jsonl:6"]
    capsys.readouterr()


def test_the_earlier_held_out_draws_are_listed_with_the_records_they_showed() -> None:
    """bench/drawn_heldout.jsonl holds issue 23's five draws, ten records each, every one a held-out record
    whose text hash is the one kept (compared, never printed)."""
    from bench.eval_explain import DRAWN, message_hash

    rows = load(DRAWN)
    assert {23, 2811, 20261128, 28112026, 29112026} <= {row["seed"] for row in rows}
    assert len({row["seed"] for row in rows}) == len(rows)
    files: dict[str, list[str]] = {}
    for row in rows:
        assert len(row["commit"]) == 40 and row["drawn"]
        for d in row["drawn"]:
            name, line = d["id"].split(":")
            lines = files.setdefault(name, (DATA.parent / name).read_text(encoding="utf-8").splitlines())
            record = json.loads(lines[int(line) - 1])
            same = message_hash(record) == d["message_sha1"]
            held_out = record["split"] == "heldout"
            assert same and held_out, d["id"]


def _split(url: str) -> bool:
    from bench.eval_explain import split_of

    return split_of(url) == "heldout"
