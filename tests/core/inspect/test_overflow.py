"""Opdebug overflow records (both layouts, wrapped and bare), linking, CLI, range checks."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.inspect import ranges
from dumpscope.core.names import display
from dumpscope.core.vendor import opdebug as ov
from dumpscope.tui.cli.main import main
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared Ascend samples not present")
UINT8, FLOAT16 = 4, 2


def legacy_payload(aicore: int = 0, dha: int = 0, l2: int = 0, task: int = 7, stream: int = 1) -> bytes:
    buf = bytearray(2048)
    for off in (0, 128, 256):
        struct.pack_into("<6Q", buf, off, 0, stream, task, 0, 0x1000, 0x2000)
    struct.pack_into("<Q", buf, 512, dha)
    struct.pack_into("<Q", buf, 768, l2)
    struct.pack_into("<3Q", buf, 1024, 0xABC, 3, aicore)
    return bytes(buf)


def new_payload(
    status: int | list[int], task: int = 9, stream: int = 1, acc: int = 0, ctx: int = 0, thread: int = 0
) -> bytes:
    words = status if isinstance(status, list) else [status]
    if acc in (0, 1):
        values = [0, stream, task, 0, ctx, thread, 0x1000, 0x2000, 5, 2, *words]
    elif acc == 2:  # AICPU
        values = [0, stream, task, 1, ctx, 3, thread, *words]
    else:  # SDMA
        values = [0, stream, task, 2, ctx, thread, 0x10, 0x20, 4, *words]
    version = 1 if len(words) == 4 else 0
    return struct.pack("<6I", ov.MAGIC, version, 1, acc, 0, 8 * len(values)) + struct.pack(
        f"<{len(values)}Q", *values
    )


def wrap(path: Path, payload: bytes) -> Path:
    """An Opdebug file as the device writes it: a dump whose output[0] is the record."""
    return aw.write_dump(path, "", [aw.RawTensor(np.frombuffer(payload, np.uint8), UINT8)])


def op_dump(path: Path, op: str, value: float = 1.0) -> Path:
    x = np.full(4, value, np.float16)
    return aw.write_dump(path, op, [aw.RawTensor(x * 2, FLOAT16)], inputs=[aw.RawTensor(x, FLOAT16)])


# --- equality with msaccucmp on the shared samples ---


@needs_samples
@pytest.mark.parametrize(
    "name", ["Opdebug.Node_OpDebug.7.1.1700000000000100", "Opdebug.Node_OpDebug.9.1.1700000000000300"]
)
def test_decoding_equals_msaccucmp_json(name: str) -> None:
    parsed, _ = ov.read_opdebug(SAMPLES / "opdebug_raw" / name)
    expected = json.loads((SAMPLES / "opdebug_parsed" / f"{name}.output.0.json").read_text())
    assert parsed == expected


def _parse_summary(text: str) -> list[dict[str, object]]:
    """msaccucmp's overflow_summary: one block per record, tensors with their stats."""
    blocks = []
    for block in re.split(r"=+\[\d+\]=+\n", text)[1:]:
        op = re.search(r"\[(\w+)\] (\S+)", block)
        head = re.search(r"\[([\w ]+)\]\[TaskId:(\d+)\]\[StreamId:(\d+)\]\[Status:(\d+)\]", block)
        tensors = re.findall(
            r"\.(input|output)\.(\d+)\.npy\n -\[Format: (\w+)\] \[Shape: \(([\d, ]*)\)\] \[Dtype: (\w+)\] "
            r"\[Max: ([-\d.e+]+)\] \[Min: ([-\d.e+]+)\] \[Mean: ([-\d.e+]+)\]",
            block,
        )
        assert op and head
        blocks.append({
            "op_type": op.group(1), "op_name": op.group(2), "unit": head.group(1),
            "task_id": int(head.group(2)), "stream_id": int(head.group(3)), "status": int(head.group(4)),
            "tensors": [
                (f"{r}.{i}", fmt, tuple(int(d) for d in shape.replace(" ", "").split(",") if d), dt,
                 float(mx), float(mn), float(mean))
                for r, i, fmt, shape, dt, mx, mn, mean in tensors
            ],
        })  # fmt: skip
    return blocks


