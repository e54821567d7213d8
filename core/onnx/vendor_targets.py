"""Target dumps made by the vendors' own toolchains (``dumpscope dump --target rknn-int8`` ...).

Each toolkit is an optional extra, never part of the default install: when it is missing the
command says so in one line with the pip command (:func:`missing_toolkit`).

* ``rknn-int8`` / ``rknn-fp16``: Rockchip RKNN-Toolkit2 (``pip install 'dumpscope[rknn]'``).
  ``load_onnx`` with the inputs' shapes, ``build(do_quantization=...)`` for ``rk3588`` (int8
  calibrated on the dump's own inputs), then ``accuracy_analysis(target=None)``: the vendor's
  simulator writes its snapshot (``golden/``, ``simulator/``, ``error_analysis.txt``...) into
  the output folder itself, which dumpscope reads as an RKNN snapshot
  (:mod:`dumpscope.core.formats.rknn_snapshot`) with the true names and fused groups.
  ``rknn_target.json`` records what was run.  No normalisation is configured: the toolkit is
  fed exactly the values the golden dump is fed.
* ``openvino-int8``: OpenVINO + NNCF (``pip install 'dumpscope[openvino]'``).  The model is
  quantised by ``nncf.quantize`` (FakeQuantize nodes; calibrated on the dump's own inputs), every
  op's output is exposed with ``add_outputs`` and the model runs once on the CPU with an f32
  inference-precision hint; tensors whose OpenVINO names include an ONNX tensor name are
  written under that name as a dumpscope manifest dump, with the FakeQuantize parameters
  (scale, zero point from ``input_low``/``input_high``/``levels``) on the tensors they quantise.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dumpscope.core.atomic import write_text
from dumpscope.core.dumps import DumpError

VENDOR_TARGETS: tuple[str, ...] = ("rknn-int8", "rknn-fp16", "openvino-int8")
#: Target -> (modules that must import, what to install).
_NEEDS: dict[str, tuple[tuple[str, ...], str]] = {
    "rknn-int8": (("rknn",), "pip install 'dumpscope[rknn]' (RKNN-Toolkit2 2.x; it pulls torch, ~5.6 GB)"),
    "rknn-fp16": (("rknn",), "pip install 'dumpscope[rknn]' (RKNN-Toolkit2 2.x; it pulls torch, ~5.6 GB)"),
    "openvino-int8": (("openvino", "nncf"), "pip install 'dumpscope[openvino]' (OpenVINO + NNCF, ~560 MB)"),
}
#: Python module -> the package a user knows it by.
_PACKAGE = {"rknn": "RKNN-Toolkit2 (module rknn)", "openvino": "OpenVINO", "nncf": "NNCF"}
RKNN_PLATFORM = "rk3588"
RKNN_RECORD = "rknn_target.json"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing_toolkit(target: str) -> str | None:
    """One line naming the toolkit ``target`` needs and the pip command, when it is not installed."""
    modules, pip = _NEEDS[target]
    absent = [m for m in modules if not _installed(m)]
    if not absent:
        return None
    what = " and ".join(_PACKAGE.get(m, m) for m in absent)
    return f"--target {target} needs {what}, which is not installed: {pip}"


def dump_vendor(
    model: str | Path,
    out_dir: str | Path,
    *,
    target: str,
    inputs: Sequence[str] | None = None,
    input_shapes: str | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Run ``model`` through the vendor toolchain of ``target`` and write its dump to ``out_dir``;
    return what was recorded (``notes``: lines to show)."""
    if target not in VENDOR_TARGETS:
        raise DumpError(f"unknown vendor target {target!r} (known: {', '.join(VENDOR_TARGETS)})")
    missing = missing_toolkit(target)
    if missing is not None:
        raise DumpError(missing)
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.runner import (
        _given_files,
        _given_shapes,
        load_model,
        resolve_inputs,
        save_inputs,
        staged_out_dir,
    )

    proto, _source_dir, model_path, model_sha = load_model(str(model))
    assert model_path is not None and model_sha is not None, "a model read from a file has both"
    facts = graph_facts(proto.graph)
    model_inputs = resolve_inputs(
        proto.graph, facts, _given_files(inputs, facts.graph_inputs), _given_shapes(input_shapes), seed
    )
    with staged_out_dir(Path(out_dir)) as out:
        saved = save_inputs(out, model_inputs)
        files = [out / e["file"] for e in saved]
        if target.startswith("rknn-"):
            record = _dump_rknn(Path(model_path), out, model_inputs, files, quantise=target == "rknn-int8")
        else:
            record = _dump_openvino(Path(model_path), out, model_inputs, saved, facts, model_sha, seed)
        record.update(target=target, model=model_path, model_sha256=model_sha, seed=seed, inputs=saved)
        if target.startswith("rknn-"):
            write_text(json.dumps(record, indent=1, default=str), out / RKNN_RECORD)
    return record


