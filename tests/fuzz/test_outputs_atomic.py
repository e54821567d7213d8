"""Issue 13, process lifetime: every output file is written under a temporary name and renamed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.atomic import atomic_path, atomic_text
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.report import writers

from .corpus import npy_dir


def _cmp(tmp_path: Path):  # type: ignore[no-untyped-def]
    g, t = npy_dir(tmp_path / "g"), npy_dir(tmp_path / "t")
    np.save(t / "b.npy", np.full((2, 3), np.inf, np.float32))
    return compare(g, t)


def test_a_write_cut_short_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    dest = tmp_path / "out.csv"
    dest.write_text("old")
    with pytest.raises(KeyboardInterrupt), atomic_text(dest) as fh:
        fh.write("half")
        raise KeyboardInterrupt
    assert dest.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_a_symlink_at_the_destination_is_replaced_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (tmp_path / "out.json").symlink_to(victim)
    with atomic_text(tmp_path / "out.json") as fh:
        fh.write("new")
    assert victim.read_text() == "keep"
    assert not (tmp_path / "out.json").is_symlink() and (tmp_path / "out.json").read_text() == "new"


def test_a_folder_as_destination_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError), atomic_path(tmp_path):
        pass


def test_streamed_json_is_byte_identical_to_the_one_shot_form(tmp_path: Path) -> None:
    cmp = _cmp(tmp_path)
    buf = io.StringIO()
    writers.write_json(cmp, buf)
    assert buf.getvalue() == json.dumps(writers.frame_records(cmp), indent=1, allow_nan=False) + "\n"
    writers.write_json(cmp, tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text() == buf.getvalue()


def test_streamed_json_of_no_rows_is_an_empty_list() -> None:
    class Empty:
        def public_frame(self):  # type: ignore[no-untyped-def]
            import polars as pl

            return pl.DataFrame()

    assert "".join(writers.json_chunks(Empty())) == json.dumps([], indent=1) + "\n"  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown", "parquet"])
def test_every_writer_leaves_no_temporary_beside_its_output(tmp_path: Path, fmt: str) -> None:
    cmp = _cmp(tmp_path)
    out = tmp_path / "out" / f"r.{fmt}"
    out.parent.mkdir()
    {"parquet": writers.write_parquet, **writers.WRITERS}[fmt](cmp, out)
    assert [p.name for p in out.parent.iterdir()] == [out.name] and out.stat().st_size > 0


@pytest.mark.parametrize("extra", [[], ["--json"], ["--markdown"]])
def test_diagnose_output_leaves_no_temporary(tmp_path: Path, extra: list[str]) -> None:
    from dumpscope.tui.cli.main import main

    g, t = npy_dir(tmp_path / "g"), npy_dir(tmp_path / "t")
    out = tmp_path / "o" / "report.txt"
    out.parent.mkdir()
    assert main(["diagnose", str(g), str(t), *extra, "-o", str(out)]) == 0
    assert [p.name for p in out.parent.iterdir()] == ["report.txt"] and out.stat().st_size > 0


_JSONABLE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_JSONABLE)
def test_indented_json_is_json_dumps_with_indent_1(value: object) -> None:
    assert writers.indented_json(value) == json.dumps(value, indent=1, allow_nan=False)
