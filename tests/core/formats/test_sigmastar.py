"""SigmaStar SGS dumps (binary and text; float and fixed-point; simulator and framework side)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import sigmastar as sg

rng = np.random.default_rng(7)
NAMES = ["images", "backbone/conv 1:0", "Conv@44", "relu.out"]


def float_model() -> list[sg.SgsTensor]:
    x = rng.standard_normal((1, 4, 5, 3)).astype(np.float32)  # NHWC
    w = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((1, 4, 5, 8)).astype(np.float32)
    z = np.maximum(y, 0)
    return [
        sg.SgsTensor(NAMES[0], x, "conv1", 0, role="in"),
        sg.SgsTensor("conv1_w", w, "conv1", 0, constant=True, role="in", index=1),
        sg.SgsTensor(NAMES[1], y, "conv1", 0, pad_bytes=16),
        sg.SgsTensor(NAMES[1], y, "relu", 1, role="in"),  # an op input repeating its producer's output
        sg.SgsTensor(NAMES[2], z, "relu", 1),
    ]


def fixed_model() -> tuple[list[sg.SgsTensor], dict[str, np.ndarray]]:
    q8 = rng.integers(-128, 128, size=(1, 2, 2, 16)).astype(np.int8)
    u8 = rng.integers(0, 256, size=(10,)).astype(np.uint8)
    s16 = rng.integers(-30000, 30000, size=(3, 7)).astype(np.int16)
    tensors = [
        sg.SgsTensor(NAMES[1], q8, "conv1", 0, "SGS_S8", 0.05, 3),
        sg.SgsTensor(NAMES[2], u8, "relu", 1, "SGS_U8", 0.02, 128, pad_bytes=6),
        sg.SgsTensor(NAMES[3], s16, "fc", 2, "SGS_S16", 0.001, 0),
    ]
    expected = {
        t.name: ((t.data.astype(np.float64) - t.zero_point) * t.scale).astype(np.float32) for t in tensors
    }
    return tensors, expected


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
def test_float_dump_names_kinds_and_layout(tmp_path: Path, text: bool) -> None:
    tensors = float_model()
    p = sg.write_sigmastar(
        tmp_path / f"sigma_outtensor_dump.{'txt' if text else 'bin'}", tensors, True, text=text
    )
    assert sg.sniff(p) == 0.95
    dump = sg.open(p)
    assert not dump.problems
    assert list(dump.tensors) == [NAMES[0], "conv1_w", NAMES[1], NAMES[2]]
    kinds = {n: t.info.kind for n, t in dump.tensors.items()}
    assert kinds == {NAMES[0]: "input", "conv1_w": "constant", NAMES[1]: "activation", NAMES[2]: "activation"}
    by_name = {t.name: t.data for t in tensors}
    for name, ref in dump.tensors.items():
        got = ref.load()
        assert got.dtype == np.float32 and got.shape == by_name[name].shape
        if text:  # printed with %.6f
            np.testing.assert_allclose(got, by_name[name], atol=5e-7)
        else:
            np.testing.assert_array_equal(got, by_name[name])
    relu = dump.tensors[NAMES[2]].info
    assert relu.node_name == "relu" and relu.topo_index == 1 and dict(relu.extra)["layout"] == "NHWC"


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
def test_fixed_point_tensors_are_dequantised(tmp_path: Path, text: bool) -> None:
    tensors, expected = fixed_model()
    p = sg.write_sigmastar(
        tmp_path / f"sigma_outtensor_dump.{'txt' if text else 'bin'}", tensors, False, text=text
    )
    dump = sg.open(p)
    for name, want in expected.items():
        ref = dump.tensors[name]
        assert ref.info.dtype == "float32" and dict(ref.info.extra)["dequantised"] == "1"
        np.testing.assert_allclose(ref.load(), want, rtol=1e-6)
    assert dict(dump.tensors[NAMES[3]].info.extra)["sgs_type"] == "SGS_S16"


def test_float_and_fixed_simulator_dumps_pair_by_name(tmp_path: Path) -> None:
    real = rng.standard_normal((1, 3, 3, 4)).astype(np.float32)
    scale = float(np.abs(real).max() / 127)
    q = np.clip(np.round(real / scale), -128, 127).astype(np.int8)
    f = sg.write_sigmastar(tmp_path / "f.bin", [sg.SgsTensor("t", real, "op", 0)], True)
    x = sg.write_sigmastar(tmp_path / "x.bin", [sg.SgsTensor("t", q, "op", 0, "SGS_S8", scale, 0)], False)
    a, b = sg.open(f).tensors["t"].load(), sg.open(x).tensors["t"].load()
    assert np.abs(a - b).max() <= scale / 2 + 1e-6


def test_framework_dump_without_trailer_in_a_dumpdata_folder(tmp_path: Path) -> None:
    folder = tmp_path / "dumpData"
    folder.mkdir()
    tensors = float_model()
    sg.write_sigmastar(folder / "onnx_NHWC_outtensor_dump.bin", tensors, True, trailer=False)
    assert sg.sniff(tmp_path) == 0.95
    dump = sg.open(tmp_path)
    assert dump.meta["file"].endswith("onnx_NHWC_outtensor_dump.bin")  # type: ignore[union-attr]
    np.testing.assert_array_equal(dump.tensors[NAMES[2]].load(), tensors[4].data)


def test_odd_names_survive(tmp_path: Path) -> None:
    name = "a b/c:0@\udcff"
    p = sg.write_sigmastar(
        tmp_path / "sigma_outtensor_dump.bin", [sg.SgsTensor(name, np.ones(2, np.float32), "op x", 0)], True
    )
    dump = sg.open(p)
    assert list(dump.tensors) == [name] and dump.tensors[name].info.node_name == "op x"


def test_truncated_tail_and_junk_between_records(tmp_path: Path) -> None:
    tensors = float_model()
    p = sg.write_sigmastar(tmp_path / "sigma_outtensor_dump.bin", tensors, True)
    raw = p.read_bytes()
    cut = raw.index(b"//out 0 s: 1.000000 z: 0 type: float name: Conv@44")
    p.write_bytes(raw[:cut] + b"garbage line\n\xff\xfe\n" + raw[cut:-40])
    dump = sg.open(p)
    assert dump.tensors[NAMES[1]].load().shape == (1, 4, 5, 8)
    bad = dump.tensors[NAMES[2]]
    assert bad.error is not None and "truncated" in bad.error
    with pytest.raises(TensorReadError, match="truncated"):
        bad.load()
    assert any("truncated" in prob.message for prob in dump.problems)


def test_short_record_and_duplicate_names_are_reported(tmp_path: Path) -> None:
    p = tmp_path / "sigma_outtensor_dump.bin"
    p.write_bytes(
        b"isFloat: 1\n"
        b"//out 0 s: 1 z: 0 type: float name: t bConstant:0 shape:[4] dims:1\nop_out[0] a = {\n"
        b"//buffer data size: 8\n" + bytes(8) + b"\n};\n"
        b"//out 0 s: 1 z: 0 type: float name: t bConstant:0 shape:[1] dims:1\nop_out[1] b = {\n"
        b"//buffer data size: 4\n" + bytes(4) + b"\n};\n"
        b"//out 0 s: 1 z: 0 type: float name: u bConstant:0 shape:[x] dims:1\n"
    )
    dump = sg.open(p)
    assert "needs 16" in (dump.tensors["t"].error or "")
    messages = " | ".join(prob.message for prob in dump.problems)
    assert "dumped twice" in messages and "not a list of integers" in messages


def test_text_record_with_too_few_values(tmp_path: Path) -> None:
    p = tmp_path / "sigma_outtensor_dump.txt"
    p.write_text(
        "isFloat: 1\n//out 0 s: 1 z: 0 type: float name: t bConstant:0 shape:[3] dims:1\nop_out[0] a = "
        "{\n\n1.0, 2.0, \n}\n"
    )
    with pytest.raises(TensorReadError, match="holds 2 values"):
        sg.open(p).tensors["t"].load()


@pytest.mark.parametrize(
    "content", [b"", b"not a dump\n", b"isFloat: 1\n"], ids=["empty", "other", "no-records"]
)
def test_unusable_files(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "sigma_outtensor_dump.bin"
    p.write_bytes(content)
    with pytest.raises(DumpError):
        sg.open(p)
    assert sg.sniff(tmp_path / "elsewhere") == 0.0
    if not content.startswith(b"isFloat"):
        assert sg.sniff(p) == 0.0


def test_data_is_read_at_load_time(tmp_path: Path) -> None:
    p = sg.write_sigmastar(
        tmp_path / "sigma_outtensor_dump.bin", [sg.SgsTensor("t", np.zeros(4, np.float32), "op", 0)], True
    )
    ref = sg.open(p).tensors["t"]
    raw = bytearray(p.read_bytes())
    start = raw.index(b"//buffer data size: 16\n") + len(b"//buffer data size: 16\n")
    raw[start : start + 4] = np.float32(3.5).tobytes()
    p.write_bytes(bytes(raw))
    assert ref.load()[0] == 3.5


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tail=st.binary(max_size=400), text=st.booleans())
def test_arbitrary_records_never_crash(tmp_path: Path, tail: bytes, text: bool) -> None:
    head = (
        b"isFloat: 0\n//out 0 s: 0.5 z: 1 type: SGS_S8 name: t bConstant:0 shape:[2, 3] "
        b"dims:2\nop_out[0] a = {\n"
    )
    p = tmp_path / f"sigma_outtensor_dump.{'txt' if text else 'bin'}"
    p.write_bytes(head + tail)
    try:
        dump = sg.open(p)
    except DumpError:
        return
    for ref in dump:
        try:
            ref.load()
        except TensorReadError:
            pass
