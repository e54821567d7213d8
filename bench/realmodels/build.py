"""Dumps for the corpus, made with the product's own ``dumpscope dump`` CLI and cached.

A dump directory is rebuilt only when its ``.corpus-done`` marker is missing or holds
another :data:`RECIPE` (bump it when a case recipe changes).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.realmodels.models import MODELS, model_path

RECIPE = "1"
DUMP_TIMEOUT_S = 300


class BuildError(RuntimeError):
    """A dump could not be made (the message holds the CLI's last line)."""


def dumpscope_cmd() -> list[str]:
    """How to call the product CLI from this interpreter."""
    return [sys.executable, "-m", "dumpscope"]


@dataclass
class Builder:
    """Makes and caches the dumps of the cases under ``root``; records seconds spent dumping."""

    root: Path
    dump_seconds: float = 0.0
    made: list[str] = field(default_factory=list)

    def fresh(self, out: Path) -> bool:
        """True when ``out`` was built by this recipe version."""
        marker = out / ".corpus-done"
        return marker.is_file() and marker.read_text() == RECIPE

    def dump(
        self,
        model: Path,
        out: Path,
        shapes: str,
        inputs: dict[str, Path] | None = None,
        target: str | None = None,
    ) -> Path:
        """``dumpscope dump MODEL -o OUT`` (cached); inputs are NAME -> .npy files."""
        if self.fresh(out):
            return out
        if out.exists():
            shutil.rmtree(out)
        cmd = [*dumpscope_cmd(), "dump", str(model), "-o", str(out)]
        if shapes:
            cmd += ["--input-shape", shapes]
        for name, path in (inputs or {}).items():
            cmd += ["--input", f"{name}={path}"]
        if target:
            cmd += ["--target", target]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=DUMP_TIMEOUT_S, check=False)
        self.dump_seconds += time.perf_counter() - start
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"exit {done.returncode}"]
            raise BuildError(f"dumpscope dump {model.name} failed: {tail[0]}")
        self.mark(out)
        return out

    def mark(self, out: Path) -> None:
        """Record ``out`` as complete for this recipe version."""
        (out / ".corpus-done").write_text(RECIPE)
        self.made.append(out.name)

    def golden(self, key: str) -> Path:
        """The golden dump of corpus model ``key`` with generated inputs (seed 0)."""
        return self.dump(model_path(key), self.root / "golden" / key, MODELS[key].shapes)

    def recipe(self, key: str, target: str) -> Path:
        """A ``--target`` recipe dump of model ``key`` fed the golden dump's very inputs."""
        golden = self.golden(key)
        return self.dump(
            model_path(key), self.root / target / key, MODELS[key].shapes, self.inputs_of(golden), target
        )

    def inputs_of(self, dump: Path) -> dict[str, Path]:
        """NAME -> .npy of the inputs saved in a dump (``inputs/``)."""
        import json

        manifest = json.loads((dump / "manifest.json").read_text())
        return {e["name"]: dump / e["file"] for e in manifest["inputs"]}

    def case_dir(self, case: str) -> Path:
        """Scratch directory of one case."""
        path = self.root / "cases" / case
        path.mkdir(parents=True, exist_ok=True)
        return path
