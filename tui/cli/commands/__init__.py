"""One module per sub-command: HELP, add_arguments(parser), OPTIONS (the typed option groups its
run takes: its own ``Options`` dataclass, when it has options of its own, then shared groups) and
run(*groups) -> exit code.  :data:`COMMANDS` lists them; :func:`command_modules` imports them (here, below
both :mod:`dumpscope.tui.cli.main` and the parser of :mod:`dumpscope.tui.cli.parser`, which use them)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

#: Sub-commands in the order ``--help`` lists them; ``view`` is the default.
COMMANDS: tuple[str, ...] = (
    "view",
    "compare",
    "diagnose",
    "dump",
    "explain",
    "overflow",
    "fusion",
    "convert",
    "patch",
    "fix",
    "open",
    "demo",
    "formats",
)


def command_modules(names: Sequence[str] = COMMANDS) -> dict[str, ModuleType]:
    """The command modules (light: each imports its heavy packages inside ``run``)."""
    mods: dict[str, ModuleType] = {}
    for name in names:
        try:
            mods[name] = importlib.import_module(f"dumpscope.tui.cli.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"dumpscope.tui.cli.commands.{name}":
                raise
    return mods
