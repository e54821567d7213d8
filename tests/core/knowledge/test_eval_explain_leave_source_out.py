"""bench/eval_explain.py --leave-source-out: each dev message ranked without the entries written from its own
thread (a tiny KB and synthetic records here; no held-out text is read)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.eval_explain import (
    ROOT,
    evaluate,
    leave_source_out,
    leave_source_out_scan,
    markers_hidden,
    single_thread_markers,
    source_masks,
    split_of,
    thread_refs,
    written_from,
)
from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.markers import MARKERS

SCRIPT = ROOT / "bench" / "eval_explain.py"
THREAD = "https://github.com/microsoft/onnxruntime/issues/101"
OTHER = "https://github.com/microsoft/onnxruntime/issues/202"


def _entry(id: str, family: str, pattern: str, source: str) -> Entry:
    return Entry(
        id=id, tool=family, stage="run", cause="c", fix="f", source=source, family=family, pattern=pattern
    )


def _kb() -> KnowledgeBase:
    return KnowledgeBase(
        [
            _entry(
                "ort-widget", "onnxruntime", r"Widget \w+ failed", "dev message microsoft/onnxruntime#7, #101"
            ),
            _entry("trt-failed", "tensorrt", r"failed", "TensorRT developer guide"),
        ]
    )


def test_thread_refs_reads_the_forms_sources_use() -> None:
    assert thread_refs("dev messages onnx/tutorials#139, onnxruntime#775, #2170") == {
        ("onnx", "tutorials", "139"),
        ("", "onnxruntime", "775"),
        ("", "onnxruntime", "2170"),
    }
    assert thread_refs("PaddlePaddle/Paddle2ONNX issue 1299") == {("paddlepaddle", "paddle2onnx", "1299")}
    assert thread_refs("https://github.com/a/b/issues/12") == {("a", "b", "12")}
    assert thread_refs("onnx/onnx:onnx/checker.cc; rknn_api.h (RKNN_ERR_FAIL -1)") == set()


def test_written_from_needs_the_same_repository_number_and_owner_where_named() -> None:
    refs = thread_refs("microsoft/onnxruntime#8093, #27504; TensorRT#3953")
    assert written_from(refs, "https://github.com/microsoft/onnxruntime/issues/27504")
    assert not written_from(refs, "https://github.com/someone/onnxruntime/issues/27504")
    assert written_from(refs, "https://github.com/NVIDIA/TensorRT/issues/3953")
    assert not written_from(refs, "https://github.com/NVIDIA/TensorRT/issues/395")
    assert not written_from(refs, "https://example.com/thread/3953")


def test_without_hides_entries_from_a_view_only() -> None:
    kb = _kb()
    message = "Widget Conv_3 failed"
    assert [m.entry.id for m in kb.lookup(message)] == ["ort-widget", "trt-failed"]
    view = kb.without({0})
    assert [m.entry.id for m in view.lookup(message)] == ["trt-failed"]
    assert [m.entry.id for m in kb.lookup(message)] == ["ort-widget", "trt-failed"]
    assert len(view) == len(kb)


def test_source_masks_and_the_mode_rank_a_message_without_its_own_threads_entries() -> None:
    kb = _kb()
    records = [
        {"message": "Widget Conv_3 failed", "family": "onnxruntime", "source": THREAD, "split": "dev"},
        {"message": "Widget Relu_1 failed", "family": "onnxruntime", "source": OTHER, "split": "dev"},
        {"message": "Widget Add failed", "family": "onnxruntime", "source": THREAD, "split": "heldout"},
    ]
    assert source_masks(kb, records) == {THREAD: frozenset({0}), OTHER: frozenset()}
    normal = evaluate(kb, records, misses=False)
    assert normal[("dev", "onnxruntime")][:2] == [2, 2]
    out = leave_source_out(kb, records, misses=False)
    assert out[("dev", "onnxruntime")][:2] == [2, 1]  # its own thread's entry hidden: TensorRT's answers
    assert not any(split == "heldout" for split, _ in out)


def test_the_scan_mode_buries_each_message_without_its_own_threads_entries() -> None:
    kb = KnowledgeBase(
        [_entry("ort-widget", "onnxruntime", r"Widget \w+ failed", "dev message microsoft/onnxruntime#101")]
    )
    records = [
        {"message": "Widget Conv_3 failed", "family": "onnxruntime", "source": THREAD, "split": "dev"},
        {"message": "Widget Relu_1 failed", "family": "onnxruntime", "source": OTHER, "split": "dev"},
        {"message": "Widget Add failed", "family": "onnxruntime", "source": THREAD, "split": "heldout"},
    ]
    assert leave_source_out_scan(kb, [r for r in records if r["source"] == OTHER], misses=False) == (
        1,
        1,
        0,
        0,
    )
    # the first thread's message is scanned without the entry written from it; the held-out one is not scanned
    assert leave_source_out_scan(kb, records, misses=False) == (1, 2, 0, 0)


def test_the_command_line_mode_on_a_file(tmp_path: Path) -> None:
    url = next(u for n in range(100) if split_of(u := f"https://github.com/x/y/issues/{n}") == "dev")
    data = tmp_path / "part.jsonl"
    record = {"message": "[ONNXRuntimeError] : 1 : FAIL : x", "family": "onnxruntime", "codes": []}
    data.write_text(json.dumps({**record, "source": url, "split": "dev"}) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--leave-source-out", "--data", str(data)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "leave-source-out: 0 of 1 dev messages have entries citing their thread" in done.stdout
    assert "and markers no other dev thread holds:" in done.stdout
    assert "ALL claimed                1/1" in done.stdout
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--leave-source-out", "--scan", "--data", str(data)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "part.jsonl         log scan found   1/1" in done.stdout
    assert "noise lines reported: " in done.stdout


def test_markers_of_one_dev_thread_only_are_hidden_for_that_thread() -> None:
    records = [
        {"message": "E RKNN: failed", "family": "rknn", "source": THREAD, "split": "dev"},
        {"message": "E RKNN: also failed", "family": "rknn", "source": OTHER, "split": "dev"},
        {"message": "rknn_init failed", "family": "rknn", "source": OTHER, "split": "dev"},
        {"message": "rknn_query failed", "family": "rknn", "source": "https://x/held", "split": "heldout"},
    ]
    markers = single_thread_markers(records)
    assert ("rknn", "e rknn:") not in markers.get(THREAD, set())  # two dev threads hold it
    assert ("rknn", "rknn_") in markers[OTHER]  # only OTHER's messages hold it (held-out ones are not read)
    assert set(markers) == {OTHER}


def test_markers_hidden_puts_the_table_back() -> None:
    before = dict(MARKERS)
    assert detect_families("rknn_init failed") == ["rknn"]
    with markers_hidden(frozenset({("rknn", "rknn_"), ("rknn", "rknn")})):
        assert detect_families("rknn_init failed") == []
    assert MARKERS == before
    try:
        with markers_hidden(frozenset({("rknn", "rknn_")})):
            raise KeyError("boom")
    except KeyError:
        pass
    assert MARKERS == before


def test_leave_source_out_specific_judges_the_answer_a_message_gets_without_its_own_threads_entries() -> None:
    """The specific entry written from THREAD answers OTHER's message; THREAD's own message, ranked without
    it, gets TensorRT's entry (the wrong tool: not counted)."""
    from bench.eval_explain import leave_source_out_specific

    long = "Widget {op} could not be placed because the widget pool has no slot of that size left for it."
    fix = "Give widget {op} a smaller size or free a slot by dropping another widget before it runs again."
    kb = KnowledgeBase(
        [
            Entry(
                id="ort-widget",
                tool="onnxruntime",
                stage="run",
                cause=long,
                fix=fix,
                source="dev message microsoft/onnxruntime#101",
                family="onnxruntime",
                pattern=r"Widget (?P<op>\w+) failed",
            ),
            _entry("trt-failed", "tensorrt", r"failed", "TensorRT developer guide"),
        ]
    )
    records = [
        {"message": "Widget Conv_3 failed", "family": "onnxruntime", "source": THREAD, "split": "dev"},
        {"message": "Widget Relu_1 failed", "family": "onnxruntime", "source": OTHER, "split": "dev"},
        {"message": "Widget Add failed", "family": "onnxruntime", "source": OTHER, "split": "heldout"},
    ]
    assert leave_source_out_specific(kb, records, misses=True) == (1, 1)


def test_leave_source_out_specific_prints_each_familys_share(capsys: pytest.CaptureFixture[str]) -> None:
    """The total is also given per family (right-tool answers judged specific / right-tool answers)."""
    from bench.eval_explain import leave_source_out_specific

    cause = "Gadget {op} ran out of the gadget queue's slots while the scheduler still had work queued."
    kb = KnowledgeBase(
        [
            Entry(
                id="ort-gadget",
                tool="onnxruntime",
                stage="run",
                cause=cause,
                fix="Shorten the queue in front of gadget {op} or raise its slot count before running again.",
                source="onnxruntime docs",
                family="onnxruntime",
                pattern=r"Gadget (?P<op>\w+) stuck",
            ),
            _entry("trt-stuck", "tensorrt", r"Sprocket stuck", "TensorRT developer guide"),
        ]
    )
    records = [
        {"message": "Gadget Mul_2 stuck", "family": "onnxruntime", "source": OTHER, "split": "dev"},
        {"message": "Sprocket stuck", "family": "tensorrt", "source": THREAD, "split": "dev"},
    ]
    assert leave_source_out_specific(kb, records, misses=False) == (2, 1)
    assert "per family: onnxruntime 1/1, tensorrt 0/1" in capsys.readouterr().out