# ------------------------------------------------------------------------------------------- RKNN


def _dump_rknn(
    model: Path, out: Path, model_inputs: Sequence[Any], files: list[Path], quantise: bool
) -> dict[str, Any]:
    from rknn.api import RKNN

    names = [i.name for i in model_inputs]
    shapes = [list(i.array.shape) for i in model_inputs]
    dataset = out / "inputs" / "rknn_dataset.txt"
    write_text(" ".join(str(f) for f in files) + "\n", dataset)
    rknn = RKNN(verbose=False)
    try:
        _rknn_step("config", rknn.config(target_platform=RKNN_PLATFORM))
        _rknn_step("load_onnx", rknn.load_onnx(model=str(model), inputs=names, input_size_list=shapes))
        _rknn_step("build", rknn.build(do_quantization=quantise, dataset=str(dataset) if quantise else None))
        dataset.unlink()  # it names the staging folder's paths
        analysed = rknn.accuracy_analysis(inputs=[str(f) for f in files], output_dir=str(out), target=None)
        _rknn_step("accuracy_analysis", analysed)
    finally:
        rknn.release()
    notes = [
        f"RKNN-Toolkit2 {_version('rknn-toolkit2')}: {RKNN_PLATFORM} simulator, "
        + (
            "int8 (do_quantization=True, calibrated on this dump's own input: one sample; pass a "
            "representative set through the toolkit for a real calibration)"
            if quantise
            else "fp16 (do_quantization=False)"
        )
    ]
    return {
        "toolkit": f"rknn-toolkit2 {_version('rknn-toolkit2')}",
        "platform": RKNN_PLATFORM,
        "do_quantization": quantise,
        "notes": notes,
    }


def _rknn_step(step: str, ret: object) -> None:
    if ret != 0:
        raise DumpError(f"RKNN-Toolkit2 {step} failed (ret={ret}); the toolkit's log above says why")


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------------------- OpenVINO

#: Op types whose outputs are not activations (not exposed).
_NOT_ACTIVATIONS = frozenset({"Parameter", "Constant", "Result"})


