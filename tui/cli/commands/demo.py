"""``dumpscope demo``: a streaming model whose fp16 port overflows at a known frame."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.tui.cli.args import (
    ComparisonOptions,
    UiOptions,
    add_ui_arguments,
    check_theme,
    exit_code,
    invocation,
    load_comparison,
    run_app,
)
from dumpscope.tui.cli.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from rich.console import Console

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.diagnosis.engine import RootCause

HELP = "make a small streaming-attention demo (fp32 golden vs fp16 target) and compare it"
DESCRIPTION = (
    "Build a tiny streaming attention model (a key cache that grows every frame and a softmax "
    "without max-subtraction, as in Ascend's Zipformer overflow case), dump a float32 golden and an fp16 "
    "target over several frames, and compare them: the first frames match, then Exp overflows to "
    "inf in fp16 and NaN spreads.  Files go to --out DIR or to a new temporary directory."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="where to write model.onnx, golden/ and target/ (default: a new temp dir)",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="print the comparison instead of opening the UI (the default when not on a terminal)",
    )
    parser.add_argument(
        "--frames", type=int, default=6, metavar="N", help="number of streamed frames (default 6)"
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="then run the whole loop: diagnose, find the smallest verified fix (dumpscope fix, "
        "seeded by the advice), patch the model with it, dump the same frames "
        "again, compare, and verify the patched target against the ORIGINAL golden (printed; the UI opens "
        "on that pair: the original golden vs the patched target)",
    )
    add_ui_arguments(parser)


@dataclass(frozen=True)
class Options:
    out: str | None
    headless: bool
    frames: int
    fix: bool


#: What :func:`run` takes, read in this order from the command line.
OPTIONS = (Options, UiOptions)


def run(cmd: Options, ui: UiOptions) -> int:
    """Check the options, make the demo, then fix it (``--fix``), open the UI or print the comparison."""
    import sys

    _check(cmd, ui)
    interactive = _interactive(cmd)
    # The overflow comes at frame 5 (Ascend's Zipformer overflow case: "the first x frames are normal"),
    # earlier for short runs.
    overflow_frame = min(4, max(cmd.frames - 2, 0))
    out = _out_dir(cmd)
    paths = _make(cmd, out, overflow_frame)
    print(
        f"demo: {cmd.frames} frame(s) of a streaming attention block, fp32 golden vs fp16 target; "
        f"{_expectation(cmd.frames, overflow_frame)}.\n",
        file=sys.stderr,
    )
    shown = fix_and_verify(paths, out) if cmd.fix else paths
    if interactive:
        from dumpscope.tui.app.app import DumpscopeApp
        from dumpscope.tui.app.feed import CompareRequest

        run_app(DumpscopeApp(CompareRequest(shown.golden, shown.target, shown.model), theme=ui.theme), ui)
    elif not cmd.fix:
        print_comparison(paths)
        print("\n(run `dumpscope demo --fix` to diagnose, patch and verify the fix)")
    _print_reproduce(paths)
    return EXIT_OK


def _check(cmd: Options, ui: UiOptions) -> None:
    """``--frames`` in range, a known ``--theme``, and ``--out`` not a file (usage errors)."""
    from dumpscope.core.onnx.demo import MAX_FRAMES

    if not 1 <= cmd.frames <= MAX_FRAMES:
        raise UsageError(f"--frames must be between 1 and {MAX_FRAMES}")
    check_theme(ui.theme)
    if cmd.out and Path(cmd.out).exists() and not Path(cmd.out).is_dir():
        raise UsageError(
            f"--out {cmd.out}: is a file, not a folder; give a folder (it is created if missing)"
        )


def _interactive(cmd: Options) -> bool:
    """The UI needs a terminal; piped or scripted runs (and ``--headless``) print the comparison instead."""
    import sys

    return not cmd.headless and sys.stdin.isatty() and sys.stdout.isatty()


def _out_dir(cmd: Options) -> Path:
    """``--out``, or a new temporary folder."""
    import tempfile

    return Path(cmd.out) if cmd.out else Path(tempfile.mkdtemp(prefix="dumpscope-demo-"))


def _make(cmd: Options, out: Path, overflow_frame: int):  # type: ignore[no-untyped-def]
    """The demo's model and dumps under ``out`` (a temporary ``out`` is removed when that fails)."""
    import shutil

    from dumpscope.core.onnx.demo import make_demo

    try:
        return make_demo(out, frames=cmd.frames, overflow_frame=overflow_frame)
    except BaseException:
        if not cmd.out:
            shutil.rmtree(out, ignore_errors=True)
        raise


def _expectation(frames: int, overflow_frame: int) -> str:
    """What the run will show: the frame the fp16 Exp overflows at, or that there are too few frames."""
    if overflow_frame + 1 < frames:
        return f"the fp16 Exp overflows at frame {overflow_frame + 1}"
    return "too few frames for the fp16 overflow to show"


def _print_reproduce(paths) -> None:  # type: ignore[no-untyped-def]
    """The commands that compare, diagnose and open the demo pair again."""
    import shlex

    g, t = shlex.quote(str(paths.golden)), shlex.quote(str(paths.target))
    ds = invocation()
    print(f"\nReproduce:\n  {ds} compare {g} {t}\n  {ds} diagnose {g} {t}\n  {ds} {g} {t}")


def print_comparison(paths) -> int:  # type: ignore[no-untyped-def]
    """What ``dumpscope compare GOLDEN TARGET`` prints for the demo pair (no model, default preset)."""
    from dumpscope.tui.cli.render import print_table

    cmp = load_comparison(ComparisonOptions(str(paths.golden), str(paths.target)))
    print_table(cmp, None, limit=1000)
    return exit_code(cmp)


