"""Core ML converter and loader messages written from coremltools' own source answer with their cause.

Each form is the format string of coremltools (``_deps/__init__.py``, ``converters/_converters_entry.py``,
``converters/mil/backend/mil/load.py``, ``converters/mil/input_types.py``, ``converters/mil/mil/builder.py``,
``converters/mil/frontend/torch/...``) filled with a value; none names the tool, so the entry itself must be
found.  Near misses (another tool's wording of the same idea) do not fire."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase

FORMS = [
    (
        "Torch version 2.5.1 has not been tested with coremltools. You may run into unexpected errors. "
        "Torch 2.4.0 is the most recent version that has been tested.",
        "coreml-ctsrc-untested-package-version",
        {"package": "Torch", "version": "2.5.1", "version2": "2.4.0"},
    ),
    (
        "Input shape not fully specified by enumerated shapes or range dim! 1 will be used for dimension "
        "not specified instead.",
        "coreml-ctsrc-shape-not-specified-default-1",
        {},
    ),
    (
        "ValueError: Variable rank model inputs are not supported!",
        "coreml-ctsrc-variable-rank-input",
        {"arg": "inputs"},
    ),
    (
        "TypeError: Unrecognized value of argument 'minimum_deployment_target': iOS15. "
        "It needs to be a member of 'coremltools.target' enumeration. For example, coremltools.target.iOS13",
        "coreml-ctsrc-deployment-target-unrecognized",
        {"value": "iOS15"},
    ),
    (
        'ValueError: Fail to auto-determine the input name. Please specify the "name" parameter when use '
        '"inputs" in ct.convert().',
        "coreml-ctsrc-input-name-undetermined",
        {},
    ),
    (
        "ValueError: Provided image input 'pixels' is not one of the inputs of the MIL program",
        "coreml-ctsrc-image-input-not-in-program",
        {"input": "pixels"},
    ),
    (
        "NotImplementedError: Dynamic activation quantization is not supported in Core ML.",
        "coreml-ctsrc-dynamic-activation-quant",
        {},
    ),
    (
        "ValueError: Unknown type <class 'numpy.ndarray'> for conversion to InputType.",
        "coreml-ctsrc-unknown-input-type",
        {"type": "<class 'numpy.ndarray'>"},
    ),
    (
        "ValueError: State only support fp16 dtype. Got input var v_cache with dtype fp32.",
        "coreml-ctsrc-state-not-fp16",
        {"input": "v_cache", "dtype": "fp32"},
    ),
    ("ValueError: Cannot add const [None, 768]", "coreml-ctsrc-cannot-add-const", {"value": "None, 768"}),
    (
        'TypeError: The "compute_units" parameter must be of type: "coremltools.ComputeUnit".',
        "coreml-ctsrc-compute-units-type",
        {},
    ),
    (
        "ValueError: EnumeratedShapes should be take a list or tuple with len >= 2, got 1 instead",
        "coreml-ctsrc-enumerated-shapes-too-few",
        {"value": "1"},
    ),
    (
        # English any tool may print: answered where the message names coremltools (its frame)
        'File "/venv/lib/coremltools/converters/mil/input_types.py", line 420, in __init__\n'
        "ValueError: Default value 2048 is greater than maximum value (1024) for range",
        "coreml-ctsrc-rangedim-default-outside",
        {"value": "2048", "value2": "1024"},
    ),
    ("Unknown opset 'CoreML7'", "coreml-ctsrc-unknown-opset-coremlN", {"value": "7"}),
]


@pytest.mark.parametrize(("text", "entry_id", "captures"), FORMS, ids=[f[1] for f in FORMS])
def test_the_coremltools_form_answers_with_its_values(
    kb: KnowledgeBase, text: str, entry_id: str, captures: dict[str, str]
) -> None:
    answer = kb.answer(text, top=3)
    top = answer.matches[0]
    assert top.entry.id == entry_id and answer.confidence == "high"
    got = dict(top.captures)
    for name, value in captures.items():
        assert got[name] == value
        assert value in top.cause + top.fix


@pytest.mark.parametrize(
    "text",
    [
        "ONNX opset version 19 has not been tested with this converter",  # not coremltools' sentence
        "Unknown opset 'ai.onnx.ml'",  # an ONNX domain, not a Core ML opset
        "Default value 3 is out of range",
        "Cannot add constant folding pass",
        "Variable rank inputs",
    ],
)
def test_near_misses_do_not_fire(kb: KnowledgeBase, text: str) -> None:
    ids = {m.entry.id for m in kb.lookup(text, top=5) if "pattern" in m.reason}
    assert not {f[1] for f in FORMS} & ids


def test_the_version_warning_ranks_under_the_error_after_it(kb: KnowledgeBase) -> None:
    """The warning says what may go wrong; the converter's error after it says what did."""
    text = (
        "Torch version 2.6.0 has not been tested with coremltools. You may run into unexpected errors. "
        "Torch 2.4.0 is the most recent version that has been tested.\n"
        "Converting PyTorch Frontend ==> MIL Ops:  42%\n"
        "RuntimeError: PyTorch convert function for op 'upsample_bicubic2d' not implemented."
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[:2] == ["coreml-torch-op-not-implemented", "coreml-ctsrc-untested-package-version"]
