"""Property tests: any truncation or byte flip of a file our writers made is read totally.

A reader facing a damaged file either refuses the whole input with a one-line
:class:`DumpError` or gives rows whose load returns an array or raises
:class:`TensorReadError`; nothing else escapes.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.formats import open_dump
from dumpscope.core.formats import sigmastar as sg

from .corpus import GOOD, _encoded, _npz_bytes, _sg_tensors, good_array, polygraphy_json

_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _npy(folder: Path) -> tuple[Path, Path]:
    buf = io.BytesIO()
    np.save(buf, good_array("a"))
    (folder / "a.npy").write_bytes(buf.getvalue())
    np.save(folder / "b.npy", good_array("b"))
    return folder, folder / "a.npy"


def _npz(folder: Path) -> tuple[Path, Path]:
    path = folder / "d.npz"
    path.write_bytes(_npz_bytes({n: good_array(n) for n in GOOD}, zipfile.ZIP_DEFLATED))
    return path, path


def _ascend(folder: Path) -> tuple[Path, Path]:
    raw = aw.RawTensor(np.zeros((1, 1, 2, 2, 16), np.float16), 2, 3, (1, 4, 2, 2))
    path = aw.write_dump(
        folder / "Conv2D.conv.1.1.1700000000000000",
        "conv",
        [raw],
        [aw.RawTensor(good_array("a"), 1, 2, (2, 3))],
    )
    aw.write_dump(folder / "Add.b.2.1.1700000000000001", "b", [aw.RawTensor(good_array("b"), 1, 2, (2, 3))])
    return folder, path


def _sigmastar(folder: Path) -> tuple[Path, Path]:
    path = sg.write_sigmastar(folder / "sigma_outtensor_dump.bin", _sg_tensors(), True)
    return folder, path


def _sigmastar_text(folder: Path) -> tuple[Path, Path]:
    path = sg.write_sigmastar(folder / "sigma_outtensor_dump.txt", _sg_tensors(), True, text=True)
    return folder, path


def _polygraphy(folder: Path) -> tuple[Path, Path]:
    path = folder / "r.json"
    path.write_text(polygraphy_json({n: _encoded(good_array(n)) for n in GOOD}))
    return path, path


WRITERS = {
    "npy": _npy,
    "npz": _npz,
    "ascend": _ascend,
    "sigmastar": _sigmastar,
    "sigmastar-text": _sigmastar_text,
    "polygraphy": _polygraphy,
}


def _read_totally(path: Path) -> int:
    """Open and load everything; the number of rows (0 when the input was refused as a whole)."""
    try:
        dump = open_dump(path)
    except DumpError as exc:
        assert "\n" not in str(exc)
        return 0
    for ref in dump:
        try:
            ref.load()
        except TensorReadError as exc:
            assert str(exc)
    return len(dump)


@pytest.mark.parametrize("fmt", WRITERS)
@given(data=st.data())
@_SETTINGS
def test_truncated_anywhere(tmp_path_factory: pytest.TempPathFactory, fmt: str, data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp(fmt)
    dump_path, victim = WRITERS[fmt](folder)
    raw = victim.read_bytes()
    cut = data.draw(st.integers(min_value=0, max_value=len(raw)), label="length")
    victim.write_bytes(raw[:cut])
    _read_totally(dump_path)


@pytest.mark.parametrize("fmt", WRITERS)
@given(data=st.data())
@_SETTINGS
def test_bytes_flipped_anywhere(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp(fmt)
    dump_path, victim = WRITERS[fmt](folder)
    raw = bytearray(victim.read_bytes())
    head = min(len(raw), 512)  # headers live at the front; data bytes are read as data
    flips = data.draw(
        st.lists(st.tuples(st.integers(0, head - 1), st.integers(1, 255)), min_size=1, max_size=6),
        label="flips",
    )
    for pos, mask in flips:
        raw[pos] ^= mask
    victim.write_bytes(bytes(raw))
    _read_totally(dump_path)


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_FIELDS = (
    "name",
    "file",
    "shape",
    "dtype",
    "kind",
    "node_name",
    "op_type",
    "topo_index",
    "node_inputs",
    "output_index",
    "quant",
)


@given(
    entries=st.lists(st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=6) | _JSON, max_size=6),
    top=st.dictionaries(
        st.sampled_from(("inputs", "nodes", "clamped", "notes", "target", "seed", "version")),
        _JSON,
        max_size=4,
    ),
)
@_SETTINGS
def test_any_manifest_entries_cost_only_their_rows(
    tmp_path_factory: pytest.TempPathFactory, entries: list[object], top: dict[str, object]
) -> None:
    import json

    from dumpscope.core.comparison.pipeline import compare_frame

    folder = tmp_path_factory.mktemp("manifest")
    for n in GOOD:
        np.save(folder / f"{n}.npy", good_array(n))
    good = [{"name": n, "file": f"{n}.npy"} for n in GOOD]
    manifest = {"format": "dumpscope-manifest", "version": 1, **top, "tensors": [*good, *entries]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    dump = open_dump(folder)
    for n in GOOD:  # a good entry keeps its row, whatever its neighbours hold
        assert dump.tensors[n].load().shape == (2, 3)
    _read_totally(folder)
    frame = compare_frame(folder, folder)
    assert set(GOOD) <= set(frame["name"].to_list())
