"""README screenshots made by the app itself, plus the generated comparison they (and the bench) use.

A developer tool beside the images it makes, not part of the installed package:
``python -m screenshots.make [--out DIR]`` from the repository root (or ``python screenshots/make.py``)
writes ``screenshots/*.svg``: the demo
(when :mod:`dumpscope.core.onnx.demo` and the comparison engine are installed) and a larger
generated case of a ResNet-like network whose fp16 port drifts and then breaks.  The
generated case is a synthetic comparison *frame* with exactly the engine's columns, so the
UI can be shown, tested and benchmarked at any size without dumps.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.core.atomic import write_text

if TYPE_CHECKING:
    import polars as pl
    from textual.pilot import Pilot

    from dumpscope.tui.app.app import DumpscopeApp

HERE = Path(__file__).resolve().parent
"""``screenshots/``: where the images go."""
SIZE = (120, 40)
THEME = "textual-dark"
GENERATED_ROWS = 5000

_STAGE_OPS = ("Conv", "BatchNormalization", "Relu", "Conv", "BatchNormalization", "Add", "Relu")
_HEAD_OPS = ("GlobalAveragePool", "Flatten", "Gemm", "Softmax")


def generated_frame(rows: int = 2000, seed: int = 0) -> pl.DataFrame:
    """A deterministic comparison frame of ``rows`` tensors (ResNet-like blocks repeated).

    The target drifts slowly (cosine falls a little per layer), one Conv in the middle
    jumps (fail from there on), one tensor is unreadable (``error``), one row has Inf in
    the target, and there is one unmatched tensor on each side.
    """
    import numpy as np
    import polars as pl

    if rows < 8:
        raise ValueError("generated_frame needs at least 8 rows")
    rng = np.random.default_rng(seed)
    n = rows
    pos = np.arange(n)
    body = n - len(_HEAD_OPS)
    ops = [_STAGE_OPS[i % len(_STAGE_OPS)] for i in range(body)] + list(_HEAD_OPS)
    block = pos // len(_STAGE_OPS)
    stage = np.minimum(block * 4 // max(1, body // len(_STAGE_OPS)), 3)
    names = [
        f"/layer{s + 1}/block{b}/{op.lower()}_{i % len(_STAGE_OPS)}/{op}_output_0"
        for i, (s, b, op) in enumerate(zip(stage.tolist(), block.tolist(), ops, strict=False))
    ]
    names[-len(_HEAD_OPS) :] = ["/head/pool:0", "/head/flatten:0", "/head/fc/Gemm:0", "probs"]
    channels, spatial = 64 * 2**stage, 56 // 2**stage
    shapes = pl.DataFrame({"b": np.ones(n, dtype=np.int64), "c": channels, "h": spatial, "w": spatial})
    shape = shapes.select(pl.concat_list("b", "c", "h", "w")).to_series().to_list()
    shape[-4:] = [[1, 512, 1, 1], [1, 512], [1, 1000], [1, 1000]]
    size = np.array([int(np.prod(s)) for s in shape[-4:]], dtype=np.int64)
    size = np.concatenate([channels[:body] * spatial[:body] ** 2, size])

    jump = n // 2 - (n // 2) % len(_STAGE_OPS)  # a Conv
    drift = 1.0 - 1.5e-3 * np.sqrt(pos / n) - rng.uniform(0, 2e-5, n)
    cos = np.where(pos >= jump, drift - 0.03 - 0.02 * (pos - jump) / n, drift)
    scale = rng.uniform(0.5, 40.0, n)
    rel = np.sqrt(np.clip(2 * (1 - cos), 0, None))
    rmse = rel * scale * 0.3
    max_abs = rmse * rng.uniform(3, 12, n)
    health = np.where(cos < 0.99, "fail", np.where(cos < 0.999, "warn", "ok")).astype(object)
    message = np.full(n, None, dtype=object)
    message[health != "ok"] = "cosine below the band"

    err_row, inf_row = n // 3, (3 * n) // 4
    inf_target = np.zeros(n, dtype=np.int64)
    inf_target[inf_row] = 3
    health[inf_row] = "fail"
    message[inf_row] = "target has 3 Inf where golden has none"
    health[err_row] = "error"
    message[err_row] = "target file truncated: 1024 of 4096 bytes"
    for arr in (cos, rel, rmse, max_abs):
        arr[err_row] = np.nan

    side = np.full(n, "both", dtype=object)
    target_names: list[str | None] = list(names)
    golden_only, target_only = n // 5, n // 5 + 1
    side[golden_only], side[target_only] = "golden", "target"
    target_names[golden_only] = None
    names[target_only] = target_names[target_only] = f"{names[target_only]}/fused_cast"
    for row in (golden_only, target_only):
        health[row] = "unmatched"
        message[row] = f"no counterpart in the {'target' if side[row] == 'golden' else 'golden'} dump"
        for arr in (cos, rel, rmse, max_abs):
            arr[row] = np.nan

    def metric(values: np.ndarray) -> pl.Series:
        return pl.Series(values, dtype=pl.Float64).fill_nan(None)

    mean_g = rng.normal(0, 1, n)
    std_g = scale / 3
    frame = pl.DataFrame(
        {
            "index": pl.Series(pos, dtype=pl.Int64),
            "name": names,
            "target_name": target_names,
            "node_name": [nm.rsplit("/", 1)[0] or nm for nm in names],
            "op_type": ops,
            "kind": ["activation"] * n,
            "shape": pl.Series(shape, dtype=pl.List(pl.Int64)),
            "target_shape": pl.Series(shape, dtype=pl.List(pl.Int64)),
            "dtype": ["float32"] * n,
            "target_dtype": ["float16"] * n,
            "size": size,
            "cosine_similarity": metric(cos),
            "max_absolute_error": metric(max_abs),
            "accumulated_relative_error": metric(rel * 3),
            "relative_euclidean_distance": metric(rel),
            "kullback_leibler_divergence": metric(rel**2 / 2),
            "mean_absolute_error": metric(rmse * 0.8),
            "root_mean_square_error": metric(rmse),
            "max_relative_error": metric(rel * 40),
            "mean_relative_error": metric(rel * 2),
            "sqnr_db": metric(-20 * np.log10(np.maximum(rel, 1e-12))),
            "within_tolerance": metric(np.clip(cos, 0, 1)),
            "nan_golden": np.zeros(n, dtype=np.int64),
            "nan_target": np.zeros(n, dtype=np.int64),
            "inf_golden": np.zeros(n, dtype=np.int64),
            "inf_target": inf_target,
            "min_golden": mean_g - 3 * std_g,
            "max_golden": mean_g + 3 * std_g,
            "mean_golden": mean_g,
            "std_golden": std_g,
            "min_target": mean_g - 3 * std_g - rmse,
            "max_target": mean_g + 3 * std_g + rmse,
            "mean_target": mean_g + rmse / 10,
            "std_target": std_g * (1 + rel),
            "health": health.tolist(),
            "side": side.tolist(),
            "message": message.tolist(),
            "golden_file": [f"golden/{i:06d}.npy" for i in range(n)],
            "target_file": [f"target/{i:06d}.npy" for i in range(n)],
        },
        schema_overrides={"target_name": pl.Utf8, "message": pl.Utf8},
    )
    return frame


Step = Callable[["Pilot[int]"], Awaitable[None]]


async def _shoot(app: DumpscopeApp, shots: Sequence[tuple[str, Step]], out: Path) -> list[Path]:
    """Run ``app`` headless; after each step save ``<name>.svg``."""
    written: list[Path] = []
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        for name, step in shots:
            await step(pilot)
            await _settle(pilot)
            written.append(out / f"{name}.svg")
            write_text(app.export_screenshot(), written[-1])
    return written


async def _settle(pilot: Pilot[int]) -> None:
    """Let the comparison worker, the pane's refresh and its tensor read finish."""
    from dumpscope.tui.app.widgets.tensor_pane import TensorPane

    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.03)
        if all(p.is_settled for p in pilot.app.screen.query(TensorPane)) and not pilot.app.workers:
            break
    await pilot.pause()


