"""A task's rows are read inside :func:`~dumpscope.core.formats.npyfile.read_ahead` with every file the
task reads whole: a read that misses the page cache has the kernel fetch the task's next tensors while
this one is compared (the mechanism itself: tests/core/formats/test_scale_readers.py)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.comparison import rows
from dumpscope.core.comparison.pipeline import compare


@pytest.mark.parametrize("workers", [1, 2])
def test_every_task_reads_inside_read_ahead_of_its_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    rng = np.random.default_rng(0)
    for i in range(20):
        a = rng.standard_normal(50_000, dtype=np.float32)  # 200 KB: read whole by the task, not kept
        np.save(g / f"l{i:02d}.npy", a)
        np.save(t / f"l{i:02d}.npy", a.astype(np.float16))
    seen: list[str] = []
    real = rows.read_ahead

    @contextmanager
    def recording(paths):  # type: ignore[no-untyped-def]
        seen.extend(str(p) for p in paths)
        with real(paths):
            yield

    monkeypatch.setattr(rows, "read_ahead", recording)
    result = compare(g, t, workers=workers)
    assert len(result.frame) == 20
    want = sorted(str(d / f"l{i:02d}.npy") for d in (g, t) for i in range(20))
    if workers == 1:
        assert sorted(seen) == want
    else:  # this process's own tasks (the forked worker's list stays in its process)
        assert set(seen) <= set(want) and len(seen) % 2 == 0
