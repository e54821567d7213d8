"""The comparison's meta: typed fields, saved inside the Parquet file and read back, old keys kept."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from dumpscope.core.comparison.result import Comparison, ComparisonMeta


def _frame() -> pl.DataFrame:
    return pl.DataFrame({"index": [0], "name": ["a"], "health": ["ok"]})


def test_a_computed_meta_always_names_its_model_stage_and_graph() -> None:
    meta = ComparisonMeta(golden="g", target="t", version="1", warnings=())
    assert meta.to_dict() == {
        "golden": "g",
        "target": "t",
        "model": None,
        "stage": None,
        "version": "1",
        "warnings": [],
        "graph": None,
    }
    assert ComparisonMeta(golden="g").to_dict() == {"golden": "g"}  # imported: only what is set


def test_save_and_open_keep_every_field_and_unknown_keys(tmp_path: Path) -> None:
    meta = ComparisonMeta(
        golden="g", target="t", version="1", warnings=("w",), unmatched_golden=2, msprobe={"label": "x"}
    )
    path = tmp_path / "c.parquet"
    Comparison.from_frame(_frame(), meta=meta).save(path)
    back = Comparison.open(path).meta
    assert back == ComparisonMeta(**{**meta.__dict__, "reopened": str(path)})
    assert back.warnings == ("w",) and back.unmatched_golden == 2


def test_an_older_file_with_unknown_or_odd_keys_reopens(tmp_path: Path) -> None:
    path = tmp_path / "old.parquet"
    saved = {"meta": {"golden": "g", "cache_note": "kept", "unmatched_target": "three", "warnings": "x"}}
    _frame().write_parquet(path, metadata={"dumpscope": json.dumps(saved)})
    meta = Comparison.open(path).meta
    assert meta.golden == "g" and meta.unmatched_target is None and meta.warnings is None
    assert meta.extra == {"cache_note": "kept"}
    assert meta.to_dict() == {"golden": "g", "reopened": str(path), "cache_note": "kept"}


def test_from_frame_reads_a_plain_dict_once() -> None:
    cmp = Comparison.from_frame(_frame(), meta={"golden": "g", "warnings": ["w"]})
    assert cmp.meta == ComparisonMeta(golden="g", warnings=("w",)) and cmp.warnings == ["w"]
