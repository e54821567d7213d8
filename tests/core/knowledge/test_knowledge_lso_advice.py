"""Session 32h: the advice a message the KB was not written from gets.

* ``bench/eval_explain.py --draw SEED --draw-split dev --leave-source-out``: dev answers drawn for a person to
  judge, each ranked without its own thread's entries and single-thread markers (:func:`lso_ranker`); refused
  with the held-out split; the ``lso`` hand verdicts of ``specific_dev_judged.jsonl`` are compared with the
  answer ranked that way.
* The unsupported-operator reason clauses follow their tool-neutral fix with the tool's own way to add or
  replace an operator (:data:`UNSUPPORTED_OP_STEPS`).
* onnx's conv/pool attribute check is answered in onnxruntime's ``Load model ... failed:`` wrapping too.
* QAIRT's op-form entry no longer claims the frontends' list of unsupported operator types.

Messages here are made up around the tools' own wording (no evaluation record is copied).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bench.eval_explain import (
    DRAWN,
    JUDGED,
    draw,
    judged_answers,
    judged_lso,
    lso_ranker,
    message_hash,
    run_draw,
    split_of,
)
from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.clauses import UNSUPPORTED_OP_STEPS, with_tool_steps

DEV_URL = next(u for n in range(200) if split_of(u := f"https://github.com/x/y/issues/{n}") == "dev")
OTHER_DEV_URL = next(
    u for n in range(200, 400) if split_of(u := f"https://github.com/x/y/issues/{n}") == "dev"
)


def _entry(id: str, pattern: str, source: str, cause: str) -> Entry:
    return Entry(
        id=id,
        tool="onnxruntime",
        stage="run",
        cause=cause,
        fix="f",
        source=source,
        family="onnxruntime",
        pattern=pattern,
    )


def _tiny_kb() -> KnowledgeBase:
    thread = DEV_URL.removeprefix("https://github.com/").replace("/issues/", "#")
    return KnowledgeBase(
        [
            _entry(
                "ort-widget-own", r"Widget \w+ failed", f"dev message {thread}", "written from the thread"
            ),
            _entry("ort-widget-general", r"Widget", "onnxruntime docs", "the general widget entry"),
        ]
    )


def _records() -> list[dict[str, object]]:
    message = "[ONNXRuntimeError] : 1 : FAIL : Widget gizmo failed"
    return [
        {"id": "t.jsonl:1", "message": message, "family": "onnxruntime", "source": DEV_URL, "split": "dev"},
        {
            "id": "t.jsonl:2",
            "message": message,
            "family": "onnxruntime",
            "source": OTHER_DEV_URL,
            "split": "dev",
        },
    ]


def test_lso_ranker_hides_the_records_own_threads_entries_only() -> None:
    kb = _tiny_kb()
    records = _records()
    rank = lso_ranker(kb, records, [])
    assert rank(records[0])[0].entry.id == "ort-widget-general"  # its own thread's entry is hidden
    assert rank(records[1])[0].entry.id == "ort-widget-own"  # another thread still sees it
    with pytest.raises(ValueError, match="dev records only"):
        rank({**records[0], "split": "heldout"})


def test_a_leave_source_out_draw_prints_the_answer_without_the_threads_entries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    kb = _tiny_kb()
    records = _records()[:1]
    shown = draw(kb, records, 7, 1, "dev", rank=lso_ranker(kb, records, []))
    out = capsys.readouterr().out
    assert [r["id"] for r in shown] == ["t.jsonl:1"]
    assert "1 of 1 dev right-tool answers, leave-source-out" in out
    assert "entry: ort-widget-general:" in out and "the general widget entry" in out
    draw(kb, records, 7, 1, "dev")  # the plain draw answers with the thread's own entry
    assert "entry: ort-widget-own:" in capsys.readouterr().out


def test_a_leave_source_out_draw_of_the_held_out_split_is_refused(tmp_path: Path) -> None:
    args = argparse.Namespace(
        draw=5, n=10, draw_split="heldout", leave_source_out=True, drawn=tmp_path / "d.jsonl", data=None
    )
    with pytest.raises(SystemExit, match="dev records only"):
        run_draw(args)
    assert not (tmp_path / "d.jsonl").exists()
    assert DRAWN.name == "drawn_heldout.jsonl"


def test_the_lso_hand_verdicts_are_compared_with_the_answer_ranked_without_the_threads_entries(
    kb: KnowledgeBase,
) -> None:
    rows = [json.loads(line) for line in JUDGED.read_text(encoding="utf-8").splitlines() if line.strip()]
    lso = [v for v in rows if v.get("lso")]
    s32 = [v for v in lso if v["role"] == "s32h-lso"]
    s35 = [v for v in lso if v["role"] == "s35h-lso"]
    s36 = [v for v in lso if v["role"] == "s36t"]
    s37 = [v for v in lso if v["role"] == "s37a"]
    s37c = [v for v in lso if v["role"] == "s37c"]
    s38a = [v for v in lso if v["role"] == "s38a"]  # s38a: draws 38101 (before) and 38102 (after)
    s38c = [v for v in lso if v["role"] == "s38c"]
    assert len(s32) >= 70 and len(s35) == 40 and len(s36) == 20 and len(s37) == 40 and len(s37c) == 40
    assert len(s38a) == 40 and len(s38c) == 40
    roles = {"s32h-lso", "s35h-lso", "s36o", "s36t", "s37a", "s37c", "s38a", "s38c"}
    assert {v["role"] for v in lso} == roles
    # drawn with --draw --leave-source-out, or (s36o) a rule's refusals ranked that way and judged, not drawn
    assert all(v["draw"].startswith(("--draw ", "--leave-source-out ranking, not drawn")) for v in lso)
    assert all("--leave-source-out" in v["draw"] for v in lso)
    # a later lso draw sets the judged records aside; draws made side by side in one session (s38a and s38c
    # each drew from the same file) may share a record: judged alike, never twice in one role
    assert len({(v["role"], v["id"]) for v in lso}) == len(lso)
    by_id: dict[str, list[dict[str, object]]] = {}
    for v in lso:
        by_id.setdefault(v["id"], []).append(v)
    shared = [vs for vs in by_id.values() if len(vs) > 1]
    assert all({v["role"] for v in vs} <= {"s38a", "s38c"} for vs in shared)
    assert all(len({v["specific"] for v in vs}) == 1 for vs in shared)
    pairs, _ = judged_answers(kb)
    still = [v for v, _ in pairs if v.get("lso")]
    # ranked with the whole KB most of these answers would be the thread's own entries: none would match
    for role in (s32, s35, s36, s37, s37c, s38a, s38c):
        assert len([v for v in still if v["role"] == role[0]["role"]]) >= 0.8 * len(role)


def test_with_tool_steps_appends_the_tools_own_line_to_the_unsupported_operator_clauses_only() -> None:
    fix = "Keep {op} out of what the tool sees."
    assert with_tool_steps("operator-is-not-supported", "torch_onnx", fix).startswith(
        fix + " For torch.onnx:"
    )
    assert with_tool_steps("operator-unsupported", "ascend", fix) == fix  # no line for that tool
    assert with_tool_steps("rank-unsupported", "torch_onnx", fix) == fix  # not an unsupported-operator clause
    assert all(
        "{op}" in steps or family in ("mnn", "tflite") for family, steps in UNSUPPORTED_OP_STEPS.items()
    )


def _hidden(kb: KnowledgeBase, *ids: str) -> KnowledgeBase:
    return kb.without(i for i, e in enumerate(kb.entries) if e.id in ids)


def test_an_unsupported_torch_onnx_operator_without_its_entry_gets_torch_onnx_s_own_steps(
    kb: KnowledgeBase,
) -> None:
    message = (
        "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::bucketize' to ONNX opset "
    )
    message += "version 13 is not supported."
    top = _hidden(kb, "torch-onnx-unsupported-operator").lookup(message, top=1)[0]
    assert top.entry.id == "family-torch_onnx+operator-is-not-supported"
    assert "register_custom_op_symbolic('aten::bucketize'" in top.fix and "dynamo=True" in top.fix
    assert "For OpenVINO" not in top.fix


@pytest.mark.parametrize(
    ("message", "answer", "tool_words"),
    [
        (
            "openvino._pyopenvino.GeneralFailure: Unsupported operator: WidgetNorm_7",
            "family-openvino+operator-unsupported",
            "ConversionExtension",
        ),
        ("E RKNN: Unsupported op type: GizmoPool", "family-rknn+operator-unsupported", "rknn.reg_custom_op"),
        ("[TRT] [E] Unsupported operator: WidgetNorm", "family-tensorrt+operator-unsupported", "a plugin"),
        (
            "coremltools: PyTorch convert function: op 'widget_norm' is not supported",
            "family-coreml+operator-is-not-supported",
            "@register_torch_op",
        ),
    ],
)
def test_the_unsupported_operator_clauses_name_the_tools_own_way(
    kb: KnowledgeBase, message: str, answer: str, tool_words: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == answer
    assert tool_words in top.fix
    assert top.fix.count(" For ") == 1  # one tool's line, its own


def test_onnx_s_attribute_size_check_inside_onnxruntime_s_load_failure_gets_the_check_s_answer(
    kb: KnowledgeBase,
) -> None:
    message = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "./models/pose_small.onnx failed:[ShapeInferenceError] Attribute strides has incorrect size"
    )
    found = kb.lookup(message, top=3)
    assert found[0].entry.id == "onnx-s29e-conv-pool-attribute-size"
    assert "Correct strides" in found[0].fix
    assert "onnxruntime-1-FAIL" in [m.entry.id for m in found]  # onnxruntime's code stays in the answer


def test_qairt_s_list_of_unsupported_operator_types_is_not_an_op_form_failure(kb: KnowledgeBase) -> None:
    listed = (
        "2025-03-04 05:06:07,890 - 230 - ERROR - Encountered Error: The following operators are not "
        "supported in frontend TFLite: 'GIZMO_SCAN'"
    )
    form = "2025-03-04 05:06:07,890 - 235 - ERROR - Encountered Error: Widget 5D layout is not yet supported"
    view = _hidden(kb, "qualcomm-converter-frontend-op-not-supported")
    top = view.lookup(listed, top=1)[0]
    assert top.entry.id != "qualcomm-s23d-converter-op-form-unsupported"
    assert top.entry.family == "qualcomm" and "'GIZMO_SCAN'" in top.fix and "op package" in top.fix
    assert kb.lookup(form, top=1)[0].entry.id == "qualcomm-s23d-converter-op-form-unsupported"


def test_a_leave_source_out_draw_sets_aside_the_records_already_judged_that_way(tmp_path: Path) -> None:
    records = [{**r, "message": f"{r['message']} {r['id']}"} for r in _records()]
    judged = tmp_path / "judged.jsonl"
    rows = [
        {"id": "t.jsonl:1", "lso": True, "specific": True},
        {"id": "t.jsonl:2", "specific": False},  # judged with the whole KB: not set aside
    ]
    judged.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert judged_lso(records, judged) == {message_hash(records[0])}
    assert judged_lso(records, tmp_path / "absent.jsonl") == frozenset()
