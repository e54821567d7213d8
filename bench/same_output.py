"""Byte-identical outputs across a change: compare and diagnose JSON on the demo and on cached real models.

    python bench/same_output.py OUT_DIR                   # before the change: write the outputs
    python bench/same_output.py OUT_DIR2 --against OUT_DIR  # after it: write again, compare byte for byte

The demo's dumps are written once into ``OUT_DIR/demo-dumps`` (``dumpscope demo --out``; the run
with ``--against`` reads those, since the rows name their files); the
real-model pairs are the corpus cache's (``bench/realmodels``: PP-OCRv4 rec golden vs fp16, PP-OCRv4
det with a sign-flipped convolution), skipped with a note when that cache was not built.  Each pair
gives ``compare --format json`` with and without ``--model`` and ``diagnose --json``, plus the exit
codes.  With ``--against``, exit 1 when any file differs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realmodels.build import dumpscope_cmd  # noqa: E402
from bench.realmodels.models import cache_root  # noqa: E402


def _pairs(demo: Path) -> dict[str, tuple[Path, Path, Path]]:
    """name -> (golden, target, model) of every pair whose files are here."""
    corpus = cache_root() / "corpus"
    pairs = {
        "demo": (demo / "golden", demo / "target", demo / "model.onnx"),
        "rec-fp16": (
            corpus / "golden" / "ppocr-rec",
            corpus / "fp16" / "ppocr-rec",
            cache_root() / "models" / "ppocr-rec.onnx",
        ),
        "det-signflip": (
            corpus / "golden" / "ppocr-det",
            corpus / "cases" / "det-conv-signflip" / "target",
            corpus / "cases" / "det-conv-signflip" / "model.onnx",
        ),
    }
    found = {name: p for name, p in pairs.items() if all(x.exists() for x in p)}
    for name in pairs.keys() - found.keys():
        print(f"{name}: skipped (its dumps are not in {corpus}; python -m bench.realmodels builds them)")
    return found


def _write(out: Path, demo: Path) -> None:
    if not demo.exists():
        subprocess.run(
            [*dumpscope_cmd(), "demo", "--out", str(demo), "--headless"], capture_output=True, check=True
        )
    codes = []
    for name, (golden, target, model) in sorted(_pairs(demo).items()):
        runs = {
            "compare": ["compare", str(golden), str(target), "--model", str(model), "--format", "json"],
            "compare-no-model": ["compare", str(golden), str(target), "--format", "json"],
            "diagnose": ["diagnose", str(golden), str(target), "--model", str(model), "--json"],
        }
        for what, argv in runs.items():
            dest = out / f"{name}.{what}.json"
            done = subprocess.run([*dumpscope_cmd(), *argv, "-o", str(dest)], capture_output=True)
            codes.append(f"{name} {what} exit {done.returncode}\n")
    (out / "exit-codes.txt").write_text("".join(codes))


def _differences(out: Path, base: Path) -> list[str]:
    names = sorted(
        {p.name for p in out.glob("*.*") if p.is_file()} | {p.name for p in base.glob("*.*") if p.is_file()}
    )
    return [
        n
        for n in names
        if not (out / n).is_file()
        or not (base / n).is_file()
        or (out / n).read_bytes() != (base / n).read_bytes()
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--against", type=Path, help="an earlier OUT_DIR to compare with, byte for byte")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    # the rows name their files: the second run reads the first run's demo dumps, not new ones
    _write(args.out, (args.against or args.out) / "demo-dumps")
    if args.against is None:
        print(f"outputs in {args.out}")
        return 0
    differing = _differences(args.out, args.against)
    for name in differing:
        print(f"DIFFERS: {name}")
    print(f"{len(differing)} differing file(s) against {args.against}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
