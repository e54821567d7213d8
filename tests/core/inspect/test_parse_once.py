"""The ONNX model and the vendor graph are parsed once per command (issue 9).

``compare`` parses them; the ``Comparison`` keeps the parsed facts and ``diagnose``, the
row facts and the fusion facts reuse them.  The parsers are counted by patching the one
call each makes (``onnx.load_model`` for a model, ``parse_graph`` for an ATC graph JSON).
"""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.inspect.fusion import fusion_facts
from dumpscope.core.inspect.overflow import overflow_facts
from dumpscope.core.vendor import atc_graph
from tests.core.inspect.test_row_facts import atc_case


def _counter(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    calls = [0]
    real = getattr(owner, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_model_is_parsed_once_for_compare_diagnose_and_row_facts(
    demo, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    calls = _counter(monkeypatch, onnx, "load_model")
    cmp = compare(demo.golden, demo.target, model=demo.model)
    assert calls[0] == 1 and cmp.model_facts is not None
    diag = diagnose(cmp)
    assert diag.root_causes
    for row in range(min(cmp.frame.height, 20)):
        overflow_facts(cmp, row)
        fusion_facts(cmp, row)
    assert calls[0] == 1


def test_vendor_graph_is_parsed_once_for_compare_diagnose_and_row_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, t, graph = atc_case(tmp_path)
    calls = _counter(monkeypatch, atc_graph, "parse_graph")
    cmp = compare(g, t, graph=graph)
    assert calls[0] == 1 and cmp.atc is not None
    diagnose(cmp)
    for row in range(cmp.frame.height):
        overflow_facts(cmp, row)
        fusion_facts(cmp, row)
    assert calls[0] == 1
