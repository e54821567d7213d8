"""The filter language (:mod:`dumpscope.tui.app.filters`): parsing, errors, and the key table."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from dumpscope.tui.app.filters import FILTER_FIELDS, Query, QueryError
from dumpscope.tui.app.widgets.layer_rows import LayerRows


def test_query_parse_combines_fields_and_words() -> None:
    q = Query.parse("op:Conv,Relu health:bad  relu #10-20")
    assert q.words == ("relu",)
    assert dict(q.fields) == {"op": ("conv", "relu"), "health": ("warn", "fail", "error")}
    assert q.index_range == (10, 20)
    assert Query.parse("   ") == Query(text="")
    assert not Query.parse("")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("health:nope", "unknown health"),
        ("heath:fail", "did you mean health"),
        ("op:", "nothing after"),
        ("#x", "#N"),
    ],
)
def test_query_errors_say_why(text: str, fragment: str) -> None:
    with pytest.raises(QueryError, match=fragment):
        Query.parse(text)


def test_names_with_colons_are_words_not_fields() -> None:
    """`frame5/attn/exp:0` or `a::b` must stay a name search, not an unknown field."""
    assert Query.parse("frame5/attn/exp:0").words == ("frame5/attn/exp:0",)
    assert Query.parse("ns::op").words == ("ns::op",)
    assert Query.parse("relu:0").words == ("relu:0",)


def test_every_key_of_the_table_parses_and_selects_rows() -> None:
    frame = pl.DataFrame(
        {
            "index": [0, 1, 2],
            "name": ["a", "b", None],
            "target_name": [None, None, "c"],
            "op_type": ["Conv", "Relu", None],
            "kind": ["activation"] * 3,
            "side": ["both", "golden", "target"],
            "dtype": ["float32", "float32", None],
            "target_dtype": ["float16", None, "float16"],
            "shape": [[1], [1], None],
            "target_shape": [[1], None, [1]],
            "health": ["fail", "unmatched", "unmatched"],
            "cosine_similarity": [0.5, None, None],
            "max_absolute_error": [1.0, None, None],
            "root_mean_square_error": [1.0, None, None],
            "relative_euclidean_distance": [1.0, None, None],
            "nan_golden": [0, 0, 0],
            "nan_target": [0, 0, 0],
            "inf_golden": [0, 0, 0],
            "inf_target": [0, 0, 0],
        }
    )
    try:
        rows = LayerRows(frame)
    except Exception as exc:  # the frame's schema belongs to core; the table test needs only a few columns
        pytest.skip(f"LayerRows needs more columns: {exc}")
    rows.fused = np.array([True, False, False])
    rows.worse = np.array(["A", "=", "B"])  # as LayerRows.attach_b sets it for a three-way compare
    rows.set_origin(["introduced", "inherited", None])
    examples = {
        "op": "op:conv",
        "health": "health:fail",
        "kind": "kind:activation",
        "side": "side:golden",
        "dtype": "dtype:float16",
        "origin": "origin:new",
        "fused": "fused:yes",
        "worse": "worse:b",
    }
    assert set(examples) == set(FILTER_FIELDS), "a new filter key needs an example here"
    expected = {
        "op": [0],
        "health": [0],
        "kind": [0, 1, 2],
        "side": [1],
        "dtype": [0, 2],
        "origin": [0],
        "fused": [0],
        "worse": [2],
    }
    for key, text in examples.items():
        assert FILTER_FIELDS[key].help
        np.testing.assert_array_equal(
            np.flatnonzero(rows.mask(Query.parse(text))), expected[key], err_msg=text
        )


def test_fused_takes_one_yes_or_no() -> None:
    assert dict(Query.parse("fused:true").fields) == {"fused": ("yes",)}
    assert dict(Query.parse("FUSED:False").fields) == {"fused": ("no",)}
    for bad in ("fused:maybe", "fused:yes,no"):
        with pytest.raises(QueryError, match="fused:yes or fused:no"):
            Query.parse(bad)


def test_origin_aliases_and_unknown_origin() -> None:
    assert dict(Query.parse("origin:new,inherit").fields) == {"origin": ("introduced", "inherited")}
    with pytest.raises(QueryError, match="unknown origin 'x'"):
        Query.parse("origin:x")


def test_error_messages_keep_the_typed_spelling() -> None:
    with pytest.raises(QueryError, match="'OP:': nothing after 'OP:'"):
        Query.parse("OP:")
