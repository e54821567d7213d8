"""A sibling component's entry does not answer a message of its family that names no component (issue 23).

The hand draws saw an entry of a vendor's LLM runtime answer a message of the vendor's model runtime
because they share words (a plugin, a CUDA call, a model load).  :data:`.markers.COMPONENTS` names each
component with what its messages hold; an entry of a component found without its pattern, in a message
naming no component, is lowered as another tool's wording is (:data:`.kb.FOREIGN_WORDS_FACTOR`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.markers import COMPONENTS, component_unnamed

_KB = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
_BY_ID = {e.id: e for e in _KB.entries}


@pytest.mark.parametrize(
    ("tool", "text", "unnamed"),
    [
        ("Rockchip RKLLM runtime (librkllmrt)", "e rknn: failed to submit!, op id: 12", True),
        ("Rockchip RKLLM runtime (librkllmrt)", "e rkllm: failed to load model", False),
        ("NVIDIA TensorRT-LLM (trtllm-build)", "[trt] [e] 3: getplugincreator could not find plugin", True),
        ("NVIDIA TensorRT-LLM (trtllm-build)", "tensorrt_llm.builder: unsupported architecture", False),
        ("Qualcomm Genie (QAIRT LLM runtime)", "qnn error 1002", True),
        ("Qualcomm Genie (QAIRT LLM runtime)", "geniedialog_create returned: -1", False),
        ("Rockchip RKNN runtime (librknnrt / rknn-toolkit-lite2)", "anything at all", False),  # no component
    ],
)
def test_component_unnamed(tool: str, text: str, unnamed: bool) -> None:
    assert component_unnamed(tool, text) is unnamed


def test_every_component_is_the_tool_of_some_entry_and_its_sources_or_examples_name_it() -> None:
    """Each component is an entry's tool, and one of its entries' examples or sources holds one of its
    literals (the table is read from what the components print and ship: Genie's config messages do not
    say 'Genie', its header GenieCommon.h does)."""
    for name, literals in COMPONENTS:
        entries = [e for e in _KB.entries if name in e.tool]
        assert entries, name
        assert all(literal == literal.lower() for literal in literals)
        named = [e for e in entries if any(lit in f"{e.example} {e.source}".lower() for lit in literals)]
        assert named, name


def test_a_tensorrt_plugin_assertion_is_not_answered_by_a_tensorrt_llm_entry() -> None:
    # MMDeploy's TensorRT plugin assertion (its ASSERT macro's form, trt_plugin_helper.hpp) with the
    # converter's own line after it: TensorRT's, not TensorRT-LLM's.
    text = (
        "#assertion/opt/mmdeploy/csrc/mmdeploy/backend_ops/tensorrt/batched_nms/trt_batched_nms.cpp,109\n"
        "2024-01-01 10:00:00,000 - mmdeploy - ERROR - visualize tensorrt model failed."
    )
    top = _KB.lookup(text, top=5)
    assert top[0].entry.family == "tensorrt"
    assert top[0].entry.id == "tensorrt-s27f-mmdeploy-plugin-assert"
    assert "batched_nms" in top[0].cause and "109" in top[0].cause
    assert not any("TensorRT-LLM" in m.entry.tool and m.score >= top[0].score for m in top[1:])


def test_a_component_entry_whose_pattern_matched_still_answers_its_example() -> None:
    """The rule lowers wording, codes and partial matches only: a component entry's own text is its own
    evidence, named or not (RKLLM-Toolkit's export lines need not say 'rkllm')."""
    checked = 0
    for e in _KB.entries:
        if not e.example or not any(name in e.tool for name, _ in COMPONENTS):
            continue
        if not component_unnamed(e.tool, e.example.lower()):
            continue
        checked += 1
        top = _KB.lookup(e.example, top=1)
        assert top and top[0].entry.id == e.id, e.id
        assert "pattern" in top[0].reason
    assert checked >= 20
