"""SigmaStar's three comparisons (SigmaStar IPU guide §2-§4) and which one a pair of dumps is.

* ``framework-float``: the framework model (onnx/caffe/tflite dump, or any non-SigmaStar
  dump) vs float.sim -- first, because quantisation is only worth reading once the float
  model matches (§2);
* ``float-fixed``: float.sim vs fixed.sim, where quantisation loses precision (§3);
* ``fixed-offline``: fixed.sim vs the offline model or the board, compared on the
  ``log/output`` folders the simulator writes (§4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

STAGES: dict[str, str] = {
    "framework-float": "framework vs float.sim (SigmaStar IPU guide §2)",
    "float-fixed": "float.sim vs fixed.sim (SigmaStar IPU guide §3)",
    "fixed-offline": "fixed.sim vs offline/board outputs (SigmaStar IPU guide §4)",
}
STAGE_NOTES: dict[str, str] = {
    "framework-float": "the float model must match the framework before quantisation is worth reading",
    "float-fixed": "read once framework vs float.sim matches (§2); losses here are quantisation",
    "fixed-offline": "fixed.sim and the offline model should agree; a board that differs from the offline "
    "simulation points at the board-side demo or pre-processing (§4.2)",
}
_FRAMEWORK_FILES = ("onnx_", "caffe_", "tflite_")


def side_kind(dump: object) -> str:
    """``framework``, ``float``, ``fixed`` or ``output`` (a simulator log/output folder)."""
    fmt = str(getattr(dump, "format", ""))
    if fmt == "sgs-output":
        return "output"
    if fmt != "sigmastar":
        return "framework"
    return _sigmastar_side(dump)


def _sigmastar_side(dump: object) -> str:
    """A SigmaStar dump: a framework-side file by its name, else fixed when a record is quantised."""
    name = Path(str(getattr(dump, "meta", {}).get("file", getattr(dump, "path", "")))).name
    if name.startswith(_FRAMEWORK_FILES):
        return "framework"
    tensors = getattr(dump, "tensors", {}).values()
    return "fixed" if any(k == "quant_dtype" for ref in tensors for k, _v in ref.info.extra) else "float"


def detect_stage(golden: object, target: object) -> str | None:
    """Which of the three comparisons ``golden`` vs ``target`` is (None: not a SigmaStar pair)."""
    kinds = {side_kind(golden), side_kind(target)}
    if not _has_sigmastar_side(golden, target):
        return None
    if "output" in kinds or kinds == {"fixed"}:
        return "fixed-offline"
    return "float-fixed" if "fixed" in kinds else "framework-float"


def _has_sigmastar_side(golden: object, target: object) -> bool:
    return bool({str(getattr(d, "format", "")) for d in (golden, target)} & {"sigmastar", "sgs-output"})


def stage_line(stage: str | None) -> str | None:
    """``comparison: <name> -- <note>`` for output, or None."""
    if stage not in STAGES:
        return None
    return f"comparison: {STAGES[stage]} -- {STAGE_NOTES[stage]}"


class _Formats(Protocol):
    """The two formats a comparison's meta names (a vendor module imports no comparison)."""

    @property
    def golden_format(self) -> str | None: ...
    @property
    def target_format(self) -> str | None: ...


def both_sigmastar(meta: _Formats) -> bool:
    """Both sides of a comparison are SigmaStar dumps (its listing's MSE/COS/RMSE are the columns to show)."""
    return {meta.golden_format, meta.target_format} <= {"sigmastar", "sgs-output"}


def quant_facts(info: object | None) -> tuple[str, str, str] | None:
    """(type, scale, zero point) of a record as ``save_quant_param.py`` shows them
    (SigmaStar's ``SGS_U8``/``SGS_S16``..., else the generic ``quant_*`` facts); None when unknown."""
    extra = dict(getattr(info, "extra", ()) or ())
    qtype = extra.get("sgs_type") or extra.get("quant_dtype")
    if qtype is None:
        return None
    return (
        str(qtype),
        str(extra.get("quant_scale", extra.get("scale", "·"))),
        str(extra.get("quant_zero_point", extra.get("zero_point", "·"))),
    )
