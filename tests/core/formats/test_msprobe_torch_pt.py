"""``.pt`` tensors read without torch and without unpickling; anything else refused."""

from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest

from dumpscope.core.dumps import TensorReadError
from dumpscope.core.formats.torch_pt import load_pt, read_spec
from tests.support.msprobe import write_pt


def test_contiguous_tensors_of_several_dtypes(tmp_path) -> None:
    cases = [
        (np.arange(12, dtype=np.float32).reshape(3, 4), "FloatStorage"),
        (np.linspace(-2, 2, 10).astype(np.float16), "HalfStorage"),
        (np.arange(6, dtype=np.int64).reshape(2, 3), "LongStorage"),
        (np.array([1.5, -3.25], dtype=ml_dtypes.bfloat16), "BFloat16Storage"),
        (np.array(3.0, dtype=np.float64), "DoubleStorage"),
    ]
    for i, (arr, storage) in enumerate(cases):
        got = load_pt(write_pt(tmp_path / f"{i}.pt", arr, storage))
        assert got.dtype == arr.dtype and got.shape == arr.shape
        np.testing.assert_array_equal(got, arr)


def test_offset_and_strided_views(tmp_path) -> None:
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = load_pt(write_pt(tmp_path / "t.pt", arr, offset=2, stride=(1, 3)))
    np.testing.assert_array_equal(got, np.arange(12, dtype=np.float32).reshape(4, 3).T)
    assert read_spec(tmp_path / "t.pt").offset == 2


def test_a_view_past_the_storage_is_refused(tmp_path) -> None:
    arr = np.arange(12, dtype=np.float32)
    path = write_pt(tmp_path / "t.pt", arr, numel=8)
    with pytest.raises(TensorReadError, match="reaches element"):
        load_pt(path)


def test_other_globals_are_refused_and_never_run(tmp_path) -> None:
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return os.system, (f"touch {marker}",)

    path = write_pt(tmp_path / "evil.pt", np.zeros(1, np.float32), payload=Evil())
    with pytest.raises(TensorReadError, match="refused"):
        load_pt(path)
    assert not marker.exists()
    with pytest.raises(TensorReadError, match="not one tensor"):
        load_pt(write_pt(tmp_path / "list.pt", np.zeros(1, np.float32), payload=[1, 2]))


def test_not_a_zip(tmp_path) -> None:
    (tmp_path / "x.pt").write_bytes(b"PK\x03\x04junk")
    with pytest.raises(TensorReadError, match="not a readable .pt zip"):
        load_pt(tmp_path / "x.pt")


def test_single_item_appends_and_setitems_fill_their_own_collection() -> None:
    """pickle writes APPEND / SETITEM (not the batched APPENDS / SETITEMS) for one-item batches."""
    import pickle
    import pickletools

    from dumpscope.core.formats.torch_pt import _interpret

    for value, opcode in (([7], "APPEND"), ({"k": 7}, "SETITEM"), ([[1], {"a": [2]}], "APPEND")):
        data = pickle.dumps(value, protocol=2)
        assert opcode in {op.name for op, _, _ in pickletools.genops(data)}
        assert _interpret(data) == value
