"""Issue 21, the readers: msprobe and torch ``.pt`` inputs confined to the dump, bounded, one row per problem.

Built from the corpus's own builders (:mod:`.corpus`); the CLI runs of the same cases (RSS,
outside reads, hangs) are ``python -m tests.fuzz.run --only msprobe``.
"""

from __future__ import annotations

import io
import json
import math
import os
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.msprobe.driver import compare_msprobe
from dumpscope.core.dumps import TensorReadError
from dumpscope.core.formats import msprobe
from dumpscope.core.formats.safe_fs import JsonStream, JsonTooDeep, StringSpan
from dumpscope.core.formats.torch_pt import load_pt
from dumpscope.tui.cli.main import main
from dumpscope.tui.cli.runs import msprobe_json, msprobe_json_text
from tests.support.as_user import as_other_user, open_to_all, shared_folder

from . import corpus
from .corpus import _MS_UNREADABLE, MS_GOOD, good_array


def _frame_rows(report) -> dict[str, dict[str, object]]:  # type: ignore[no-untyped-def]
    return {
        row["NPU Name"]: row
        for r in report.results
        if r.frame is not None
        for row in r.frame.iter_rows(named=True)
    }


def _tensor_report(case, tmp_path: Path):  # type: ignore[no-untyped-def]
    golden, target = case(tmp_path)
    return compare_msprobe(target, golden, tensors=True)


def _good_rows_compared(rows: dict[str, dict[str, object]]) -> None:
    for name in MS_GOOD:
        assert rows[name]["Result"] == "pass" and rows[name]["cosine_similarity"] == pytest.approx(1.0), name


def test_unreadable_tensor_files_are_error_rows_that_say_why(tmp_path: Path) -> None:
    rows = _frame_rows(_tensor_report(corpus._ms_case(_MS_UNREADABLE, corpus._ms_unreadable), tmp_path))
    _good_rows_compared(rows)
    expected = {
        "missing": "No such file",
        "trunc": "trunc.npy: truncated",
        "folder": "not a regular file",
        "text": "text.npy: not an .npy file",
        "fifo": "a FIFO",
        "badpt": "not a readable .pt zip",
        "other": "neither .npy nor .pt",
    }
    for k, api in enumerate(_MS_UNREADABLE):
        row = rows[f"Functional.{api}.{k}.forward.input.0"]
        assert row["Result"] == "error" and row["cosine_similarity"] is None, api
        assert row["Err_message"].startswith("NPU tensor not read: "), row["Err_message"]
        assert expected[api] in row["Err_message"], row["Err_message"]


def test_data_names_leading_out_are_refused_on_their_rows(tmp_path: Path) -> None:
    bad = {
        "abs": "{outside}/secret.npy",
        "up": "../../../../outside/secret.npy",
        "link": "link.npy",
        "sub": "leak/secret.npy",
        "nul": "a\0.npy",
        "etc": "/etc/passwd",
    }
    report = _tensor_report(corpus._ms_case(bad, corpus._ms_outside_links), tmp_path)
    rows = _frame_rows(report)
    _good_rows_compared(rows)
    reasons = {
        "abs": "absolute path",
        "up": "leads outside",
        "link": "symbolic link leading outside",
        "sub": "symbolic link leading outside",
        "nul": "NUL byte",
        "etc": "absolute path",
    }
    for k, api in enumerate(bad):
        row = rows[f"Functional.{api}.{k}.forward.input.0"]
        assert row["Result"] == "error" and reasons[api] in row["Err_message"], row["Err_message"]
        assert row["cosine_similarity"] is None  # the outside file (1234.5 everywhere) never compared


