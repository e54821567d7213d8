"""The ``dumpscope`` command.

Sub-commands live one per module in :mod:`dumpscope.tui.cli.commands`; each module
defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Modules import heavy packages (numpy, polars, onnx, textual) inside ``run`` only, so
``--help`` and ``--version`` stay fast.

``dumpscope GOLDEN TARGET [...]`` with no sub-command opens the terminal UI
(the ``view`` command).

Exit codes: 0 every compared row healthy; 1 some row is ``fail`` or ``error``;
2 a usage or input error (one clear line on stderr; ``--debug`` shows the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from dumpscope import __version__

EXIT_OK, EXIT_UNHEALTHY, EXIT_USAGE = 0, 1, 2

#: Sub-commands in the order ``--help`` lists them; ``view`` is the default.
COMMANDS: tuple[str, ...] = (
    "view",
    "compare",
    "diagnose",
    "dump",
    "explain",
    "overflow",
    "fusion",
    "patch",
    "open",
    "demo",
)


class UsageError(Exception):
    """A bad command line or unusable input: one line to stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (exit 2), like every other
    usage error, instead of the usage block plus a line."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _command_modules() -> dict[str, ModuleType]:
    mods: dict[str, ModuleType] = {}
    for name in COMMANDS:
        try:
            mods[name] = importlib.import_module(f"dumpscope.tui.cli.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"dumpscope.tui.cli.commands.{name}":
                raise
    return mods


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    mods = _command_modules()
    parser = _Parser(
        prog="dumpscope",
        description=(
            "Compare golden and target layer dumps of a neural network, find the first "
            "layer where they part, and why.  `dumpscope GOLDEN TARGET` opens the "
            "terminal UI; the sub-commands below are scriptable."
        ),
    )
    parser.add_argument("--version", action="version", version=f"dumpscope {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, mod in mods.items():
        p = sub.add_parser(name, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser, mods


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser, mods = build_parser()
    # `dumpscope GOLDEN TARGET ...` is `dumpscope view GOLDEN TARGET ...`.
    first = next((a for a in args_list if a != "--debug"), None)
    if first is not None and not first.startswith("-") and first not in mods and "view" in mods:
        args_list.insert(args_list.index(first), "view")
    try:
        args = parser.parse_args(args_list)
    except UsageError as exc:
        print(exc, file=sys.stderr)  # "dumpscope compare: ...": the parser names itself
        return EXIT_USAGE
    if not hasattr(args, "_run"):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("dumpscope: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place that turns errors into exit codes
        if getattr(args, "debug", False):
            raise
        from dumpscope.core.dumps import DumpError

        if isinstance(exc, (UsageError, DumpError, FileNotFoundError, PermissionError)):
            print(f"dumpscope: {exc}", file=sys.stderr)
            return EXIT_USAGE
        print(
            f"dumpscope: internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_USAGE
