"""Running a parsed command: its option groups read once from the command line, then its ``run``.

The second half of the argument layer (:mod:`dumpscope.tui.cli.args` holds the option groups): the
only other module that reads the parsed namespace.  It imports nothing beyond the standard library's
``os``, so a quick command such as ``explain`` starts without the option groups and ``dataclasses``.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every quick start)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any, TypeVar

    T = TypeVar("T")


def read_options(group: type[T], args: argparse.Namespace) -> T:
    """One option group from the parsed command line: its own ``from_args`` when it has one (a group
    that settles or refuses a combination), else each of its fields (a dataclass's, or the names in its
    ``FIELDS``) from the argument of that name."""
    from_args = getattr(group, "from_args", None)
    if from_args is not None:
        built: T = from_args(args)
        return built
    names = getattr(group, "FIELDS", None)
    if names is None:
        from dataclasses import fields

        names = [f.name for f in fields(group)]  # type: ignore[arg-type]  # a dataclass
    return group(**{name: getattr(args, name) for name in names})


def run_command(args: argparse.Namespace) -> Any:
    """Run the parsed command: its option groups (``OPTIONS``) read once, in order (a group's
    ``__post_init__`` or ``from_args`` refuses before the next is read), then ``run(*groups)``."""
    return args._run(*[read_options(group, args) for group in args._options])


def named_outputs(args: argparse.Namespace, options: Sequence[str]) -> list[str | os.PathLike[str]]:
    """The paths the command's ``options`` (those of them it has) name as outputs."""
    values = [getattr(args, option, None) for option in options]
    return [v for v in values if isinstance(v, (str, os.PathLike))]


def debug_requested(args: argparse.Namespace) -> bool:
    """``--debug``: a traceback instead of the one-line error (only parsers that were built have it)."""
    return bool(getattr(args, "debug", False))