def _keys(*keys: str) -> Step:
    async def press(pilot: Pilot[int]) -> None:
        await pilot.press(*keys)

    return press


def _filter(text: str, *then: str) -> Step:
    async def apply(pilot: Pilot[int]) -> None:
        from textual.widgets import Input

        await pilot.press("slash")
        pilot.app.query_one("#filter", Input).value = text
        await pilot.pause()
        await pilot.press("enter", *then)

    return apply


async def demo_screenshots(out: Path) -> list[Path]:
    """The demo (fp16 Exp overflow in a streaming attention block), compared for real."""
    from dumpscope.core.onnx.demo import make_demo
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.feed import CompareRequest

    with tempfile.TemporaryDirectory(prefix="dumpscope-shots-") as tmp:
        paths = make_demo(Path(tmp) / "demo")
        app = DumpscopeApp(CompareRequest(paths.golden, paths.target, paths.model), theme=THEME)
        return await _shoot(
            app,
            [
                ("demo", _keys("f")),
                ("demo-neighbourhood", _keys("p", "p", "p", "p", "tab")),
                ("demo-tensor", _keys("p", "shift+tab", "enter", "pagedown")),
            ],
            out,
        )


async def generated_screenshots(out: Path) -> list[Path]:
    """A larger generated case (ResNet-like, 5000 tensors): list, filter + sort, help."""
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.tui.app.app import DumpscopeApp

    cmp = Comparison.from_frame(
        generated_frame(GENERATED_ROWS), meta={"golden": "resnet_fp32", "target": "resnet_fp16"}
    )
    app = DumpscopeApp(cmp, theme=THEME)
    return await _shoot(
        app,
        [
            ("layers", _keys("f")),
            ("filter-sort", _filter("op:conv health:bad", "s", "g")),
            ("help", _keys("question_mark")),
        ],
        out,
    )


