"""On an optimised onnxruntime target the fusion facts of a row name the row itself as the dump of its
fused op (it said "no dump of this op" for the row being viewed: the row's tensor is named after the
original output, not after the fused node)."""

from __future__ import annotations

from pathlib import Path

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.inspect.fusion import fusion_facts
from dumpscope.core.inspect.overflow import target_op
from dumpscope.core.onnx.runner import dump_model


def test_the_viewed_row_shows_its_own_fused_op(light_models_dir: Path, tmp_path: Path) -> None:
    model = light_models_dir / "light_squeezenet.onnx"
    dump_model(model, tmp_path / "g")
    dump_model(model, tmp_path / "o", target="optimized")
    cmp = compare(tmp_path / "g", tmp_path / "o", model=model)
    checked = 0
    for row in range(cmp.frame.height):
        facts = fusion_facts(cmp, row)
        op = target_op(cmp, row)
        own = [f for f in facts.fused if f.name == op] if cmp.frame["side"][row] == "both" else []
        for fact in own:
            checked += 1
            assert fact.row == row and fact.note is None, (row, fact)
            assert fact.health == cmp.frame["health"][row]
    assert checked > 0  # squeezenet's optimised graph fuses Conv+Relu
