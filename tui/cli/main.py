"""The ``dumpscope`` command.

Sub-commands live one per module in :mod:`dumpscope.tui.cli.commands`; each module
defines ``HELP`` (one line), ``add_arguments(parser)``, ``OPTIONS`` (the typed option groups
``run`` takes, read once by :func:`~dumpscope.tui.cli.dispatch.run_command`) and ``run(*groups) -> int``.
Modules import heavy packages (numpy, polars, onnx, textual) inside ``run`` only, and
:func:`main` builds the arguments of the chosen sub-command only, so ``--help``,
``--version`` and quick commands such as ``explain`` stay fast.

``dumpscope GOLDEN TARGET [...]`` with no sub-command opens the terminal UI
(the ``view`` command).

Exit codes (:mod:`dumpscope.tui.cli.errors`): 0 every compared row healthy; 1 some row is
``fail`` or ``error``; 2 a usage or input error (one clear line on stderr; ``--debug``
shows the traceback).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from types import ModuleType, SimpleNamespace

from dumpscope.tui.cli.commands import COMMANDS, command_modules
from dumpscope.tui.cli.errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_UNHEALTHY, EXIT_USAGE, UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every quick command)
if TYPE_CHECKING:
    import argparse

    from dumpscope.tui.cli.parser import build_parser  # at run time through __getattr__ below

__all__ = ["COMMANDS", "EXIT_OK", "EXIT_UNHEALTHY", "EXIT_USAGE", "UsageError", "build_parser", "main"]

DEFAULT_COMMAND = "view"
_TOP_LEVEL_FLAGS = ("--debug",)


def _quick_arguments(chosen: str, args_list: list[str]) -> SimpleNamespace | None:
    """The parsed command line, read without argparse when the chosen command's module offers
    ``quick_arguments`` and it reads this one (``explain MESSAGE``: importing argparse, the gettext look-ups
    it makes for every parser and building the parsers were ~3 ms of an explain start), else None.  The
    namespace holds what argparse's would (tests/tui/cli/test_main.py compares them)."""
    if not chosen or args_list[:1] != [chosen]:  # a top-level flag first: argparse reads it
        return None
    mod = command_modules((chosen,)).get(chosen)
    quick = getattr(mod, "quick_arguments", None)
    fields = quick(args_list[1:]) if quick is not None else None
    if fields is None:
        return None
    return SimpleNamespace(debug=False, command=chosen, **fields, _run=mod.run, _options=mod.OPTIONS)


def _chosen_command(args_list: list[str]) -> str:
    """The sub-command ``args_list`` names (``""`` for none); inserts ``view`` for
    ``dumpscope GOLDEN TARGET``."""
    first = next((a for a in args_list if a not in _TOP_LEVEL_FLAGS), None)
    if first is None or first.startswith("-"):
        return ""
    if first not in COMMANDS:
        args_list.insert(args_list.index(first), DEFAULT_COMMAND)
        return DEFAULT_COMMAND
    return first


def _report(exc: Exception) -> int:
    """One line on stderr for an error a command raised; the exit code."""
    from dumpscope.core.atomic import OutputError
    from dumpscope.core.dumps import DumpError
    from dumpscope.tui.cli.safe import plain

    if isinstance(exc, (UsageError, DumpError, OutputError, FileNotFoundError, PermissionError)):
        print(f"dumpscope: {plain(exc)}", file=sys.stderr)  # names from dumps: escapes shown, never sent
        return EXIT_USAGE
    print(
        f"dumpscope: internal error: {type(exc).__name__}: {plain(exc)} (run with --debug for the traceback)",
        file=sys.stderr,
    )
    return EXIT_USAGE


#: The options that name something a command writes (files or folders).
OUTPUT_OPTIONS = ("output", "output_dir", "out", "csv", "export_values")


