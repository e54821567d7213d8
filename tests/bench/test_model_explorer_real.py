"""``--format model-explorer`` against Model Explorer itself, not only a reading of its source.

Optional: skipped unless ai-edge-model-explorer (and, for the graph test, its ONNX adapter
model-explorer-onnx) is installed, e.g. ``pip install 'dumpscope[model-explorer]'``.
Neither is a runtime dependency.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fusion_onoff import _model  # noqa: E402

node_data_builder = pytest.importorskip(
    "model_explorer.node_data_builder", reason="needs ai-edge-model-explorer"
)
dacite = pytest.importorskip("dacite", reason="needs dacite (an ai-edge-model-explorer dependency)")


@pytest.fixture(scope="module")
def overlay(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A small ONNX model, its golden dump and an fp16 run with one layer broken, and our overlay."""
    import numpy as np
    import onnx

    from dumpscope.tui.cli.main import main

    root = tmp_path_factory.mktemp("model_explorer")
    onnx.save(_model(), root / "m.onnx")
    from dumpscope.core import dump

    dump(root / "m.onnx", root / "g")
    dump(root / "m.onnx", root / "t", target="fp16")
    broken = next((root / "t").glob("r1*.npy"))
    np.save(broken, np.load(broken) * 3 + 1)
    main(
        [
            "compare",
            str(root / "g"),
            str(root / "t"),
            "--model",
            str(root / "m.onnx"),
            "--format",
            "model-explorer",
            "-o",
            str(root / "overlay.json"),
        ]
    )
    return root, json.loads((root / "overlay.json").read_text())


def test_model_explorers_own_node_data_classes_read_the_file(overlay: tuple[Path, dict[str, object]]) -> None:
    _root, doc = overlay
    graph = dacite.from_dict(
        node_data_builder.GraphNodeData, doc, config=dacite.Config(strict=True)
    )  # no unknown key
    assert all(isinstance(r, node_data_builder.NodeDataResult) for r in graph.results.values())
    assert [t.value for t in graph.thresholds] == [0, 1, 2, 3]
    written = json.loads(graph.to_json_string())  # what Model Explorer's Python API would write
    assert {k: written[k] for k in doc} == doc
    model = node_data_builder.ModelNodeData(graphsData={"main_graph": graph})
    assert json.loads(model.to_json_string())["main_graph"]["results"] == doc["results"]


def test_every_node_of_the_onnx_graph_as_model_explorer_builds_it_is_coloured(
    overlay: tuple[Path, dict[str, object]],
) -> None:
    adapter = pytest.importorskip(
        "model_explorer_onnx.main", reason="needs model-explorer-onnx (ONNX adapter)"
    )
    import onnx

    root, doc = overlay
    graph = adapter.ONNXAdapter().convert(str(root / "m.onnx"), {})["graphs"][0]
    results = doc["results"]
    assert isinstance(results, dict)
    outputs = {o.name for o in onnx.load(root / "m.onnx").graph.output}
    ids = {node.id for node in graph.nodes} - {
        f"[value] {name}" for name in outputs
    }  # output markers: no data
    assert ids and ids <= set(results), ids - set(results)
    assert results["relu1"]["value"] >= 2 and results["conv1"]["value"] == 0  # the broken layer, by node id
    assert results["[value] x"]["value"] == 0  # the graph input's node
