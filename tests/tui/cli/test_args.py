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


#: A command line each command parses (its required arguments; nothing is opened while reading them).
_COMMAND_LINES = {
    "view": ("G", "T"),
    "compare": ("G", "T"),
    "diagnose": ("G", "T"),
    "dump": ("m.onnx", "-o", "out"),
    "explain": ("message",),
    "overflow": ("path",),
    "fusion": ("graph.json",),
    "convert": ("dump", "-o", "out"),
    "patch": ("m.onnx", "-o", "out.onnx"),
    "fix": ("m.onnx", "--target", "fp16"),
    "open": ("result.parquet",),
    "demo": (),
    "formats": (),
}


#: Arguments a command accepts and nothing reads: known gaps, each one a finding to close, never to grow.
_NOT_READ: dict[str, set[str]] = {}


class _Recording(argparse.Namespace):
    """A parsed command line that notes which of its arguments are read."""

    def __getattribute__(self, name: str) -> object:
        if not name.startswith("__"):
            object.__getattribute__(self, "__dict__").setdefault("__read__", set()).add(name)
        return object.__getattribute__(self, name)


@pytest.mark.parametrize("command", sorted(_COMMAND_LINES))
def test_each_command_reads_every_argument_once_into_its_typed_option_groups(command: str) -> None:
    from dumpscope.tui.cli.dispatch import read_options
    from dumpscope.tui.cli.main import COMMANDS

    assert set(_COMMAND_LINES) == set(COMMANDS)  # every command is checked
    parser, mods = build_parser(command)
    args = parser.parse_args([command, *_COMMAND_LINES[command]], namespace=_Recording())
    vars(args).pop("__read__", None)  # what parsing itself looked at
    given = set(vars(args)) - {"_run", "_options", "command", "debug"}  # main reads --debug
    groups = [read_options(group, args) for group in mods[command].OPTIONS]
    assert [type(g) for g in groups] == list(mods[command].OPTIONS)
    read = vars(args).get("__read__", set())
    assert given - read == _NOT_READ.get(command, set()), f"{command}: arguments no option group reads"
    own = [g for g in groups if type(g).__module__ == mods[command].__name__]
    for group in own:  # a command's own options are its arguments, by name and value
        assert all(getattr(group, name) == getattr(args, name) for name in vars(group))


def test_command_modules_never_read_the_parsed_command_line() -> None:
    """Only the argument layer (tui/cli/args.py, its option groups, and tui/cli/dispatch.py, which reads them
    for the command) reads the argparse namespace; commands get typed options."""
    from tests.support.paths import REPO, product_sources

    readers = sorted(
        str(path.relative_to(REPO))
        for path in product_sources()
        if "getattr(args" in path.read_text(encoding="utf-8")
        or (path.parent.name == "commands" and "Namespace" in path.read_text(encoding="utf-8"))
    )
    assert readers == ["tui/cli/args.py", "tui/cli/dispatch.py"]
