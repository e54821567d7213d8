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
* ``openvino-fp16``: the same float model run with an f16 inference-precision hint.  OpenVINO
  ignores that hint without a word on a CPU without FP16 instructions and runs f32, which would
  compare f32 with f32: the dump is refused unless the CPU reports FP16 in its
  ``OPTIMIZATION_CAPABILITIES`` and the compiled model reports f16 back (:func:`precision_refusal`).
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

VENDOR_TARGETS: tuple[str, ...] = ("rknn-int8", "rknn-fp16", "openvino-int8", "openvino-fp16", "ncnn")
#: Target -> (modules that must import, what to install).
_NEEDS: dict[str, tuple[tuple[str, ...], str]] = {
    "rknn-int8": (("rknn",), "pip install 'dumpscope[rknn]' (RKNN-Toolkit2 2.x; it pulls torch, ~5.6 GB)"),
    "rknn-fp16": (("rknn",), "pip install 'dumpscope[rknn]' (RKNN-Toolkit2 2.x; it pulls torch, ~5.6 GB)"),
    "openvino-int8": (("openvino", "nncf"), "pip install 'dumpscope[openvino]' (OpenVINO + NNCF, ~560 MB)"),
    "openvino-fp16": (("openvino",), "pip install 'dumpscope[openvino]' (OpenVINO + NNCF, ~560 MB)"),
    "ncnn": (("ncnn", "pnnx"), "pip install 'dumpscope[ncnn]' (ncnn + the pnnx converter, ~60 MB; no torch)"),
}
#: Python module -> the package a user knows it by.
_PACKAGE = {"rknn": "RKNN-Toolkit2 (module rknn)", "openvino": "OpenVINO", "nncf": "NNCF", "pnnx": "pnnx"}
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
    from dumpscope.core.onnx.inputs import given_files, given_shapes, resolve_inputs, save_inputs
    from dumpscope.core.onnx.out_dir import staged_out_dir
    from dumpscope.core.onnx.runner import load_model

    proto, _source_dir, model_path, model_sha = load_model(str(model))
    assert model_path is not None and model_sha is not None, "a model read from a file has both"
    facts = graph_facts(proto.graph)
    model_inputs = resolve_inputs(
        proto.graph, facts, given_files(inputs, facts.graph_inputs), given_shapes(input_shapes), seed
    )
    with staged_out_dir(Path(out_dir)) as out:
        saved = save_inputs(out, model_inputs)
        files = [out / e["file"] for e in saved]
        if target.startswith("rknn-"):
            record = _dump_rknn(Path(model_path), out, model_inputs, files, quantise=target == "rknn-int8")
        elif target == "ncnn":
            record = _dump_ncnn(Path(model_path), out, model_inputs, saved, facts, model_sha, seed)
        else:
            record = _dump_openvino(
                Path(model_path), out, model_inputs, saved, facts, model_sha, seed, target
            )
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
    target: str = "openvino-int8",
) -> dict[str, Any]:
    import openvino as ov

    from dumpscope.core.onnx.manifest import manifest_header, tensor_entry, write_manifest

    core = ov.Core()
    half = target == "openvino-fp16"
    caps = _cpu_capabilities(core)
    if half:
        refused = precision_refusal(_cpu_caps(core), "f16")
        if refused is not None:
            raise DumpError(refused)
    ov_model = core.read_model(str(model))
    feeds = {i.name: np.asarray(i.array) for i in model_inputs}
    ov_model.reshape({name: list(arr.shape) for name, arr in feeds.items()})
    if half:
        runnable, fq, nncf_version = ov_model, {}, None
    else:
        import nncf

        runnable = nncf.quantize(ov_model, nncf.Dataset([feeds]), subset_size=1)
        fq, nncf_version = _fake_quantize_params(runnable), nncf.__version__
    _expose_all(runnable)
    hint = "f16" if half else "f32"
    compiled = core.compile_model(runnable, "CPU", {"INFERENCE_PRECISION_HINT": hint})
    effective = compiled.get_property("INFERENCE_PRECISION_HINT")  # an ov.Type: f16, f32...
    ran = effective.to_string() if hasattr(effective, "to_string") else str(effective)
    if half and "16" not in ran:
        raise DumpError(
            f"--target openvino-fp16: OpenVINO compiled the model with inference precision {ran} although "
            "f16 was asked: the dump would compare f32 with f32, so it is not written"
        )
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
    what = (
        "the float model"
        if half
        else f"int8 (nncf.quantize, {len(fq)} FakeQuantize on activations, calibrated on this dump's own "
        "input: one sample)"
    )
    toolkit = f"openvino {ov.__version__}" + (f", nncf {nncf_version}" if nncf_version else "")
    notes = [
        f"OpenVINO {ov.__version__}" + (f" + NNCF {nncf_version}" if nncf_version else "") + f": {what}; "
        "every op's output exposed with add_outputs; run on the CPU with INFERENCE_PRECISION_HINT "
        f"{hint}, the compiled model reports {ran} ({caps})",
        f"{unnamed} exposed outputs carry no ONNX tensor name (FakeQuantize and other OpenVINO-made "
        "ops): not written",
    ]
    manifest = {
        **manifest_header(str(model), model_sha, target, seed),
        "producer": toolkit,
        **({"computed_dtype": "float16"} if half else {}),
        "inputs": saved,
        "tensors": entries,
        "nodes": [],
        "clamped": [],
        "notes": notes,
        "ort_runs": 0,
    }
    write_manifest(out, manifest)
    return {"toolkit": toolkit, "notes": notes, "tensors": len(entries), "inference_precision": ran}