def _run(args: argparse.Namespace | SimpleNamespace) -> int:
    from dumpscope.tui.cli.dispatch import debug_requested, named_outputs, run_command

    try:
        # a FIFO given as an output is refused before the work, never opened (the writer is imported only
        # then: ``explain`` and other quick commands that name no output start without it)
        for path in named_outputs(args, OUTPUT_OPTIONS):
            from dumpscope.core.atomic import check_output

            check_output(path)
        return int(run_command(args))
    except KeyboardInterrupt:
        print("dumpscope: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _pipe_closed()
    except Exception as exc:  # noqa: BLE001 - the one place that turns errors into exit codes
        if debug_requested(args):
            raise
        return _report(exc)


def _pipe_closed() -> int:
    """The reader of a pipe went away (``| head``, ``less`` quit): stop quietly, as ``cat`` does."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
    except (OSError, ValueError):  # stdout is not a real file (a test's capture)
        pass
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``), run the chosen command, return its exit code."""
    one_blas_thread()  # first: building a command's arguments may load numpy
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = _chosen_command(args_list)
    if chosen != DEFAULT_COMMAND:  # a batch command (the app is long-lived: it reuses what it freed)
        release_freed_pages()
    args = _quick_arguments(chosen, args_list)
    quick = args is not None
    if args is None:
        from dumpscope.tui.cli.parser import build_parser

        parser, _ = build_parser(chosen)
        try:
            args = parser.parse_args(args_list)
        except UsageError as exc:
            print(exc, file=sys.stderr)  # "dumpscope compare: ...": the parser names itself
            return EXIT_USAGE
        if not hasattr(args, "_run"):
            parser.print_help()
            return EXIT_USAGE
    code = _run(args)
    if argv is None:  # the real command line (not a test calling main): end with the command
        leave_promptly(code)
        if quick:
            exit_now(code)
        # the interpreter's last passes at exit skip the heap (~0.09 s at 10k rows; the app does the
        # same)
        gc.freeze()
    return code


def one_blas_thread() -> None:
    """Single-threaded BLAS for the command unless the user chose otherwise (before numpy loads).

    The comparison's workers are processes, one per core.  OpenBLAS re-creates its thread pool
    in every forked worker at the first dot product, and that extra thread spins on the cores
    the workers need (~0.05 CPU s per worker per comparison, measured); nothing in dumpscope
    gains from a threaded BLAS (onnxruntime has its own threads)."""
    if "numpy" not in sys.modules and not os.environ.get("OPENBLAS_NUM_THREADS"):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


#: Polars' allocator (jemalloc, built with the ``_rjem_`` prefix) reads its options here when Polars loads.
ALLOCATOR_CONF = "_RJEM_MALLOC_CONF"


def release_freed_pages() -> None:
    """Polars' allocator gives freed pages back to the system at once (unless the user set it up;
    before Polars loads).

    Polars sets jemalloc to keep freed pages 0.5 s (1 s more as lazily freed, still resident), and
    appends this setting to its own (the last value wins): a command over a big frame otherwise
    counts recently freed intermediate frames in its peak memory (measured: ``diagnose`` on a
    100k-entry manifest, 17-20 MB more).  Measured cost on the normal path: none in CPU time on
    5,000 tiny tensors; ~0.04 s more system time on 300 x 400 KB (madvise)."""
    if "polars" not in sys.modules:
        os.environ.setdefault(ALLOCATOR_CONF, "dirty_decay_ms:0,muzzy_decay_ms:0")


def leave_promptly(code: int, grace: float = 1.0) -> None:
    """Exit now when a worker thread outlives the command (a comparison still reading a huge
    or blocked file when the UI quits, Ctrl-C during a compare): the interpreter would
    otherwise wait for it at exit.  Threads get ``grace`` seconds to finish first; output is
    flushed; outputs are already complete (written to a temporary name, then renamed)."""
    threading = sys.modules.get("threading")
    if threading is None:  # never imported: no thread was started through it (and importing it costs ~1 ms)
        return
    import time

    deadline = time.monotonic() + grace
    for t in _lingering(threading):
        t.join(max(0.0, deadline - time.monotonic()))
    if _lingering(threading):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def exit_now(code: int) -> None:
    """End the process at once with ``code`` once its output is flushed, when nothing waits for the exit: a
    quick command (``explain MESSAGE``) has written everything, and the interpreter's own end would only
    free the objects it built one by one (the knowledge base's index: ~1.3 ms of an explain's CPU).  Not when
    an ``atexit`` function is registered (a coverage run, a user's ``sitecustomize``) or a stream cannot be
    flushed (a closed pipe): then the interpreter ends as usual, reporting what it always reported."""
    import atexit

    if atexit._ncallbacks():
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _lingering(threading: ModuleType) -> list:  # type: ignore[type-arg]
    """Live non-daemon threads other than the main one."""
    main_thread = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main_thread and not t.daemon and t.is_alive()]


def __getattr__(name: str) -> object:
    """The parser's builders, imported on first use from :mod:`dumpscope.tui.cli.parser` (argparse behind
    them is not a cost of a command line read without it)."""
    if name in ("build_parser", "help_width"):
        from dumpscope.tui.cli import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