async def three_way_screenshots(out: Path) -> list[Path]:
    """A three-way compare of two generated ports (fp16 and int8) against one golden, filtered to worse:B."""
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.threeway import ThreeWay, join_sides
    from dumpscope.tui.app.app import DumpscopeApp

    a = Comparison.from_frame(
        generated_frame(GENERATED_ROWS, seed=0), meta={"golden": "resnet_fp32", "target": "fp16"}
    )
    b = Comparison.from_frame(
        generated_frame(GENERATED_ROWS, seed=5), meta={"golden": "resnet_fp32", "target": "int8"}
    )
    threeway = ThreeWay(a, b, join_sides(a.frame, b.frame), ("fp16", "int8"))
    app = DumpscopeApp(threeway, theme=THEME)
    return await _shoot(app, [("three-way", _keys("f")), ("three-way-worse", _filter("worse:B"))], out)


async def no_color_screenshots(out: Path) -> list[Path]:
    """The generated case under NO_COLOR: unhealthy rows bold/reversed, the focused pane marked."""
    import os

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.tui.app.app import DumpscopeApp

    before = os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"
    try:
        cmp = Comparison.from_frame(
            generated_frame(GENERATED_ROWS), meta={"golden": "resnet_fp32", "target": "resnet_fp16"}
        )
        app = DumpscopeApp(cmp, theme=THEME)
        return await _shoot(app, [("no-color", _keys("f")), ("no-color-pane-focused", _keys("tab"))], out)
    finally:
        if before is None:
            os.environ.pop("NO_COLOR", None)
        else:
            os.environ["NO_COLOR"] = before


async def sigmastar_screenshots(out: Path, benchmark: Path, sample: Path) -> list[Path]:
    """A SigmaStar pair (float.sim vs fixed.sim): SigmaStar's MSE / RMSE columns, the first
    divergent layer and its records' type, scale and zero point in the tensor pane."""
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.feed import CompareRequest

    app = DumpscopeApp(CompareRequest(benchmark, sample, None), theme=THEME)
    return await _shoot(app, [("sigmastar", _keys("f"))], out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m screenshots.make", description=__doc__)
    parser.add_argument(
        "--out", type=Path, default=HERE, help="output directory (default: this folder, screenshots/)"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    written = [
        path
        for shots in (generated_screenshots, three_way_screenshots, no_color_screenshots, demo_screenshots)
        for path in asyncio.run(shots(args.out))
    ]
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