def _as_printed(value: float | None, dtype: str | None) -> float:
    """msaccucmp prints stats as the tensor's own dtype would (fp16 65504 -> '6.55e+04')."""
    assert value is not None and dtype is not None
    return float(str(np.dtype(dtype).type(value)))


@needs_samples
def test_scan_equals_msaccucmp_overflow_summary() -> None:
    summary = next((SAMPLES / "opdebug_parsed").glob("overflow_summary_*.txt")).read_text()
    expected = _parse_summary(summary)
    report = ov.scan(SAMPLES / "opdebug_raw")
    assert report.files == 2 and not report.problems
    got = [
        {
            "op_type": r.op_type, "op_name": r.op_name, "unit": r.unit, "task_id": r.task_id,
            "stream_id": r.stream_id, "status": r.status,
            "tensors": [
                (t.name, t.format, t.shape, t.dtype,
                 *(_as_printed(v, t.dtype) for v in (t.max, t.min, t.mean)))
                for t in r.tensors
            ],
        }
        for r in report.records
    ]  # fmt: skip
    assert got == expected
    assert [b.mask for b in report.records[1].bits] == [0x20, 0x100]


@needs_samples
def test_msaccucmp_json_gives_the_same_records_as_the_raw_files() -> None:
    raw = ov.scan(SAMPLES / "opdebug_raw", with_stats=False).records
    parsed = ov.scan(SAMPLES / "opdebug_parsed", with_stats=False).records
    key = [(r.unit, r.task_id, r.stream_id, r.status, r.bits, r.timestamp) for r in raw]
    assert key == [(r.unit, r.task_id, r.stream_id, r.status, r.bits, r.timestamp) for r in parsed]
    assert {r.layout for r in parsed} == {"msaccucmp-json"}


@needs_samples
def test_a_parsed_json_next_to_its_raw_file_is_not_counted_twice(tmp_path: Path) -> None:
    for f in (SAMPLES / "opdebug_raw").iterdir():
        shutil.copy(f, tmp_path / f.name)
    for f in (SAMPLES / "opdebug_parsed").glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    report = ov.scan(tmp_path)
    assert report.files == 2 and {r.layout for r in report.records} == {"legacy-2048", "magic-0x5a5a5a5a"}


# --- decoding ---


def test_every_documented_bit_and_reserved_bits_are_decoded() -> None:
    documented = sum(ov.AICORE_BITS)
    bits = ov.decode_status("AI Core", documented | 0x2 | (1 << 62))
    by_mask = {b.mask: b.meaning for b in bits}
    assert set(by_mask) == set(ov.AICORE_BITS) | {0x2, 1 << 62}
    assert by_mask[0x2] == "reserved bit 1" and by_mask[1 << 62] == "reserved bit 62"
    assert by_mask[0x100].startswith("FP32/INT32 -> FP16")
    assert [b.mask for b in ov.decode_status("AIV", 272)] == [0x10, 0x100]
    assert ov.decode_status("AIC", 0) == ()


def test_legacy_atomic_add_statuses_become_their_own_records(tmp_path: Path) -> None:
    p = wrap(tmp_path / "Opdebug.Node_OpDebug.2.1.1700000000000100", legacy_payload(dha=0xB, l2=3))
    recs = ov.scan(p).records
    assert [(r.unit, r.status, r.bits[0].meaning) for r in recs] == [
        ("DHA", 0xB, "atomic add source operand is NaN"),
        ("L2", 3, "atomic add source operand is NaN"),
    ]
    unknown = ov.decode_status("DHA", 0x3)
    assert "undocumented code 0x3" in unknown[0].meaning


