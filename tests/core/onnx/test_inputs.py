"""``--input`` and ``--input-shape``: given inputs checked, missing ones generated deterministically."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.inputs import generate_input, parse_input_shapes
from dumpscope.core.onnx.runner import dump_model


def test_input_file_that_is_a_fifo_or_a_bomb_header_is_a_usage_error(
    chain_model: Path, tmp_path: Path
) -> None:
    import os
    import struct

    fifo = tmp_path / "x.npy"
    os.mkfifo(fifo)
    with pytest.raises(DumpError, match="not a regular file"):
        dump_model(chain_model, tmp_path / "d", inputs=[str(fifo)])
    bomb = tmp_path / "bomb.npy"
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }".ljust(117) + b"\n"
    bomb.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header)
    with pytest.raises(DumpError, match="not a readable .npy"):
        dump_model(chain_model, tmp_path / "d", inputs=[str(bomb)])
    assert not (tmp_path / "d").exists()


def test_parse_input_shapes() -> None:
    assert parse_input_shapes("x:1,3,224,224; a:b/c:0:2,5;s:") == {
        "x": (1, 3, 224, 224),
        "a:b/c:0": (2, 5),
        "s": (),
    }
    for bad in ("x", "x:1,a", "x:-1"):
        with pytest.raises(DumpError, match="--input-shape"):
            parse_input_shapes(bad)


def test_generated_inputs_are_deterministic(chain_model: Path, tmp_path: Path) -> None:
    a = dump_model(chain_model, tmp_path / "a", seed=3)
    b = dump_model(chain_model, tmp_path / "b", seed=3, target="fp16")
    c = dump_model(chain_model, tmp_path / "c", seed=4)
    assert a["inputs"][0]["sha256"] == b["inputs"][0]["sha256"] != c["inputs"][0]["sha256"]
    x = generate_input("x", np.dtype(np.float32), (2, 2), 3)
    np.testing.assert_array_equal(x, generate_input("x", np.dtype(np.float32), (2, 2), 3))
    assert not np.array_equal(x, generate_input("y", np.dtype(np.float32), (2, 2), 3))
    assert generate_input("m", np.dtype(bool), (64,), 0).dtype == np.bool_
