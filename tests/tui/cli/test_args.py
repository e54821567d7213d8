"""The comparison arguments read once into typed options; the parsed command line is left as parsed."""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

import pytest

from dumpscope.tui.cli.args import ComparisonOptions, OutputOptions
from dumpscope.tui.cli.errors import UsageError
from dumpscope.tui.cli.main import build_parser


def _parse(*argv: str) -> argparse.Namespace:
    parser, _ = build_parser(argv[0])
    return parser.parse_args(list(argv))


def test_either_spelling_gives_the_same_options_and_the_namespace_is_not_changed() -> None:
    args = _parse("compare", "-g", "G", "-m", "T", "--threshold", "cosine_similarity=0.9", "--cache")
    before = copy.deepcopy(vars(args))
    opts = ComparisonOptions.from_args(args)
    assert vars(args) == before  # read, never written
    assert (opts.golden, opts.target, opts.b, opts.graphs) == ("G", "T", None, (None, None))
    assert opts.threshold == ("cosine_similarity=0.9",) and opts.cache is True
    assert opts == ComparisonOptions.from_args(
        _parse("compare", "G", "T", "--threshold", "cosine_similarity=0.9", "--cache")
    )


def test_graphs_are_one_per_target_side() -> None:
    opts = ComparisonOptions.from_args(
        _parse("compare", "G", "A", "B", "--graph", "a.json", "--graph", "b.json")
    )
    assert opts.b == "B" and opts.graphs == ("a.json", "b.json")
    with pytest.raises(UsageError, match="too many graphs"):
        ComparisonOptions.from_args(_parse("compare", "G", "T", "--graph", "a.json", "--graph", "b.json"))
    with pytest.raises(UsageError, match="named twice"):
        ComparisonOptions.from_args(_parse("compare", "G", "T", "-g", "H"))
    with pytest.raises(UsageError, match="required: target"):
        ComparisonOptions.from_args(_parse("compare", "-g", "G"))


def test_cache_dir_wins_and_a_bad_threshold_is_a_usage_error(tmp_path: Path) -> None:
    opts = ComparisonOptions.from_args(_parse("compare", "G", "T", "--cache-dir", str(tmp_path)))
    assert opts.cache == str(tmp_path) and not opts.cache_flag
    with pytest.raises(UsageError):
        ComparisonOptions.from_args(_parse("compare", "G", "T", "--threshold", "nonsense")).thresholds()


def test_output_options_follow_each_commands_spelling() -> None:
    assert OutputOptions.from_args(_parse("diagnose", "G", "T", "--json")).format == "json"
    assert OutputOptions.from_args(_parse("diagnose", "G", "T", "--markdown")).format == "table"
    out = OutputOptions.from_args(
        _parse("compare", "G", "T", "--format", "csv", "-o", "x.csv", "--limit", "3")
    )
    assert (out.format, out.output, out.limit) == ("csv", "x.csv", 3)
