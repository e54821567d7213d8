"""Exit codes and the one error every command raises for a bad command line or unusable input.

Kept apart from :mod:`dumpscope.tui.cli.main` so commands never import the entry point back.
"""

from __future__ import annotations

#: Every compared row healthy / some row ``fail`` or ``error`` / a usage or input error.
EXIT_OK, EXIT_UNHEALTHY, EXIT_USAGE = 0, 1, 2

#: Exit code after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A bad command line or unusable input: one line to stderr, exit code 2."""