def test_bare_payloads_are_read_as_well_as_wrapped_ones(tmp_path: Path) -> None:
    (tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000001").write_bytes(legacy_payload(aicore=0x400))
    (tmp_path / "Opdebug.Node_OpDebug.2.1.1700000000000002").write_bytes(new_payload(0x20))
    report = ov.scan(tmp_path)
    assert [(r.layout, r.unit, r.status) for r in report.records] == [
        ("legacy-2048", "AI Core", 0x400),
        ("magic-0x5a5a5a5a", "AIC", 0x20),
    ]


def test_new_layout_units_and_version_1_status_words(tmp_path: Path) -> None:
    cases = {
        "AIV": new_payload(0x4000, acc=1),
        "AICPU": new_payload(1, acc=2),
        "SDMA": new_payload(6, acc=3),
        "AIC": new_payload([0x20, 0, 0x8, 0], acc=0),
    }
    for i, (_unit, payload) in enumerate(cases.items()):
        wrap(tmp_path / f"Opdebug.Node_OpDebug.{i}.1.170000000000000{i}", payload)
    recs = {r.unit: r for r in ov.scan(tmp_path).records}
    assert set(recs) == set(cases)
    assert recs["AIV"].bits[0].meaning == "NaN/Inf input to a vector instruction"
    assert "not documented" in recs["SDMA"].bits[0].meaning
    assert recs["SDMA"].fields["src_addr"] == "0x10"
    assert [b.mask for b in recs["AIC"].bits] == [0x20, 0x8]
    assert recs["AIC"].fields["status"] == [0x20, 0, 0x8, 0]


def test_zero_status_and_invalid_entries_give_no_record(tmp_path: Path) -> None:
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000001", legacy_payload())
    report = ov.scan(tmp_path)
    assert report.files == 1 and report.records == []


@pytest.mark.parametrize(
    "payload",
    [b"\x00" * 100, new_payload(0x20)[:40], struct.pack("<6I", ov.MAGIC, 0, 1, 9, 0, 8)],
    ids=["wrong-size", "truncated-new", "unknown-acc-type"],
)
def test_broken_records_are_problems_and_the_rest_goes_on(tmp_path: Path, payload: bytes) -> None:
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000001", payload)
    wrap(tmp_path / "Opdebug.Node_OpDebug.2.1.1700000000000002", new_payload(0x20))
    report = ov.scan(tmp_path)
    assert len(report.problems) == 1 and "Node_OpDebug.1." in report.problems[0][0]
    assert [r.status for r in report.records] == [0x20]


# --- linking ---


def test_link_uses_the_record_task_and_stream_not_the_file_name(tmp_path: Path) -> None:
    op_dump(tmp_path / "Mul.right.7.1.1700000000000050", "right")
    op_dump(tmp_path / "Mul.other_stream.7.2.1700000000000060", "other_stream")
    op_dump(tmp_path / "Add.opdebug_task.99.1.1700000000000070", "opdebug_task")
    wrap(
        tmp_path / "Opdebug.Node_OpDebug.99.1.1700000000000100", legacy_payload(aicore=0x20, task=7, stream=1)
    )
    (rec,) = ov.scan(tmp_path).records
    assert rec.op_name == "right" and rec.op_type == "Mul"
    assert [t.name for t in rec.tensors] == ["input.0", "output.0"]
    assert rec.tensors[1].max == 2.0 and rec.tensors[1].shape == (4,)


def test_link_picks_the_latest_execution_before_the_record(tmp_path: Path) -> None:
    op_dump(tmp_path / "Mul.loop.7.1.1700000000000010", "loop", 1.0)
    op_dump(tmp_path / "Mul.loop.7.1.1700000000000090", "loop", 3.0)
    op_dump(tmp_path / "Mul.loop.7.1.1700000000000200", "loop", 5.0)
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000100", legacy_payload(aicore=0x20))
    (rec,) = ov.scan(tmp_path).records
    assert rec.op_file and rec.op_file.endswith("1700000000000090")
    assert rec.link_note and "2 executions" in rec.link_note


def test_link_matches_ffts_context_and_thread(tmp_path: Path) -> None:
    op_dump(tmp_path / "MatMul.mm.1.9.1700000000000050.4.0.0.0", "mm_ctx0")
    op_dump(tmp_path / "MatMul.mm.1.9.1700000000000051.4.3.1.0", "mm_ctx3")
    wrap(
        tmp_path / "Opdebug.Node_OpDebug.5.1.1700000000000100",
        new_payload(0x20, task=9, stream=1, ctx=3, thread=1),
    )
    (rec,) = ov.scan(tmp_path).records
    assert rec.op_name == "mm_ctx3"


def test_unlinked_record_says_why(tmp_path: Path) -> None:
    wrap(tmp_path / "Opdebug.Node_OpDebug.5.1.1700000000000100", new_payload(0x20, task=42, stream=3))
    (rec,) = ov.scan(tmp_path).records
    assert rec.op_name is None and "task_id 42 on stream 3" in (rec.link_note or "")


def test_broken_op_dump_gives_a_stats_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "Mul.bad.7.1.1700000000000050").write_bytes(b"\x05" * 20)
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000100", legacy_payload(aicore=0x20))
    (rec,) = ov.scan(tmp_path).records
    assert rec.op_type == "Mul" and rec.tensors[0].error


