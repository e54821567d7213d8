"""Issue 23, round 11: what round 11's dev misses taught, each written from the tool's own wording with
values of our own (never an evaluation message).

* a traceback through onnxruntime's Python package (its module folder ``onnxruntime/capi/``, either path
  separator) names onnxruntime, even when the exception it ends in is another library's;
* the dynamic loader's versioned-symbol error (glibc's "symbol S version V not defined in file F with link
  time reference") is a clause of any tool: the card says which library is of the wrong release.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families


@pytest.mark.parametrize(
    "text",
    [
        '  File "/opt/venv/lib/python3.10/site-packages/onnxruntime/capi/_pybind_state.py", line 32\n'
        "ImportError: DLL load failed while importing onnxruntime_pybind11: no module",
        '  File "C:\\Python311\\Lib\\site-packages\\onnxruntime\\capi\\_ld_preload.py", line 12\n'
        "OSError: [WinError 126] The specified module could not be found",
    ],
)
def test_a_traceback_through_onnxruntimes_package_names_onnxruntime(text: str) -> None:
    assert detect_families(text)[:1] == ["onnxruntime"]


def test_a_package_of_another_name_is_not_onnxruntimes() -> None:
    """The folder is the package's own: a file named like it elsewhere is no marker."""
    text = '  File "/srv/app/onnxruntime_capi/helpers.py", line 3\nValueError: bad shape'
    assert "onnxruntime" not in detect_families(text)[:1]


LOADER = (
    "OSError: /opt/env/lib/libfoo.so.7: symbol bar_init version libbaz.so.7 not defined in file "
    "libbaz.so.7 with link time reference"
)


def test_the_versioned_symbol_error_is_answered_with_its_names_inside_a_named_tool(kb: KnowledgeBase) -> None:
    text = '  File "/venv/site-packages/onnxruntime/capi/_ld_preload.py", line 12, in <module>\n' + LOADER
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "onnxruntime"
    assert top.entry.id.endswith("+shared-library-symbol-version")
    assert "bar_init" in top.cause and "libbaz.so.7" in top.cause
    assert "LD_LIBRARY_PATH" in top.fix


def test_the_versioned_symbol_clause_reads_glibcs_comma_form(kb: KnowledgeBase) -> None:
    """glibc's dl-lookup.c writes "symbol S, version V not defined ..." (with a comma)."""
    text = (
        "[E:onnxruntime:, provider_bridge_ort.cc:1 Get] libqux.so: symbol qux_open, version QUX_2 "
        "not defined in file libquux.so.2 with link time reference"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+shared-library-symbol-version")
    assert "qux_open" in top.cause and "QUX_2" in top.cause and "libquux.so.2" in top.cause


def test_a_message_under_an_unrelated_warning_is_not_lent_to_the_warning(kb: KnowledgeBase) -> None:
    """The line below a report that matches nothing is joined to it only as the tail of a line a logger
    wrapped; TensorRT's parser head, which an entry's pattern matches alone, is a message of its own, so the
    warning above it is not reported as that message (it was, as a noise line)."""
    import io

    from dumpscope.core.knowledge import scan_log

    log = "\n".join(
        [
            "2024-03-01 08:15:02,481 - WARNING - calibration cache not found, building it (8 batches)",
            'While parsing node number 7 [Mul -> "scaled_out"]:',
            "ERROR: /src/onnx-tensorrt/builtin_op_importers.cpp:310 In function importMul:",
            "[8] Assertion failed: inputs.size() == 2",
            "ERROR: failed to parse onnx file",
        ]
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert problems and all(1 not in p.line_numbers for p in problems)
    assert {n for p in problems for n in p.line_numbers} <= {2, 3, 4, 5}


def test_a_line_a_logger_wrapped_is_still_read_joined(kb: KnowledgeBase) -> None:
    """A report's tail that matches nothing alone still joins it (the rule the check above narrows)."""
    import io

    from dumpscope.core.knowledge import scan_log

    alone = kb.lookup("exists or registered", top=1)
    assert not alone or "pattern" not in alone[0].reason.split("+")
    log = "\n".join(["[E] [TRT] 4: layer MyPlugin_3 not", "exists or registered"])
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.line_numbers[0] for p in problems][:1] == [1]


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("Error: Can't access output tensor data on index 2. ERROR_CODE: 9, ERROR_MESSAGE: x", "2"),
        ("Error: Can't access output tensor data. error code = 9", None),
    ],
)
def test_onnxruntime_webs_output_read_failure_says_the_output_is_no_tensor(
    kb: KnowledgeBase, text: str, index: str | None
) -> None:
    """onnxruntime-web's wording, the newer form with the output's index and the older one with a code."""
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-web-cant-access-output-tensor"
    assert "pattern" in top.reason.split("+")
    assert "not a tensor" in top.cause and "zipmap" in top.fix.lower()
    if index is not None:
        assert f"output {index}" in top.cause
