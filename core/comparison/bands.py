"""Each row's band (which thresholds judge it), decided from the dumps' metadata before any data is read.

A row's band follows its own dtypes, its own quantised type, and the precision of the target run as a whole
(:func:`run_band`).  The workers need it too (a row's worst channel slice uses its band's absolute floor), and
they are forked before the frame's columns are built: so this module imports neither Polars nor the row table
(:mod:`.table` puts the bands decided here in its ``band`` column).
"""

from __future__ import annotations

from collections.abc import Sequence

from dumpscope.core.comparison import judge
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.dumps import Dump, TensorInfo

__all__ = ["record_band", "row_bands", "run_band"]


def row_bands(pairs: Sequence[Pair], th: Thresholds, run: str) -> list[str]:
    """Each pair's band: its dtypes, ``run`` (the run's precision, :func:`run_band`), its own quantised
    type."""
    known: dict[_BandFacts, str] = {}  # rows of the same kind share their band: asked once per kind
    bands = []
    for p in pairs:
        g = p.golden.info if p.golden is not None else None
        t = p.target.info if p.target is not None else None
        quantised = bool(t and t.extra and any(k.startswith("quant_") for k, _v in t.extra))
        facts = (g.dtype if g else None, t.dtype if t else None, quantised, record_band(t))
        band = known.get(facts)
        if band is None:
            band = known[facts] = _band(th, facts, run)
        bands.append(band)
    return bands


#: What decides a row's band: golden dtype, target dtype, quantised, its own quantised band.
_BandFacts = tuple[str | None, str | None, bool, str | None]


def _band(th: Thresholds, facts: _BandFacts, run: str) -> str:
    """The band of a row with these ``facts`` (golden dtype, target dtype, quantised, its own quantised
    band)."""
    gd, td, quantised, qband = facts
    return th.band_for(gd, td, quantised, qband or run, qband or "int8")


def record_band(info: TensorInfo | None) -> str | None:
    """The band a record's own quantised type asks for (SigmaStar: SGS_U8/S8 -> int8,
    SGS_S16 -> int16), or None when the record does not say."""
    qdtype = dict(info.extra).get("quant_dtype") if info is not None and info.extra else None
    if qdtype is None:
        return None
    return "int16" if qdtype in ("int16", "uint16") else "int8" if qdtype in ("int8", "uint8") else None


def run_band(target: Dump) -> str:
    """The precision of the target run: its least precise *float* activations, or int8
    when the run is quantised (a manifest that says so, or quantisation parameters).

    Integer activations do not count: one int8 tensor (an index, a mask, one quantised
    head) must not move every float row of an fp32 run to the int8 band.
    """
    manifest = target.meta.get("manifest")
    quantised = isinstance(manifest, dict) and manifest.get("target") == "int8"
    quantised = quantised or target.meta.get("quantised") is True  # a vendor run that says so (RKNN int8)
    quantised = quantised or any(
        k.startswith("quant_") for ref in target.tensors.values() for k, _v in ref.info.extra
    )
    floats = [
        d
        for ref in target.tensors.values()
        if ref.info.kind == "activation" and _is_float(d := ref.info.dtype)
    ]
    # a vendor run that computed in float16 but wrote float32 files (RKNN's fp16 simulator)
    computed = target.meta.get("computed_dtype")
    if computed is None and isinstance(manifest, dict):
        computed = manifest.get("computed_dtype")
    if isinstance(computed, str) and _is_float(computed):
        floats.append(computed)
    return judge.precision_band(floats, quantised)


def _is_float(dtype: str | None) -> bool:
    return dtype is not None and (dtype.startswith("float") or dtype == "bfloat16")