# --- CLI ---


def test_cli_json_lists_the_documented_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    op_dump(tmp_path / "Mul.m.7.1.1700000000000050", "m")
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000100", legacy_payload(aicore=0x120))
    assert main(["overflow", str(tmp_path), "--json"]) == 1
    (rec,) = json.loads(capsys.readouterr().out)
    required = {
        "file",
        "layout",
        "unit",
        "task_id",
        "stream_id",
        "status",
        "bits",
        "op_name",
        "op_type",
        "op_file",
    }
    assert required <= set(rec)
    assert rec["bits"] == [
        {"mask": 0x20, "meaning": ov.AICORE_BITS[0x20]},
        {"mask": 0x100, "meaning": ov.AICORE_BITS[0x100]},
    ]
    assert rec["op_name"] == "m" and rec["tensors"][0]["shape"] == [4]


def test_cli_text_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrap(tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000100", legacy_payload())
    assert main(["overflow", str(tmp_path)]) == 0
    assert "OK: no overflow" in capsys.readouterr().out
    wrap(tmp_path / "Opdebug.Node_OpDebug.2.1.1700000000000200", legacy_payload(aicore=0x8))
    assert main(["overflow", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "signed integer NEG overflow" in out and "op not found" in out
    assert main(["overflow", str(tmp_path), "--json", "-n", "1"]) == 1
    assert len(json.loads(capsys.readouterr().out)) == 1
    assert main(["overflow", str(tmp_path), "--top", "0"]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["overflow", str(empty)]) == 2
    assert main(["overflow", str(tmp_path / "missing")]) == 2


# --- range checks ---


def test_fp16_range_counts_the_saturation_value_and_non_finite() -> None:
    x = np.array([0.0, 65504.0, -70000.0, 65000.0, np.nan, np.inf, 1e-9], np.float32)
    f = ranges.range_check(x, "float16")
    assert (f.out_of_range, f.nan, f.inf, f.underflow, f.first_index) == (2, 1, 1, 1, 1)
    assert f.flagged and "2 of 7 values" in f.message and "1 NaN" in f.message
    assert not ranges.range_check(np.array([65000.0, -1.0]), "float16").flagged


def test_bf16_and_fp8_ranges() -> None:
    assert not ranges.range_check(np.array([1e38], np.float64), "bfloat16").flagged
    assert ranges.range_check(np.array([1e39], np.float64), "bfloat16").flagged
    assert ranges.range_check(np.array([448.0]), "float8_e4m3fn").flagged
    big = float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)
    assert ranges.dtype_range("bfloat16")[1] == big


def test_int8_with_scale_and_zero_point() -> None:
    low, high, _ = ranges.dtype_range("int8", scale=0.1, zero_point=-28)
    assert (low, high) == pytest.approx((-10.0, 15.5))
    f = ranges.range_check(np.array([0.0, 15.5, -12.0, 3.0], np.float32), "int8", scale=0.1, zero_point=-28)
    assert f.out_of_range == 2 and f.first_index == 1
    assert ranges.range_check(np.array([127], np.int32), "int8").flagged
    assert not ranges.range_check(np.array([126, -127], np.int32), "int8").flagged


def test_range_check_streams_over_chunks() -> None:
    x = np.zeros(3 * (1 << 20) + 5, np.float16)
    x[-1] = np.inf
    x[(1 << 20) + 3] = 65504
    f = ranges.range_check(x, "float16")
    assert (f.out_of_range, f.inf, f.first_index) == (1, 1, (1 << 20) + 3)


def test_range_check_rejects_what_it_cannot_judge() -> None:
    with pytest.raises(ValueError, match="unknown target dtype"):
        ranges.range_check(np.zeros(2), "float99")
    with pytest.raises(ValueError, match="complex"):
        ranges.range_check(np.zeros(2, np.complex64), "float16")
    with pytest.raises(ValueError, match="scale"):
        ranges.range_check(np.zeros(2), "int8", scale=0.0)


def test_cli_handles_undecodable_names_and_unreadable_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "dump\udcff"
    odd.mkdir()
    op_dump(odd / "Mul.m\udcfe.7.1.1700000000000050", "m\udcfe")
    wrap(odd / "Opdebug.Node_OpDebug.1.1.1700000000000100", legacy_payload(aicore=0x20))
    assert main(["overflow", str(odd), "--json"]) == 1
    (rec,) = json.loads(capsys.readouterr().out)
    assert rec["op_name"] == display("m\udcfe") and display("dump\udcff") in rec["file"]
    assert main(["overflow", str(odd)]) == 1
    single = tmp_path / "Opdebug.Node_OpDebug.3.1.1700000000000300"
    single.write_bytes(b"\x00" * 10)
    assert main(["overflow", str(single)]) == 2
    assert "no readable overflow record" in capsys.readouterr().err


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200), magic=st.booleans())
def test_arbitrary_payloads_decode_or_raise_opdebug_error(data: bytes, magic: bool) -> None:
    payload = (struct.pack("<I", ov.MAGIC) + data) if magic else data
    try:
        parsed = ov.parse_payload(payload)
    except ov.OpdebugError:
        return
    ov.records_from_parsed(parsed, "f", "x", None)