def _save(out: Path, name: str, arr: np.ndarray) -> str:
    from dumpscope.core.atomic import save_npy
    from dumpscope.core.names import to_filename

    rel = to_filename(name)
    save_npy(out / rel, arr)
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


def _cpu_caps(core: Any) -> list[str] | None:
    """The CPU's OPTIMIZATION_CAPABILITIES as OpenVINO reports them (None: not reported)."""
    try:
        return [str(c) for c in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")]
    except Exception:  # noqa: BLE001 - a missing property is a refusal's reason, never a crash
        return None


def precision_refusal(caps: Sequence[str] | None, hint: str) -> str | None:
    """Why an ``hint`` (f16/bf16) run cannot be trusted on a CPU with ``caps``, or None when it can:
    without the instructions OpenVINO ignores the hint silently and runs f32."""
    need = {"f16": "FP16", "bf16": "BF16"}[hint]
    if caps is not None and need in caps:
        return None
    has = "reports no capabilities" if caps is None else f"reports {', '.join(caps) or 'none'}"
    return (
        f"--target openvino-fp16: this CPU has no {need} instructions in OpenVINO's eyes ({has}): OpenVINO "
        f"would ignore the {hint} inference hint without a word and run f32, so the dump would compare f32 "
        "with f32; it is not written (dumpscope's own --target fp16 simulates float16 storage anywhere)"
    )


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


# ------------------------------------------------------------------------------------------- ncnn

#: Seconds pnnx may take to convert a model.
PNNX_TIMEOUT = 600
NCNN_FOLDER = "ncnn"


def _pnnx_binary() -> Path:
    spec = importlib.util.find_spec("pnnx")
    folder = Path(spec.origin).parent if spec is not None and spec.origin else None
    binary = folder / "pnnx" if folder is not None else None
    if binary is None or not binary.is_file():
        raise DumpError("the pnnx package holds no pnnx converter binary (pip install pnnx)")
    return binary


def _run_pnnx(model: Path, work: Path, model_inputs: Sequence[Any]) -> tuple[Path, Path, Path, str]:
    """pnnx converts ``model``: (ncnn .param, ncnn .bin, pnnx .param, its version line)."""
    import shutil
    import subprocess

    from dumpscope.core.atomic import atomic_binary

    local = work / "model.onnx"  # pnnx names its outputs after its input: a fixed name in the work folder
    with model.open("rb") as src, atomic_binary(local) as dst:
        shutil.copyfileobj(src, dst)
    shapes = ",".join("[" + ",".join(str(d) for d in i.array.shape) + "]" for i in model_inputs)
    try:
        done = subprocess.run(
            [str(_pnnx_binary()), local.name, f"inputshape={shapes}"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=PNNX_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DumpError(f"pnnx could not convert {model.name}: {exc}") from None
    param, weights, pnnx_param = (work / f"model.{k}" for k in ("ncnn.param", "ncnn.bin", "pnnx.param"))
    if done.returncode != 0 or not param.is_file() or not weights.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise DumpError(f"pnnx could not convert {model.name} (exit {done.returncode}): {tail[0][:200]}")
    return param, weights, pnnx_param, _version("pnnx")


def _dump_ncnn(
    model: Path,
    out: Path,
    model_inputs: Sequence[Any],
    saved: list[dict[str, Any]],
    facts: Any,
    model_sha: str,
    seed: int,
) -> dict[str, Any]:
    """pnnx converts the model, ncnn runs it once (one thread) and every blob is extracted; blobs are
    paired with ONNX tensors by the graph's structure (:mod:`dumpscope.core.vendor.ncnn`) against an
    onnxruntime run of the same inputs, and written under the ONNX names with how each was paired."""
    import tempfile

    import ncnn as ncnn_rt  # type: ignore[import-not-found]  # optional extra, no stubs

    from dumpscope.core.formats import open_dump
    from dumpscope.core.onnx.manifest import manifest_header, tensor_entry, write_manifest
    from dumpscope.core.onnx.runner import dump_model
    from dumpscope.core.vendor import ncnn as pairing

    with tempfile.TemporaryDirectory(prefix="dumpscope-ncnn-") as tmp:
        work = Path(tmp)
        param, weights, pnnx_param, pnnx_version = _run_pnnx(model, work, model_inputs)
        layers, bad = pairing.read_param(param)
        (out / NCNN_FOLDER).mkdir(exist_ok=True)
        for name in (param, pnnx_param):
            if name.is_file():
                write_text(name.read_text(errors="replace"), out / NCNN_FOLDER / name.name)
        blobs, opt, half = _ncnn_blobs(ncnn_rt, param, weights, layers, model_inputs)
        golden_files = [f"{i.name}={out / e['file']}" for i, e in zip(model_inputs, saved, strict=True)]
        dump_model(model, work / "golden", inputs=golden_files)
        golden = open_dump(work / "golden")
        sizes = {n: int(np.prod(r.info.shape)) for n, r in golden.tensors.items() if r.info.shape is not None}
        paired = pairing.pair_blobs(
            layers,
            pairing.graph_of(facts),
            lambda b: None if blobs.get(b) is None else int(blobs[b].size),
            sizes.get,
            blobs.get,
            lambda t: golden.tensors[t].load() if t in golden.tensors else None,
        )
        shapes = {n: r.info.shape for n, r in golden.tensors.items()}
        entries = [
            {
                **tensor_entry(facts, e["name"], "input"),
                "file": e["file"],
                "dtype": e["dtype"],
                "shape": e["shape"],
            }
            for e in saved
        ]
        counts = dict.fromkeys(pairing.KINDS, 0)
        entries += _ncnn_entries(out, paired, blobs, shapes, facts, counts)
    summary = _ncnn_summary(counts)
    notes = [
        f"ncnn {_version('ncnn')} (pnnx {pnnx_version}): {len(paired)} blobs: {summary}; run once on one "
        f"thread with {opt}",
        *bad,
    ]
    manifest = {
        **manifest_header(str(model), model_sha, "ncnn", seed),
        "producer": f"ncnn {_version('ncnn')}, pnnx {pnnx_version}",
        "computed_dtype": "float16" if half else "float32",
        "inputs": saved,
        "tensors": entries,
        "nodes": [],
        "clamped": [],
        "notes": notes,
        "ort_runs": 0,
    }
    write_manifest(out, manifest)
    paired_rows = sum(counts[k] for k in ("structure", "values", "name"))
    explained = sum(counts[k] for k in ("pnnx-made", "constant", "unpaired"))
    return {
        "toolkit": f"ncnn {_version('ncnn')}, pnnx {pnnx_version}",
        "notes": notes,
        "paired": paired_rows,
        "explained": explained,
        "kinds": counts,
    }


def _ncnn_summary(counts: dict[str, int]) -> str:
    """The blobs counted by how they were paired or why not, in words."""
    words = {
        "structure": "paired by the graph's structure",
        "values": "paired by structure with the values choosing among candidates",
        "name": "paired by name (constants pnnx folded)",
        "split": "Split copies (no row of their own)",
        "reshape": "value-for-value reshapes (no row of their own)",
        "pnnx-made": "steps pnnx inserted (a scalar on a paired tensor, checked by values)",
        "constant": "constants pnnx folded that no ONNX tensor holds",
        "unpaired": "unpaired (each row says why)",
    }
    return ", ".join(f"{counts[k]} {w}" for k, w in words.items() if counts.get(k))


def _ncnn_entries(
    out: Path,
    paired: Sequence[Any],
    blobs: dict[str, np.ndarray],
    shapes: dict[str, Any],
    facts: Any,
    counts: dict[str, int],
) -> list[dict[str, Any]]:
    """Manifest entries of the blobs (saved under their ONNX names, or ``ncnn:BLOB`` when unpaired,
    each with how it was paired or why not); ``counts`` tallied."""
    from dumpscope.core.onnx.manifest import tensor_entry

    entries: list[dict[str, Any]] = []
    for bp in paired:
        counts[bp.kind] = counts.get(bp.kind, 0) + 1
        if bp.copy_of is not None or bp.layer.type == "Input":
            continue  # a copy has no row of its own; the input is written from the saved file
        arr = blobs.get(bp.blob)
        vendor = {
            "pairing": bp.how,
            "pairing_kind": bp.kind,
            "ncnn_blob": bp.blob,
            "ncnn_layer": f"{bp.layer.type} {bp.layer.name}",
        }
        if bp.tensor is None:
            name = f"ncnn:{bp.blob}"
            entry = {
                "name": name,
                "file": None,
                "kind": "activation",
                "node_name": None,
                "op_type": bp.layer.type,
                "topo_index": None,
                "node_inputs": [],
                "output_index": 0,
                "dtype": None,
                "shape": None,
            }
            vendor["unmatched_note"] = f"ncnn {bp.layer.type} blob {bp.blob}: {bp.how}"
        else:
            name = bp.tensor
            entry = tensor_entry(facts, name, "activation")
            shape = shapes.get(name)
            if arr is not None and shape is not None and int(np.prod(shape)) == arr.size:
                arr = arr.reshape(shape)  # ncnn drops the batch dimension of 1
        if arr is None:
            continue
        entry.update(file=_save(out, name, arr), dtype=str(arr.dtype), shape=list(arr.shape), vendor=vendor)
        entries.append(entry)
    return entries


def _ncnn_blobs(
    ncnn_rt: Any, param: Path, weights: Path, layers: Sequence[Any], model_inputs: Sequence[Any]
) -> tuple[dict[str, np.ndarray], str, bool]:
    """Every output blob of the ncnn net run once on the inputs, the options in words, and whether it
    computes in float16 here (its outputs differ from a run with fp16 storage off)."""
    blobs = _ncnn_run(ncnn_rt, param, weights, [b for layer in layers for b in layer.outputs], model_inputs)
    outputs = [b for layer in layers for b in layer.outputs if b.startswith("out")]
    exact = _ncnn_run(ncnn_rt, param, weights, outputs, model_inputs, fp32=True)
    half = any(b in blobs and b in exact and not np.array_equal(blobs[b], exact[b]) for b in outputs)
    opt = (
        "ncnn's default options; its outputs differ from a run with fp16 storage and arithmetic off: "
        "this CPU computes in float16 (judged by the fp16 band)"
        if half
        else "ncnn's default options; its outputs equal a run with fp16 storage and arithmetic off (float32)"
    )
    return blobs, opt, half


def _ncnn_run(
    ncnn_rt: Any,
    param: Path,
    weights: Path,
    wanted: Sequence[str],
    model_inputs: Sequence[Any],
    fp32: bool = False,
) -> dict[str, np.ndarray]:
    """The ``wanted`` blobs of one ncnn run (one thread; ncnn's shapes: no batch dimension)."""
    net = ncnn_rt.Net()
    net.opt.num_threads = 1  # the same result whatever the core count
    if fp32:
        net.opt.use_fp16_storage = net.opt.use_fp16_arithmetic = net.opt.use_fp16_packed = False
        net.opt.use_bf16_storage = False
    if net.load_param(str(param)) != 0 or net.load_model(str(weights)) != 0:
        raise DumpError(f"ncnn could not load the model pnnx wrote ({param.name})")
    blobs: dict[str, np.ndarray] = {}
    ex = net.create_extractor()
    ex.set_light_mode(False)  # keep every intermediate blob
    for k, inp in enumerate(model_inputs):
        arr = np.ascontiguousarray(np.asarray(inp.array, dtype=np.float32))
        if arr.ndim > 1 and arr.shape[0] == 1:
            arr = arr[0]
        ex.input(f"in{k}", ncnn_rt.Mat(arr).clone())
    for blob in wanted:
        ret, mat = ex.extract(blob)
        if ret == 0:
            blobs[blob] = np.array(mat).copy()
    return blobs
