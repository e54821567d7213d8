"""Write the real noise the log scan's stress test buries messages in: tools' own verbose logs.

    .venv/bin/python bench/make_scan_noise.py

Each file of ``tests/data/explain/scan_noise/`` is what a tool printed here, run on the real models of
``~/.cache/dumpscope/realmodels`` (bench/realmodels fetches them):

* ``ort_verbose_*.log``: onnxruntime 1.32's session and run with ``log_severity_level=0`` (every verbose,
  info and warning line of graph transformers, QDQ selectors, allocation planning, the run);
* ``ort_mobile_*.log``: ``python -m onnxruntime.tools.check_onnx_model_mobile_usability --log_level debug``
  (whole paragraphs of "Unsupported ops", "should be constant", "is not recommended" at INFO level);
* ``ort_shape_infer.log``: onnxruntime's symbolic shape inference at ``--verbose 3`` (needs sympy; it is
  installed, cached, into ``~/.cache/dumpscope/scan_noise/site`` with pip when absent);
* ``ort_quantize.log``: onnxruntime's dynamic quantization with Python logging at DEBUG (``WARNING:root:``
  advice, one ``INFO:root: ... not specified`` line per tensor);
* ``fp16_convert.log``: onnxconverter-common's float16 conversion with every Python warning shown (values
  truncated to float16's range);
* ``onnx_tools.log``: the onnx package's checker and shape inference, run by a script that prints what they
  return, with Python's ``warnings`` at their default format;
* ``rknn_toolkit2.log``: RKNN-Toolkit2 2.5.0's own log of a build and an accuracy analysis on the PP-OCR
  classifier (copied from ``../shared/samples/rknn/run_log.txt``, made by its ``make_rknn.py``): pip's lines,
  the toolkit's ``I``/``W`` records, its option dump and its per-layer error table (``[Conv] name  0.99 |
  1.3``); its ``E RKNN:`` records and a ``W build:`` record that reports the onnx checker's failure are left
  out (kept only when ../shared is there);
* ``banners.log`` is not generated: TensorRT/trtexec, Polygraphy and Ascend ATC/plog lines at VERBOSE, INFO
  and WARNING level, written from the formats those tools document (``[MM/DD/YYYY-HH:MM:SS] [V] [TRT] ...``,
  Polygraphy's ``[I] ... | PASSED``, plog's ``[INFO] GE(pid,atc.bin):date [file.cc:N]tid ...``).
* ``lookalikes.log`` is not generated either: lines whose error words report no failure, in the forms tools
  and scripts print them (Polygraphy's comparison report with its ``Error Metrics``, msbuild's ``0 Error(s)``
  summary, a Keras progress line with ``mean_absolute_error``, numpy's and torch.onnx's warnings with their
  source lines, TensorRT's FP16 weight warnings, TensorFlow's ``W`` line naming ``CUDA_ERROR_NO_DEVICE``,
  metrics such as ``error rate 23.87%`` and ``Error: 0.000211``, a table with an ``errors`` column, a config
  dict with ``on_error``, an ``except RuntimeError:`` source line): the log scan must report none of them
  as an error (the warnings an entry is written for are counted apart, as in the other files).

Error-level lines (``[E:onnxruntime:...]``, a run's exception) are left out: a real error in the noise is
not noise.  The files are committed; the tests read them and never run this script.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from dumpscope.core.atomic import write_text

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "explain" / "scan_noise"
CACHE = Path.home() / ".cache" / "dumpscope"
MODELS = CACHE / "realmodels" / "models"
CORPUS = CACHE / "realmodels" / "corpus" / "cases"
SITE = CACHE / "scan_noise" / "site"
MAX_LINES = 400
"""Lines kept per file (its head: the session's start and the first run)."""
ERROR_LINE = re.compile(r"\[E:onnxruntime|^RUNFAIL")
RKNN_LOG = ROOT.parent / "shared" / "samples" / "rknn" / "run_log.txt"
RKNN_ERROR = re.compile(r"^E |^W \w+: .*\bfail")
"""An RKNN-Toolkit2 record that reports a failure: its error level, or a failure it logs as a warning."""

ORT_RUN = r"""
import sys, numpy as np, onnxruntime as ort
so = ort.SessionOptions(); so.log_severity_level = 0; so.log_verbosity_level = 1
s = ort.InferenceSession(sys.argv[1], so, providers=["CPUExecutionProvider"])
types = {"tensor(float)": np.float32, "tensor(int64)": np.int64, "tensor(float16)": np.float16}
feeds = {i.name: np.zeros([d if isinstance(d, int) else 32 for d in i.shape], types.get(i.type, np.float32))
         for i in s.get_inputs()}
ro = ort.RunOptions(); ro.log_severity_level = 0; ro.log_verbosity_level = 1
try:
    s.run(None, feeds, ro)
except Exception as e:
    print("RUNFAIL", type(e).__name__, file=sys.stderr)
"""

ONNX_TOOLS = r"""
import sys, warnings, onnx
from onnx import checker, shape_inference
warnings.simplefilter("always")
for path in sys.argv[1:]:
    m = onnx.load(path)
    print(f"checking {path}: opset {[o.version for o in m.opset_import]}, ir_version {m.ir_version}")
    checker.check_model(m, full_check=True)
    print("check_model: the model is valid (no errors)")
    inferred = shape_inference.infer_shapes(m, check_type=True, strict_mode=False)
    print(f"infer_shapes: {len(inferred.graph.value_info)} value infos, {len(m.graph.node)} nodes")
    warnings.warn(f"{path}: opset {m.opset_import[0].version} is not the latest; some ops may be deprecated")
"""


QUANTIZE = r"""
import logging, sys, warnings
logging.basicConfig(level=logging.DEBUG)
warnings.simplefilter("always")
from onnxruntime.quantization import QuantType, quantize_dynamic
quantize_dynamic(sys.argv[1], "quantized.onnx", weight_type=QuantType.QInt8)
"""

FP16 = r"""
import sys, warnings
warnings.simplefilter("always")
import onnx
from onnxconverter_common import float16
model = float16.convert_float_to_float16(onnx.load(sys.argv[1]), keep_io_types=True)
print(f"converted: {len(model.graph.node)} nodes, keep_io_types=True")
"""


def run(args: list[str], env: dict[str, str] | None = None) -> str:
    """What the command printed (run in a scratch folder: shape inference leaves a temporary model behind)."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            args, capture_output=True, text=True, timeout=600, env=env, cwd=tmp, check=False
        )
    return done.stdout + done.stderr


def keep(text: str) -> str:
    """The head of a tool's output without its error lines and tracebacks (a traceback runs from its
    header to the first unindented line, which is its exception)."""
    lines: list[str] = []
    in_traceback = False
    for line in text.splitlines():
        if line.startswith("Traceback (most recent call last)"):
            in_traceback = True
        elif in_traceback and not line.startswith(" "):
            in_traceback = False
        elif not in_traceback and not ERROR_LINE.search(line):
            lines.append(line)
    return "\n".join(lines[:MAX_LINES]) + "\n"


def keep_rknn(text: str) -> str:
    """RKNN-Toolkit2's log without the records that report a failure (:data:`RKNN_ERROR`) and their
    continuation lines (the lines below them that start no record of the toolkit's: ``I ``, ``W ``...)."""
    lines: list[str] = []
    in_error = False
    for line in text.splitlines():
        if RKNN_ERROR.search(line):
            in_error = True
        elif in_error and re.match(r"[IWD] ", line):
            in_error = False
        if not in_error:
            lines.append(line)
    return "\n".join(lines[:MAX_LINES]) + "\n"


def ensure_sympy() -> dict[str, str]:
    """An environment where sympy imports (installed once, cached, when the venv lacks it)."""
    env = dict(os.environ)
    if subprocess.run([sys.executable, "-c", "import sympy"], capture_output=True, check=False).returncode:
        if not (SITE / "sympy").exists():
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--target", str(SITE), "sympy"], check=True
            )
        env["PYTHONPATH"] = str(SITE)
    return env


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ort_models = {
        "yolov8n": MODELS / "yolov8n.onnx",
        "ppocr_rec": MODELS / "ppocr-rec.onnx",
        "silero_vad": MODELS / "silero-vad.onnx",
        "qdq_cls": CORPUS / "cls-quantize-static-qdq" / "model.onnx",
        "dyn_quant_det": CORPUS / "det-quantize-dynamic" / "model.onnx",
    }
    for name, path in ort_models.items():
        write_text(keep(run([sys.executable, "-c", ORT_RUN, str(path)])), OUT / f"ort_verbose_{name}.log")
    for name in ("yolov8n", "ppocr-det"):
        mobile = [sys.executable, "-m", "onnxruntime.tools.check_onnx_model_mobile_usability"]
        text = run([*mobile, "--log_level", "debug", str(MODELS / f"{name}.onnx")])
        write_text(keep(text), OUT / f"ort_mobile_{name.replace('-', '_')}.log")
    shape = [sys.executable, "-m", "onnxruntime.tools.symbolic_shape_infer", "--verbose", "3"]
    model = str(MODELS / "ppocr-det.onnx")
    text = run([*shape, "--auto_merge", "--input", model, "--output", os.devnull], ensure_sympy())
    write_text(keep(text), OUT / "ort_shape_infer.log")
    quantize = run([sys.executable, "-c", QUANTIZE, str(MODELS / "ppocr-cls.onnx")])
    write_text(keep(quantize), OUT / "ort_quantize.log")
    write_text(
        keep(run([sys.executable, "-c", FP16, str(MODELS / "ppocr-det.onnx")])), OUT / "fp16_convert.log"
    )
    paths = [str(MODELS / "ppocr-cls.onnx"), str(CORPUS / "cls-quantize-static-qdq" / "model.onnx")]
    write_text(keep(run([sys.executable, "-c", ONNX_TOOLS, *paths])), OUT / "onnx_tools.log")
    if RKNN_LOG.exists():
        write_text(keep_rknn(RKNN_LOG.read_text(encoding="utf-8")), OUT / "rknn_toolkit2.log")
    for f in sorted(OUT.glob("*.log")):
        print(f"{f.name}: {f.read_text().count(chr(10))} lines")


if __name__ == "__main__":
    main()