@needs_samples
def test_raw_and_parsed_json_in_sibling_folders_count_each_event_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`overflow .` over a folder holding both the raw Opdebug files and msaccucmp's parsed JSON
    (in its own -out folder) counts each event once, preferring the raw record."""
    shutil.copytree(SAMPLES / "opdebug_raw", tmp_path / "raw")
    shutil.copytree(SAMPLES / "opdebug_parsed", tmp_path / "parsed")
    raw = ov.scan(tmp_path / "raw", with_stats=False)
    both = ov.scan(tmp_path, with_stats=False)
    assert len(both.records) == len(raw.records) and both.duplicates == len(raw.records)
    assert {r.layout for r in both.records} == {r.layout for r in raw.records}
    assert main(["overflow", str(tmp_path), "--no-stats"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL: {len(raw.records)} overflow record(s)" in out and "counted once" in out


def test_dedupe_keeps_distinct_events_and_records_without_time() -> None:
    base = ov.OverflowRecord("f", "legacy-2048", "AI Core", 1, 2, 0x20, (), timestamp=5)
    json_copy = ov.OverflowRecord("f.json", "msaccucmp-json", "AI Core", 1, 2, 0x20, (), timestamp=5)
    other = ov.OverflowRecord("g", "legacy-2048", "AI Core", 1, 2, 0x20, (), timestamp=6)
    untimed = ov.OverflowRecord("h", "legacy-2048", "AI Core", 1, 2, 0x20, ())
    records, dropped = ov.dedupe([json_copy, base, other, untimed, untimed])
    assert dropped == 1 and base in records and json_copy not in records and other in records
    assert records.count(untimed) == 2
