"""The ``dumpscope`` command line's parser (argparse): the chosen sub-command's arguments, or every command's.

Apart from :mod:`dumpscope.tui.cli.main` so that a command line a command reads without argparse
(``explain MESSAGE``, see ``quick_arguments`` there) never imports it.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from dumpscope import __version__
from dumpscope.tui.cli.commands import COMMANDS, command_modules
from dumpscope.tui.cli.errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every quick command)
if TYPE_CHECKING:
    from typing import NoReturn


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (exit 2), like every other
    usage error, instead of the usage block plus a line."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter with the width it would choose, read without importing :mod:`shutil`:
        argparse builds a formatter for every argument added, and shutil (with bz2 and lzma behind it) was
        ~3 ms of every quick command, which never lays out help."""
        return self.formatter_class(prog=self.prog, width=help_width())


def help_width() -> int:
    """The width argparse lays help out in: the terminal's columns less 2, read as
    ``shutil.get_terminal_size`` reads them (``$COLUMNS``, else standard output's terminal, else 80)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):  # no stdout, not a terminal
            columns = 0
    return (columns or 80) - 2


def _top_parser() -> argparse.ArgumentParser:
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
    return parser


def build_parser(chosen: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The parser and the command modules it was built from.

    ``chosen=None`` builds every command; a command name imports and builds that command
    only (what :func:`main` runs); ``""`` lists every command with its one-line HELP but
    builds none (top-level ``--help``, ``--version``).
    """
    mods = command_modules((chosen,) if chosen else COMMANDS)
    parser = _top_parser()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, mod in mods.items():
        p = sub.add_parser(name, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        if chosen != "":
            p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run, _options=mod.OPTIONS)
    return parser, mods