def fix_and_verify(paths, out):  # type: ignore[no-untyped-def]
    """The fix-and-verify loop on the demo: diagnose, patch as advised, re-dump
    the same streamed frames, compare, then verify the patched target against the original
    golden and say how far it is (outputs, farthest layer) and whether the fix is complete.
    Prints each step; returns the pair the fix is judged on: the original golden and model, the
    patched target."""
    import shlex
    from dataclasses import replace

    from rich.console import Console

    from dumpscope.core.comparison.fixcheck import check_fix
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.onnx.demo import verify_patched
    from dumpscope.tui.cli.render import summary_text

    console = Console(stderr=False, highlight=False, soft_wrap=True)  # commands are copied: never wrapped
    before = compare(paths.golden, paths.target, model=paths.model)
    console.print("[b]1. compare[/b] ", summary_text(before))
    top = _top_cause(before, console)
    fixed_model = out / "model.fixed.onnx"
    console.print(f"   - advised: {' '.join(top.commands[:1])}", markup=False)
    _patch(console, _fix_argv(console, paths, top, fixed_model))
    fixed = verify_patched(paths, fixed_model, out / "fixed")
    console.print(
        f"[b]4. re-dump[/b]  the same frames through {fixed_model.name}: golden float32, target fp16",
        markup=True,
    )
    after = compare(fixed.golden, fixed.target, model=fixed.model)
    console.print("[b]5. compare[/b]  patched golden vs patched target: ", summary_text(after))
    against = compare(paths.golden, fixed.target, model=paths.model)
    console.print("[b]6. verify[/b]   the ORIGINAL golden vs the patched target: ", summary_text(against))
    for line in check_fix(against, after).sentences():
        console.print(f"   - {line}", markup=False)
    g, t = shlex.quote(str(fixed.golden)), shlex.quote(str(fixed.target))
    original = shlex.quote(str(paths.golden))
    console.print(
        f"\nFixed pair:\n  {invocation()} compare {g} {t}"
        f"\n  {invocation()} compare {original} {t}   (against the original golden)",
        markup=False,
    )
    return replace(paths, target=fixed.target)


def _top_cause(before: Comparison, console: Console) -> RootCause:
    """Step 2: the first root cause of the diagnosis, printed with its evidence (a usage error when none)."""
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.tui.cli.safe import markup, plain

    causes = diagnose(before).root_causes
    if not causes:
        raise UsageError("the demo shows no root cause to fix")
    top = causes[0]
    console.print(
        f"[b]2. diagnose[/b] root cause: #{top.index} {markup(top.name)} ({markup(top.op_type)}): "
        f"{markup(top.cause)}",
        markup=True,
    )
    for line in top.evidence[1:4]:
        console.print(f"   - {plain(line)}", markup=False)
    return top


def _fix_argv(
    console: Console,
    paths,
    top: RootCause,  # type: ignore[no-untyped-def]
    fixed_model: Path,
) -> list[str]:
    """Step 3: ``dumpscope fix`` on the demo's first overflowing frame (its golden inputs), seeded by the
    diagnosis; its proof is printed and its changes become the patch command (the advised one when the
    search finds nothing)."""
    import re
    import sys

    from dumpscope.core.fix import find_fix
    from dumpscope.core.fix.report import report_lines
    from dumpscope.core.onnx.manifest import read_manifest

    m = re.match(r"(frame\d+)/", top.name)  # the demo's dumps prefix every tensor with its frame
    frame = m.group(1) if m else ""
    manifest = read_manifest(paths.golden / "manifest.json")
    prefix = f"{frame}/" if frame else ""
    inputs = {
        e["name"].removeprefix(prefix): paths.golden / e["file"]
        for e in manifest.get("inputs", [])
        if e.get("file") and e["name"].startswith(prefix)
    }
    console.print(
        f"[b]3. fix[/b]      dumpscope fix {paths.model.name} --target fp16 on the inputs of "
        f"{frame or 'the first frame'} (trials on stderr)",
        markup=True,
    )
    result = find_fix(
        paths.model,
        "fp16",
        inputs=inputs,
        progress=lambda i, b, what: print(f"fix: trial {i}/{b} {what}", file=sys.stderr),
    )
    for line in report_lines(result):
        console.print(f"   {line}", markup=False)
    if not result.found or not result.changes:
        return _patch_argv(top, fixed_model)
    from dumpscope.core.fix.emit import patch_arguments

    return ["patch", str(paths.model), "-o", str(fixed_model), *patch_arguments(result.changes)]


def _patch_argv(top: RootCause, fixed_model: Path) -> list[str]:
    """The advised ``dumpscope patch`` command (a Clip first) as argv, writing ``fixed_model``."""
    import shlex

    command = next((c for c in top.commands if "--clip" in c), top.commands[0] if top.commands else None)
    if command is None:
        raise UsageError("the diagnosis suggests no patch for the demo")
    argv = shlex.split(command)[1:]
    argv[argv.index("-o") + 1] = str(fixed_model)
    return argv


def _patch(console: Console, argv: list[str]) -> None:
    """Step 3: print and run the patch command (a usage error when it fails)."""
    import shlex

    from dumpscope.tui.cli.commands import patch
    from dumpscope.tui.cli.safe import markup

    console.print(
        f"[b]   patch[/b]    {markup(invocation())} " + markup(" ".join(shlex.quote(a) for a in argv)),
        markup=True,
    )
    if patch.run(patch.parse(argv[1:])) != 0:
        raise UsageError("dumpscope patch failed on the demo model")