def _dump_openvino(
    model: Path,
    out: Path,
    model_inputs: Sequence[Any],
    saved: list[dict[str, Any]],
    facts: Any,
    model_sha: str,
    seed: int,
) -> dict[str, Any]:
    import nncf
    import openvino as ov

    from dumpscope.core.onnx.runner import manifest_header, tensor_entry, write_manifest

    core = ov.Core()
    ov_model = core.read_model(str(model))
    feeds = {i.name: np.asarray(i.array) for i in model_inputs}
    ov_model.reshape({name: list(arr.shape) for name, arr in feeds.items()})
    quantised = nncf.quantize(ov_model, nncf.Dataset([feeds]), subset_size=1)
    fq = _fake_quantize_params(quantised)
    _expose_all(quantised)
    compiled = core.compile_model(quantised, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    result = compiled.infer_new_request(feeds)
    onnx_names = set(facts.producer) | set(facts.graph_inputs)
    entries = [
        {
            **tensor_entry(facts, e["name"], "input"),
            "file": e["file"],
            "dtype": e["dtype"],
            "shape": e["shape"],
        }
        for e in saved
    ]
    written = {e["name"] for e in saved}
    unnamed = 0
    for port in compiled.outputs:
        name = next((n for n in sorted(port.get_names()) if n in onnx_names), None)
        if name is None:
            unnamed += 1
            continue
        if name in written:
            continue
        arr = np.asarray(result[port])
        entry = tensor_entry(facts, name, "activation")
        rel = _save(out, name, arr)
        entry.update(file=rel, dtype=str(arr.dtype), shape=list(arr.shape))
        if name in fq:
            entry["quant"] = fq[name]
        entries.append(entry)
        written.add(name)
    caps = _cpu_capabilities(core)
    notes = [
        f"OpenVINO {ov.__version__} + NNCF {nncf.__version__}: int8 (nncf.quantize, {len(fq)} "
        "FakeQuantize on activations, calibrated on this dump's own input: one sample); every op's "
        f"output exposed with add_outputs; run on the CPU with INFERENCE_PRECISION_HINT f32 ({caps})",
        f"{unnamed} exposed outputs carry no ONNX tensor name (FakeQuantize and other OpenVINO-made "
        "ops): not written",
    ]
    manifest = {
        **manifest_header(str(model), model_sha, "openvino-int8", seed),
        "producer": f"openvino {ov.__version__}, nncf {nncf.__version__}",
        "inputs": saved,
        "tensors": entries,
        "nodes": [],
        "clamped": [],
        "notes": notes,
        "ort_runs": 0,
    }
    write_manifest(out, manifest)
    return {
        "toolkit": f"openvino {ov.__version__}, nncf {nncf.__version__}",
        "notes": notes,
        "tensors": len(entries),
    }


def _save(out: Path, name: str, arr: np.ndarray) -> str:
    from dumpscope.core.atomic import atomic_binary
    from dumpscope.core.names import to_filename

    rel = to_filename(name)
    with atomic_binary(out / rel) as fh:
        np.save(fh, arr, allow_pickle=False)
    return rel


def _expose_all(model: Any) -> None:
    """Every activation output as a model output (a Result sharing its tensor names)."""
    model.add_outputs(
        [
            out
            for op in model.get_ordered_ops()
            if op.get_type_name() not in _NOT_ACTIVATIONS
            for out in op.outputs()
        ]
    )


def _fake_quantize_params(model: Any) -> dict[str, dict[str, object]]:
    """The per-tensor FakeQuantize on each activation: its ONNX tensor name -> scale, zero point, dtype."""
    params: dict[str, dict[str, object]] = {}
    for op in model.get_ordered_ops():
        if op.get_type_name() != "FakeQuantize":
            continue
        source = op.input(0).get_source_output()
        if source.get_node().get_type_name() == "Constant":
            continue  # a weight's quantiser
        low, high = (_constant(op.input(k).get_source_output()) for k in (1, 2))
        levels = int(op.get_attributes().get("levels", 256))
        if low is None or high is None or low.size != 1 or high.size != 1 or levels < 2:
            continue
        scale = (float(high.ravel()[0]) - float(low.ravel()[0])) / (levels - 1)
        if scale <= 0:
            continue
        zero = int(round(-float(low.ravel()[0]) / scale))
        signed = float(low.ravel()[0]) < 0 and zero == (levels // 2)
        dtype = "int8" if signed else "uint8"
        zp = zero - (levels // 2) if signed else zero
        for name in source.get_names():
            params[name] = {"scale": scale, "zero_point": zp, "dtype": dtype}
    return params


def _constant(output: Any) -> np.ndarray | None:
    node = output.get_node()
    if node.get_type_name() != "Constant":
        return None
    return np.asarray(node.get_data())


def _cpu_capabilities(core: Any) -> str:
    """This CPU's reduced-precision support, as OpenVINO reports it (bf16/f16 hints are ignored
    without it)."""
    try:
        caps = list(core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    except Exception:  # noqa: BLE001 - a missing property is a note, never a failure
        return "capabilities unknown"
    reduced = [c for c in caps if c in ("BF16", "FP16")]
    if reduced:
        return f"this CPU also runs {'/'.join(reduced)}"
    return "this CPU has no BF16/FP16 instructions: bf16/f16 inference hints would be ignored and run in f32"