def test_a_fifo_data_name_through_the_python_api_is_a_row_not_a_hang(tmp_path: Path) -> None:
    _golden, target = corpus._ms_case({"fifo": "pipe.npy"}, corpus._ms_unreadable)(tmp_path)
    dump = msprobe.open(target)
    ref = next(r for r in dump if r.name == "Functional.fifo.0.forward.input.0")
    outcome: list[object] = []
    worker = threading.Thread(target=lambda: outcome.append(_load(ref)), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():  # unblock the reader before failing
        pipe = target / "step0" / "rank0" / "dump_tensor_data" / "pipe.npy"
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
    assert not worker.is_alive() and "a FIFO" in str(outcome[0])
    good = next(r for r in dump if r.name == MS_GOOD[0]).load()
    np.testing.assert_array_equal(good, good_array(MS_GOOD[0].removesuffix(".input.0")))


def _load(ref) -> object:  # type: ignore[no-untyped-def]
    try:
        return ref.load()
    except TensorReadError as exc:
        return exc


def test_rank_folders_and_dump_json_linking_out_are_results_of_their_own(tmp_path: Path) -> None:
    golden, target = corpus._ms_case(None, corpus._ms_links_out)(tmp_path)
    report = compare_msprobe(target, golden)
    by_label = {r.label: r for r in report.results}
    assert "symbolic link" in by_label["step0/rank1"].error and by_label["step0/rank1"].frame is None
    assert "leading outside" in by_label["step0/rank2"].error
    good = by_label["step0/rank0"]
    assert good.error is None and set(MS_GOOD) <= set(good.frame["NPU Name"].to_list())
    assert any("construct.json" in p.path and "outside" in p.message for p in good.problems)
    dump = msprobe.open(target)  # the Python API: the one readable rank, the others as problems
    assert {r.name for r in dump} >= set(MS_GOOD) and any("rank2" in p.path for p in dump.problems)


def test_looping_step_links_cost_their_own_rows(tmp_path: Path) -> None:
    golden, target = corpus._ms_case(None, corpus._ms_step_loop)(tmp_path)
    report = compare_msprobe(target, golden)
    labels = {r.label: r.error for r in report.results}
    assert labels["step0/rank0"] is None
    assert {k for k, v in labels.items() if v and "symbolic link" in v} == {"step1/*", "step2/*", "step3/*"}
    assert [r.label for r in compare_msprobe(target, golden, steps=[0]).results] == ["step0/rank0"]


def test_unreadable_step_and_rank_folders_cost_their_own_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Permissions as a non-root user sees them (EACCES), whoever runs the tests."""
    golden, target = corpus._ms_case()(tmp_path)
    corpus.ms_rank(target / "step0" / "rank1")
    corpus.ms_rank(golden / "step0" / "rank1")
    corpus.ms_rank(target / "step1" / "rank0")
    locked = {str(target / "step0" / "rank1" / "dump.json"), str(target / "step1")}
    real_lstat, real_scandir = os.lstat, os.scandir

    def lstat(path, *a, **k):  # type: ignore[no-untyped-def]
        if str(path) in locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_lstat(path, *a, **k)

    def scandir(path=".", *a, **k):  # type: ignore[no-untyped-def]
        if str(path) in locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path, *a, **k)

    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(os, "scandir", scandir)
    results = {r.label: r.error for r in compare_msprobe(target, golden).results}
    assert results["step0/rank0"] is None
    assert "Permission denied" in results["step0/rank1"]
    assert "cannot list the folder: Permission denied" in results["step1/*"]


def _errors_by_label(target: Path, golden: Path) -> dict[str, str | None]:
    return {r.label: r.error for r in compare_msprobe(target, golden).results}


def test_unreadable_step_and_rank_folders_cost_their_own_rows_for_a_normal_user() -> None:
    """The same, with real permissions: run as ``nobody`` when the tests run as root."""
    for top in shared_folder():
        golden, target = corpus._ms_case()(top)
        corpus.ms_rank(target / "step0" / "rank1")
        corpus.ms_rank(golden / "step0" / "rank1")
        corpus.ms_rank(target / "step1" / "rank0")
        open_to_all(top)
        (target / "step0" / "rank1" / "dump.json").chmod(0)
        (target / "step1").chmod(0)
        ran = as_other_user(_errors_by_label, target, golden)
        assert ran.code == 0, ran
        assert ran.value["step0/rank0"] is None
        assert "Permission denied" in ran.value["step0/rank1"]
        assert "cannot list the folder: Permission denied" in ran.value["step1/*"]


def test_deep_and_cut_short_json_cost_one_row_each(tmp_path: Path) -> None:
    _g, target = corpus._ms_case({"deep": "deep.npy"}, corpus._ms_deep)(tmp_path / "deep")
    rank = msprobe.read_rank(target / "step0" / "rank0")
    assert set(MS_GOOD) <= {r.name for e in rank.entries.values() for r in e.records}
    problems = {Path(p.path.split(":")[0]).name + ":" + p.message for p in rank.problems}
    assert any("nested too deeply" in p and p.startswith("dump.json") for p in problems), problems
    assert any(p.startswith("construct.json") and "too deeply" in p for p in problems), problems
    assert any(p.startswith("stack.json") for p in problems), problems
    _g, cut = corpus._ms_case({"cut": "cut.npy"}, corpus._ms_cut_short)(tmp_path / "cut")
    rank = msprobe.read_rank(cut / "step0" / "rank0")
    assert len(rank.entries) == 3 and "the rest of the file is not read" in rank.problems[-1].message


def test_msprobe_json_with_problem_rows_is_written_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, target = corpus._ms_case(None, corpus._ms_links_out)(tmp_path)
    assert main(["compare", str(golden), str(target), "--format", "json"]) == 1
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert "internal error" not in captured.err
    assert any("construct.json" in p for r in out["results"] for p in r["problems"])
    report = compare_msprobe(target, golden)
    for rows in (True, False):  # the streamed text is json.dumps(indent=1) of the whole object, byte for byte
        whole = json.dumps(msprobe_json(report, rows), indent=1) + "\n"
        assert "".join(msprobe_json_text(report, rows)) == whole


@pytest.mark.parametrize(
    "kind, reason", [("fifo", "a FIFO"), ("deep", "nested too deeply"), ("bad", "not a mapping YAML")]
)
def test_a_hostile_mapping_is_one_line(tmp_path: Path, kind: str, reason: str) -> None:
    from .run import _msprobe_mapping

    argv = _msprobe_mapping(kind)(tmp_path)
    golden, target, mapping = argv[1], argv[2], argv[4]
    with pytest.raises(ValueError, match=reason):
        compare_msprobe(target, golden, mapping_path=mapping)


# ----------------------------------------------------------------- .pt


@pytest.mark.parametrize(
    "make, reason",
    [
        (corpus._pt_zip_bomb, "more than the 24 it may hold; not inflated"),
        (corpus._pt_zip_bomb_lying, "Bad CRC-32"),  # zipfile itself stops at the 24 bytes claimed
        (corpus._pt_pickle_bomb, "more than the 1048576 it may hold"),
        (corpus._pt_stride0, "400000000 elements over a storage of 1"),
        (corpus._pt_odd, "reaches element 5 of a 4-element storage"),
        (corpus._pt_corrupt, "not a readable .pt zip"),
    ],
)
def test_hostile_pt_files_are_refused_with_a_reason(tmp_path: Path, make: object, reason: str) -> None:
    make(tmp_path / "bad.pt")  # type: ignore[operator]
    with pytest.raises(TensorReadError, match=reason.replace(".", r"\.")):
        load_pt(tmp_path / "bad.pt")


def test_a_well_formed_hand_written_pt_reads_back(tmp_path: Path) -> None:
    data = np.arange(12, dtype=np.float32)
    got = load_pt(corpus.pt_zip(tmp_path / "t.pt", corpus.pt_pickle((3, 2), (1, 3), 12), data.tobytes()))
    np.testing.assert_array_equal(got, data[:6].reshape(2, 3).T)
    small = load_pt(corpus.pt_zip(tmp_path / "b.pt", corpus.pt_pickle((4, 3), (0, 1), 3), data[:3].tobytes()))
    np.testing.assert_array_equal(small, np.broadcast_to(data[:3], (4, 3)))  # a small broadcast is kept


# ----------------------------------------------------------------- JsonStream


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def _members(text: str, chunk: int) -> list[tuple[str, object]]:
    stream = JsonStream(io.StringIO(text), chunk=chunk)
    stream.begin_object()
    return [(key, stream.value()) for key in stream.members()]


@settings(max_examples=200, deadline=None)
@given(
    obj=st.dictionaries(st.text(max_size=6), _JSON, max_size=6),
    chunk=st.integers(1, 9),
    indent=st.sampled_from([None, 1]),
)
def test_json_stream_reads_what_json_loads_reads(
    obj: dict[str, object], chunk: int, indent: int | None
) -> None:
    text = json.dumps(obj, indent=indent)
    assert dict(_members(text, chunk)) == json.loads(text)


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_json_stream_skips_a_too_deep_value_whole_and_goes_on(chunk: int) -> None:
    deep = "[" * 50_000 + '"]}\\"[{"' + "]" * 50_000
    text = '{"a": 1, "deep": ' + deep + ', "b": [NaN, Infinity], "c": "x"}'
    stream = JsonStream(io.StringIO(text), chunk=chunk)
    stream.begin_object()
    got = {}
    for key in stream.members():
        try:
            got[key] = stream.value()
        except JsonTooDeep:
            got[key] = "skipped"
    assert got["a"] == 1 and got["deep"] == "skipped" and got["c"] == "x"
    assert math.isnan(got["b"][0]) and got["b"][1] == math.inf


@pytest.mark.parametrize("text", ['{"a": 1, "b": [1, 2', '{"a": 1 "b": 2}', '{"a": 12', "[1]", '{"a": 1,'])
def test_json_stream_malformed_or_cut_short_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        _members(text, 2)


def _strings_or_spans(text: str, chunk: int, inline: int) -> list[str | StringSpan]:
    stream = JsonStream(io.StringIO(text, newline=""), chunk=chunk)
    stream.begin_array()
    return [stream.string_or_span(inline) for _ in stream.items()]


@settings(max_examples=300, deadline=None)
@given(
    strings=st.lists(st.text(max_size=40), max_size=5),
    chunk=st.integers(1, 9),
    inline=st.integers(0, 12),
    ensure_ascii=st.booleans(),
)
def test_json_stream_strings_decoded_or_stepped_over_are_the_same_strings(
    strings: list[str], chunk: int, inline: int, ensure_ascii: bool
) -> None:
    """A short string is decoded; a long one is its place in the UTF-8 bytes of the file,
    whose body JSON-decodes to the same string (escapes, non-ASCII, cut at any chunk)."""
    text = json.dumps(strings, ensure_ascii=ensure_ascii, indent=1).replace("\n", "\r\n")
    raw = text.encode("utf-8", "surrogatepass")
    got = _strings_or_spans(text, chunk, inline)
    assert len(got) == len(strings)
    for found, want in zip(got, strings, strict=True):
        if isinstance(found, str):
            assert found == want
            continue
        body = raw[found.offset : found.offset + found.length]
        assert found.escaped == (b"\\" in body)
        assert json.loads('"' + body.decode("utf-8", "surrogatepass") + '"') == want


@pytest.mark.parametrize("text", ['["abcdefgh', '["abc\\', "[1]", '["ab" "cd"]'])
def test_json_stream_string_cut_short_or_not_a_string_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        _strings_or_spans(text, 2, 1)
