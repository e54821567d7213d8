"""The app on a SigmaStar pair: SigmaStar's columns, the comparison's stage, the records' quantisation."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.formats.sigmastar import SgsTensor, write_sigmastar
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.widgets.tensor_pane import TensorPane
from tests.support.tui import SIZE, pane_text, screen_text, settle


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    vals = [rng.standard_normal((1, 4, 4, 8)).astype(np.float32) for _ in range(3)]
    noisy = [v + np.float32(0.05) * rng.standard_normal(v.shape).astype(np.float32) for v in vals]
    types = [("SGS_U8", 0.03, 128), ("SGS_S16", 0.0002, 0), ("SGS_S16", 0.0002, 0)]
    f = write_sigmastar(
        tmp_path / "float.bin", [SgsTensor(f"t{k}", v, f"op{k}", k) for k, v in enumerate(vals)], True
    )
    q = write_sigmastar(
        tmp_path / "fixed.bin",
        [
            SgsTensor(f"t{k}", v, f"op{k}", k, sgs_type=t, scale=s, zero_point=z)
            for k, (v, (t, s, z)) in enumerate(zip(noisy, types, strict=False))
        ],
        True,
    )
    return f, q


async def test_sigmastar_pair_on_screen(tmp_path: Path) -> None:
    app = DumpscopeApp(compare(*_pair(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "RMSE(S)" in text and "float.sim vs fixed.sim (SigmaStar IPU guide §3)" in text
        pane = pane_text(app.screen.query_one(TensorPane))
        assert "qtype" in pane and "SGS_S16" in pane and "0.0002" in pane and "RMSE (SigmaStar)" in pane


async def test_stage_chosen_on_the_command_line_is_shown(tmp_path: Path) -> None:
    from dumpscope.tui.app.feed import CompareRequest

    f, q = _pair(tmp_path)
    app = DumpscopeApp(CompareRequest(f, q, stage="fixed-offline"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "fixed.sim vs offline/board outputs (SigmaStar IPU guide §4)" in screen_text(app)
