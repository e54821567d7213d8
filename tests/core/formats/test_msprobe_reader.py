"""The msprobe reader: entries, records, NaN/Infinity literals, bad input as rows, discovery."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import msprobe, open_dump, sniff
from dumpscope.core.formats.msprobe import discover, read_rank, split_name
from tests.support.msprobe import entry, tensor, write_pt, write_rank


def test_entry_names_are_taken_apart() -> None:
    assert split_name("Functional.conv2d.0.forward").key == "Functional.conv2d.forward"
    assert split_name("Tensor.__mul__.3.forward").counter == 3
    parts = split_name("Module.layer1.0.conv1.Conv2d.forward.0")
    assert (parts.prefix, parts.api, parts.counter, parts.direction) == (
        "Module",
        "layer1.0.conv1.Conv2d",
        0,
        "forward",
    )
    assert split_name("Functional.linear.5.backward").direction == "backward"
    assert split_name("Module.fc.Linear.parameters_grad.0").direction == "parameters_grad"


def test_records_of_every_kind(tmp_path) -> None:
    data = {
        "Functional.conv2d.0.forward": {
            "input_args": [
                tensor(),
                tensor(),
                None,
                [{"type": "int", "value": 2}, {"type": "int", "value": 2}],
                {"type": "int", "value": 1},
            ],
            "input_kwargs": {"bias": tensor()},
            "output": [tensor()],
            "is_recompute": False,
        },
        "Module.conv1.Conv2d.forward.0": entry(
            [tensor()], [tensor()], parameters={"weight": tensor(), "bias": tensor()}
        ),
        "Functional.conv2d.0.backward": {"input": [tensor()], "output": [tensor(), None]},
        "Module.conv1.Conv2d.parameters_grad.0": {"weight": [tensor()], "bias": [tensor()]},
    }
    rank = read_rank(write_rank(tmp_path / "step0" / "rank0", data))
    conv = rank.entries["Functional.conv2d.0.forward"]
    names = [r.suffix for r in conv.records]
    assert names == [
        "input.0",
        "input.1",
        "input.2",
        "input.3.0",
        "input.3.1",
        "input.4",
        "input.bias",
        "output.0",
    ]
    assert [r.is_tensor for r in conv.records] == [True, True, False, False, False, False, True, True]
    assert conv.records[3].value == "2"
    mod = rank.entries["Module.conv1.Conv2d.forward.0"]
    assert [r.suffix for r in mod.role("parameters")] == ["parameters.weight", "parameters.bias"]
    bwd = rank.entries["Functional.conv2d.0.backward"]
    assert [r.suffix for r in bwd.records] == ["input.0", "output.0", "output.1"]
    grads = rank.entries["Module.conv1.Conv2d.parameters_grad.0"]
    assert [r.name for r in grads.records] == [
        "Module.conv1.Conv2d.parameters_grad.0.weight",
        "Module.conv1.Conv2d.parameters_grad.0.bias",
    ]
    assert (rank.step, rank.rank, rank.level) == (0, "rank0", "mix")


def test_nan_and_infinity_literals(tmp_path) -> None:
    raw = (
        '{"task": "statistics", "level": "L1", "data": {"Torch.sum.0.forward": {"input_args": '
        '[{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": Infinity, '
        '"Min": -Infinity, '
        '"Mean": NaN, "Norm": NaN}], "output": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", '
        '"shape": [], '
        '"Max": false, "Min": false, "Mean": null, "Norm": null}]}}}'
    )
    rank = read_rank(write_rank(tmp_path / "rank0", {}, raw=raw))
    rin, rout = rank.entries["Torch.sum.0.forward"].records
    assert rin.stats[0] == math.inf and rin.stats[1] == -math.inf and math.isnan(rin.stats[2])
    assert rin.dtype == "float16" and rout.dtype == "bfloat16" and rout.shape == ()
    assert rout.stats == (0.0, 0.0, None, None)


def test_bad_files_cost_one_row(tmp_path) -> None:
    data = {"Functional.relu.0.forward": entry([tensor()], [tensor()]), "Broken.entry": [1, 2, 3]}
    d = write_rank(tmp_path / "rank0", data)
    (d / "construct.json").write_text("{not json")
    rank = read_rank(d)
    assert list(rank.entries) == ["Functional.relu.0.forward"]
    messages = " | ".join(p.message for p in rank.problems)
    assert "construct.json" in messages and "not a JSON object" in messages
    with pytest.raises(DumpError, match="no dump.json"):
        read_rank(tmp_path / "nowhere")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "dump.json").write_text('{"data": ')
    with pytest.raises(DumpError, match="unreadable JSON"):
        read_rank(bad)


def test_tensor_mode_npy_pt_and_missing_files(tmp_path) -> None:
    d = tmp_path / "step0" / "rank0"
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    data = {
        "Functional.relu.0.forward": entry(
            [tensor(x, data_name="Functional.relu.0.forward.input.0.npy")],
            [
                tensor(x, data_name="Functional.relu.0.forward.output.0.pt"),
                tensor(x, data_name="missing.npy"),
                tensor(x, data_name="junk.pt"),
            ],
        )
    }
    write_rank(d, data, task="tensor")
    (d / "dump_tensor_data").mkdir()
    np.save(d / "dump_tensor_data" / "Functional.relu.0.forward.input.0.npy", x)
    write_pt(d / "dump_tensor_data" / "Functional.relu.0.forward.output.0.pt", x)
    (d / "dump_tensor_data" / "junk.pt").write_bytes(b"PK\x03\x04")
    # dump_data_dir pointing elsewhere is ignored: tensors are looked up next to dump.json
    body = json.loads((d / "dump.json").read_text())
    body["dump_data_dir"] = "/somewhere/else"
    (d / "dump.json").write_text(json.dumps(body))
    assert sniff(d)[0][1] == msprobe.NAME
    dump = open_dump(d)
    assert dump.format == "msprobe"
    np.testing.assert_array_equal(dump.tensors["Functional.relu.0.forward.input.0"].load(), x)
    np.testing.assert_array_equal(dump.tensors["Functional.relu.0.forward.output.0"].load(), x)
    with pytest.raises(TensorReadError, match="not a readable .pt zip"):
        dump.tensors["Functional.relu.0.forward.output.2"].load()
    with pytest.raises(TensorReadError, match="missing.npy"):
        dump.tensors["Functional.relu.0.forward.output.1"].load()


def test_discovery_lists_steps_and_ranks_and_never_merges(tmp_path) -> None:
    for s in (0, 1, 10):
        for r in ("rank0", "rank1", "proc77"):
            write_rank(
                tmp_path / f"step{s}" / r, {"Functional.relu.0.forward": entry([tensor()], [tensor()])}
            )
    (tmp_path / "step0" / "notes").mkdir()
    found = discover(tmp_path)
    assert [(s, r) for s, r, _ in found][:3] == [(0, "rank0"), (0, "rank1"), (0, "proc77")]
    assert [s for s, _, _ in found] == [0, 0, 0, 1, 1, 1, 10, 10, 10]
    assert len(discover(tmp_path / "step1")) == 3
    assert discover(tmp_path / "step1" / "rank1")[0][:2] == (1, "rank1")
    with pytest.raises(DumpError, match="never merged"):
        msprobe.open(tmp_path)


def test_stack_json_both_layouts(tmp_path) -> None:
    data = {
        "Functional.relu.0.forward": entry([tensor()], [tensor()]),
        "Tensor.__add__.0.forward": entry([tensor()], [tensor()]),
    }
    stack = {
        "0": [["Functional.relu.0.forward"], ["File a.py, line 1", "relu(x)"]],
        "Tensor.__add__.0.forward": ["File b.py, line 2"],
    }
    rank = read_rank(
        write_rank(
            tmp_path / "rank0",
            data,
            stack=stack,
            construct={"Functional.relu.0.forward": "Module.m.M.forward.0"},
        )
    )
    assert "a.py" in rank.entries["Functional.relu.0.forward"].stack
    assert "b.py" in rank.entries["Tensor.__add__.0.forward"].stack
    assert rank.entries["Functional.relu.0.forward"].parent == "Module.m.M.forward.0"
