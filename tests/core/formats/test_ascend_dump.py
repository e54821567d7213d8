"""Ascend raw dump reader: real samples, synthetic v1/v2 files, device layouts, bad input."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import ascend_dump as ad
from dumpscope.core.formats import ascend_layout as lay
from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.formats import protobuf as pb
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared Ascend samples not present")
JUNK = 7777.0  # padding lanes are filled with this; it must never reach a converted tensor
NC1HWC0, FRACTAL_Z, FRACTAL_NZ, NDC1HWC0 = 3, 4, 29, 32
NCHW, NHWC, ND = 0, 1, 2
FLOAT, FLOAT16 = 1, 2


# --- forward conversions (framework -> device), written from the layout definitions ---


def _pad_axis(x: np.ndarray, axis: int, to: int) -> np.ndarray:
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, to - x.shape[axis])
    return np.pad(x, pad, constant_values=JUNK)


def nchw_to_nc1hwc0(x: np.ndarray, c0: int = 16) -> np.ndarray:
    n, c, h, w = x.shape
    c1 = math.ceil(c / c0)
    return _pad_axis(x, 1, c1 * c0).reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2).copy()


def nd_to_fractal_nz(x: np.ndarray, h0: int = 16, w0: int = 16) -> np.ndarray:
    *batch, h, w = x.shape
    h1, w1 = math.ceil(h / h0), math.ceil(w / w0)
    p = _pad_axis(_pad_axis(x, -2, h1 * h0), -1, w1 * w0)
    b = math.prod(batch)
    out = p.reshape(b, h1, h0, w1, w0).transpose(0, 3, 1, 2, 4)
    return out.reshape(*batch, w1, h1, h0, w0).copy()


def nchw_to_fractal_z(x: np.ndarray, c0: int = 16, n0: int = 16) -> np.ndarray:
    n, c, h, w = x.shape
    n1, c1 = math.ceil(n / n0), math.ceil(c / c0)
    p = _pad_axis(_pad_axis(x, 0, n1 * n0), 1, c1 * c0)
    return p.reshape(n1, n0, c1, c0, h, w).transpose(2, 4, 5, 0, 1, 3).reshape(c1 * h * w, n1, n0, c0).copy()


def ncdhw_to_ndc1hwc0(x: np.ndarray, c0: int = 16) -> np.ndarray:
    n, c, d, h, w = x.shape
    c1 = math.ceil(c / c0)
    return _pad_axis(x, 1, c1 * c0).reshape(n, c1, c0, d, h, w).transpose(0, 3, 1, 4, 5, 2).copy()


rng = np.random.default_rng(20261122)


F16 = np.dtype(np.float16)


def _values(shape: tuple[int, ...], dtype: np.dtype = F16) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


def _write(path: Path, op: str, out: aw.RawTensor, **kw: object) -> Path:
    return aw.write_dump(path, op, [out], **kw)  # type: ignore[arg-type]


# --- real samples ---


@needs_samples
def test_every_sample_npu_file_matches_golden_through_fp16() -> None:
    dump = ad.open(SAMPLES / "npu")
    assert not dump.problems
    assert len(dump) == len(list((SAMPLES / "npu").iterdir())) == 20
    goldens = {p.name.split(".")[0]: p for p in (SAMPLES / "golden").glob("*.npy")}
    for name, ref in dump.tensors.items():
        assert ref.info.kind == "activation" and ref.info.op_type == "Add"
        assert ref.info.dtype == "float32" and ref.info.shape == (1000,)
        assert dict(ref.info.extra)["stream_id"] == "1"
        golden = np.load(goldens[name], allow_pickle=False)
        np.testing.assert_array_equal(ref.load(), golden.astype(np.float16).astype(np.float32))
    orders = [t.info.order for t in dump]
    assert orders == sorted(orders)


@needs_samples
def test_sample_opdebug_directory_keeps_records_apart_and_reads_op_inputs() -> None:
    dump = ad.open(SAMPLES / "opdebug_raw")
    assert sorted(dump.tensors) == [
        "conv1_mul", "conv1_mul:input:0", "conv1_mul:input:1", "layer_add", "layer_add:input:0",
    ]  # fmt: skip
    assert len(dump.meta["opdebug_files"]) == 2  # type: ignore[arg-type]
    x = dump.tensors["conv1_mul:input:1"]
    assert x.info.kind == "op_input" and x.info.node_name == "conv1_mul" and x.info.output_index == 1
    assert np.all(x.load() == np.float16(1000))
    assert np.all(dump.tensors["layer_add"].load() == np.float16(65504))
    for p in (SAMPLES / "opdebug_raw").glob("Opdebug*"):
        header = ad.parse_header(p)
        assert header.role("output")[0].size in (2048, 112)
        assert not header.problems


# --- synthetic files ---

SUPPORTED = [
    (1, np.float32), (2, np.float16), (3, np.int8), (4, np.uint8), (5, np.int16), (6, np.uint16),
    (7, np.int32), (8, np.int64), (9, np.uint32), (10, np.uint64), (11, np.bool_), (12, np.float64),
    (16, np.complex64), (27, ml_dtypes.bfloat16), (34, ml_dtypes.float8_e5m2),
    (35, ml_dtypes.float8_e4m3fn),
]  # fmt: skip


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize(("code", "dtype"), SUPPORTED)
def test_every_supported_dtype_round_trips(tmp_path: Path, version: int, code: int, dtype: type) -> None:
    data = (rng.standard_normal((3, 5)) * 4).astype(dtype)
    src = rng.integers(-9, 9, size=7).astype(np.int32)
    _write(
        tmp_path / "Op.my_op.3.1.1700000000000001", "my/op.v2", aw.RawTensor(data, code),
        inputs=[aw.RawTensor(src, 7)], layout_version=version,
    )  # fmt: skip
    dump = ad.open(tmp_path)
    out = dump.tensors["my/op.v2"]
    assert out.info.dtype == np.dtype(dtype).name and out.info.shape == (3, 5)
    np.testing.assert_array_equal(out.load(), data)
    np.testing.assert_array_equal(dump.tensors["my/op.v2:input:0"].load(), src)
    assert dict(out.info.extra)["dump_layout"] == f"v{version}"


def test_unsupported_dtype_is_a_message_on_that_tensor_only(tmp_path: Path) -> None:
    packed = np.zeros(8, np.uint8)  # INT4: two values per byte
    aw.write_dump(
        tmp_path / "Quant.q.1.1.1700000000000001", "q",
        [aw.RawTensor(packed, 28), aw.RawTensor(np.ones(4, np.float16), FLOAT16)],
    )  # fmt: skip
    dump = ad.open(tmp_path)
    bad, good = dump.tensors["q"], dump.tensors["q:1"]
    assert bad.error is not None and "INT4 is not supported" in bad.error and bad.info.dtype is None
    with pytest.raises(TensorReadError, match="INT4"):
        bad.load()
    np.testing.assert_array_equal(good.load(), np.ones(4, np.float16))


def test_truncated_file_flags_the_missing_tensor_and_keeps_the_rest(tmp_path: Path) -> None:
    p = aw.write_dump(
        tmp_path / "Conv2D.c.1.1.1700000000000001", "c",
        [aw.RawTensor(_values((64,)), FLOAT16)], inputs=[aw.RawTensor(_values((8,)), FLOAT16)],
    )  # fmt: skip
    with open(p, "r+b") as fh:
        fh.truncate(p.stat().st_size - 10)
    dump = ad.open(tmp_path)
    assert "truncated" in (dump.tensors["c"].error or "")
    assert dump.tensors["c:input:0"].load().shape == (8,)
    assert any("truncated" in prob.message for prob in dump.problems)


def test_size_that_disagrees_with_shape_is_reported(tmp_path: Path) -> None:
    header = pb.encode_bytes(
        3,
        pb.encode_int(1, FLOAT)
        + pb.encode_int(2, ND)
        + pb.encode_bytes(3, pb.encode_packed(1, [4]))
        + pb.encode_int(6, 8),
    ) + pb.encode_bytes(6, "odd")
    p = tmp_path / "Add.odd.1.1.1700000000000001"
    p.write_bytes(len(header).to_bytes(8, "little") + header + bytes(8))
    ref = ad.open(tmp_path).tensors["odd"]
    assert ref.error is not None and "needs 16" in ref.error


def _negative_dim_header() -> bytes:
    shape = pb.encode_bytes(3, pb.encode_packed(1, [-1 & 0xFFFFFFFFFFFFFFFF, 4]))
    header = pb.encode_bytes(3, pb.encode_int(1, 1) + shape + pb.encode_int(6, 0)) + pb.encode_bytes(6, "dyn")
    return len(header).to_bytes(8, "little") + header


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x01\x02",
        b"\xff" * 64,
        (10**9).to_bytes(8, "little") + b"\x0a\x03abc",
        b"plain text that is no dump\n",
        (3).to_bytes(8, "little") + pb.encode_bytes(2, b"x"),  # dump_time sent as bytes
        (4).to_bytes(8, "little") + pb.encode_int(5, 1) + pb.encode_int(9, 1),  # no known field
        _negative_dim_header(),
    ],
    ids=[
        "empty",
        "tiny",
        "junk",
        "huge-header-length",
        "text",
        "wrong-wire-type",
        "unknown-fields",
        "negative-dim",
    ],
)
def test_corrupt_files_with_dump_names_become_problems(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "Add.bad.1.1.1700000000000001").write_bytes(content)
    _write(tmp_path / "Add.ok.2.1.1700000000000002", "ok", aw.RawTensor(_values((4,)), FLOAT16))
    (tmp_path / "notes").write_bytes(b"\xff\xfe not a dump")  # not dump-named: ignored quietly
    dump = ad.open(tmp_path)
    assert list(dump.tensors) == ["ok"]
    assert [Path(p.path).name for p in dump.problems] == ["Add.bad.1.1.1700000000000001"]


def test_directory_without_dumps_is_a_dump_error(tmp_path: Path) -> None:
    (tmp_path / "a.npy").write_bytes(b"x")
    with pytest.raises(DumpError, match="no Ascend dump files"):
        ad.open(tmp_path)
    assert ad.sniff(tmp_path) == 0.0


def test_data_is_read_lazily_at_load_time(tmp_path: Path) -> None:
    data = np.arange(6, dtype=np.float32)
    p = _write(tmp_path / "Add.a.1.1.1700000000000001", "a", aw.RawTensor(data, FLOAT))
    ref = ad.open(tmp_path).tensors["a"]
    raw = bytearray(p.read_bytes())
    raw[-4:] = np.float32(42).tobytes()
    p.write_bytes(bytes(raw))
    assert ref.load()[-1] == 42


# --- names and directory layouts ---


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Add.layer_0.2.1.1700000000000001", ("Add", "layer_0", 2, 1, 1700000000000001, None, None)),
        ("Conv2D.conv1.12.1700000000000001", ("Conv2D", "conv1", 12, None, 1700000000000001, None, None)),
        (
            "MatMul.mm_lxslice1.3.5.1700000000000009.4.7.2.0",
            ("MatMul", "mm_lxslice1", 5, 3, 1700000000000009, 7, 2),
        ),
        ("Mul.Conv@44_x:1.9.2.1700000000000003", ("Mul", "Conv@44_x:1", 9, 2, 1700000000000003, None, None)),
        ("Add.123.4.0.1700000000000003", ("Add", "123", 4, 0, 1700000000000003, None, None)),
        ("Add.ünï.1.1.1700000000000003", ("Add", "ünï", 1, 1, 1700000000000003, None, None)),
    ],
)
def test_dump_names_in_both_schemes(name: str, expected: tuple[object, ...]) -> None:
    d = ad.parse_dump_name(name)
    assert d is not None
    assert (d.op_type, d.op_name, d.task_id, d.stream_id, d.timestamp, d.context_id, d.thread_id) == expected


@pytest.mark.parametrize(
    "name",
    [
        "layer_0.0.1700000000000000.npy",
        "layer_0.0.1700000000000000",
        "output_0.bin",
        "mapping.csv",
        "Add.x.1",
    ],
)
def test_non_dump_names(name: str) -> None:
    assert ad.parse_dump_name(name) is None


def test_true_op_name_comes_from_the_header_not_the_lossy_file_name(tmp_path: Path) -> None:
    true = "backbone/layer1.0/conv 1:0"
    _write(
        tmp_path / "Conv2D.backbone_layer1_0_conv_1:0.1.1.1700000000000001",
        true,
        aw.RawTensor(_values((2,)), FLOAT16),
    )
    ref = ad.open(tmp_path).tensors[true]
    assert ref.info.node_name == true and ref.info.op_type == "Conv2D"


def test_hashed_long_names_resolve_through_mapping_csv(tmp_path: Path) -> None:
    long_name = "Conv2D." + "x" * 300 + ".4.1.1700000000000001"
    _write(tmp_path / "8817263541", "", aw.RawTensor(_values((2,)), FLOAT16))
    (tmp_path / "mapping.csv").write_text(f"8817263541,{long_name}\n")
    ref = ad.open(tmp_path).tensors["x" * 300]
    assert ref.info.op_type == "Conv2D" and dict(ref.info.extra)["task_id"] == "4"


def test_a_mapped_name_with_a_huge_number_is_one_problem_not_a_crash(tmp_path: Path) -> None:
    """int() refuses more than 4300 digits: that name costs its own file, the rest is read."""
    _write(tmp_path / "8817263541", "", aw.RawTensor(_values((2,)), FLOAT16))
    _write(tmp_path / "Relu.relu1.1.1.1700000000000005", "relu1", aw.RawTensor(_values((3,)), FLOAT16))
    (tmp_path / "mapping.csv").write_text("8817263541,Conv2D.conv.4.1." + "9" * 5000 + "\n")
    dump = ad.open(tmp_path)
    assert "relu1" in dump.tensors
    assert any("8817263541" in problem.path for problem in dump.problems)


def test_nested_device_layout_and_repeated_executions(tmp_path: Path) -> None:
    leaf = tmp_path / "20261122001500" / "0" / "resnet" / "1"
    for step, ts in ((0, 1700000000000005), (1, 1700000000000002)):
        d = leaf / str(step)
        d.mkdir(parents=True)
        _write(d / f"Relu.relu1.1.1.{ts}", "relu1", aw.RawTensor(np.full(3, step, np.float16), FLOAT16))
    dump = ad.open(tmp_path)
    assert ad.sniff(tmp_path) > 0.5
    # The earlier execution (step 1, smaller timestamp) keeps the plain name.
    assert dump.tensors["relu1"].load()[0] == 1 and dump.tensors["relu1#2"].load()[0] == 0
    assert dump.tensors["relu1#2"].info.node_name == "relu1"
    assert dump.meta["repeated_ops"] == {"relu1": 2}


@needs_samples
def test_sniff_prefers_raw_dumps_over_other_files(tmp_path: Path) -> None:
    assert ad.sniff(SAMPLES / "npu") > 0.9
    assert ad.sniff(SAMPLES / "golden") == 0.0
    assert ad.sniff(SAMPLES / "graph.json") == 0.0
    one = tmp_path / "one"
    shutil.copy(next((SAMPLES / "npu").iterdir()), one)
    assert ad.sniff(one) == 0.8
    assert ad.sniff(tmp_path / "missing") == 0.0


# --- device formats ---


def _roundtrip(
    tmp_path: Path, device: np.ndarray, fmt: int, orig: tuple[int, ...], origin_fmt: int | None = None
) -> np.ndarray:
    t = aw.RawTensor(device, FLOAT16, fmt, orig, "src", 0, origin_fmt)
    _write(tmp_path / "Op.t.1.1.1700000000000001", "t", t)
    ref = ad.open(tmp_path).tensors["t"]
    assert ref.info.shape == orig
    out = ref.load()
    assert not np.any(out == JUNK), "padding lanes leaked into the converted tensor"
    return out


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (1, 16, 2, 2), (1, 33, 3, 1)])
def test_nc1hwc0_to_nchw(tmp_path: Path, shape: tuple[int, ...]) -> None:
    x = _values(shape)
    np.testing.assert_array_equal(_roundtrip(tmp_path, nchw_to_nc1hwc0(x), NC1HWC0, shape), x)


def test_nc1hwc0_to_nhwc_inferred_and_declared(tmp_path: Path) -> None:
    x = _values((2, 5, 6, 7))  # NCHW
    nhwc = x.transpose(0, 2, 3, 1)
    device = nchw_to_nc1hwc0(x)
    np.testing.assert_array_equal(_roundtrip(tmp_path, device, NC1HWC0, nhwc.shape), nhwc)
    square = _values((1, 4, 4, 4))  # H == W == C: only the declared origin format can tell
    got = _roundtrip(tmp_path, nchw_to_nc1hwc0(square), NC1HWC0, (1, 4, 4, 4), NHWC)
    np.testing.assert_array_equal(got, square.transpose(0, 2, 3, 1))


def test_graph_origin_formats_settle_ambiguous_layouts(tmp_path: Path) -> None:
    square = _values((1, 4, 4, 4))  # NCHW; H == W == C
    nhwc = square.transpose(0, 2, 3, 1)
    _write(
        tmp_path / "Op.t.1.1.1700000000000001",
        "t",
        aw.RawTensor(nchw_to_nc1hwc0(square), FLOAT16, NC1HWC0, nhwc.shape),
    )
    _write(
        tmp_path / "Op.u.2.1.1700000000000002", "u", aw.RawTensor(nhwc.copy(), FLOAT16, NHWC, square.shape)
    )
    dump = ad.open(tmp_path)
    np.testing.assert_array_equal(dump.tensors["t"].load(), square)  # without a hint, NCHW is assumed
    hinted = ad.with_origin_formats(dump, {"t": "NHWC", "u": "NCHW", "missing": "NCHW"})
    np.testing.assert_array_equal(hinted.tensors["t"].load(), nhwc)
    np.testing.assert_array_equal(hinted.tensors["u"].load(), square)
    assert dict(hinted.tensors["t"].info.extra)["origin_format"] == "NHWC"
    assert dump.tensors["t"].info.extra != hinted.tensors["t"].info.extra  # the original dump is untouched


@pytest.mark.parametrize("shape", [(5, 7), (16, 16), (3, 20, 33), (2, 2, 1, 17), (40,)])
def test_fractal_nz_to_nd(tmp_path: Path, shape: tuple[int, ...]) -> None:
    x = _values(shape)
    as_2d = x.reshape(1, -1) if x.ndim == 1 else x
    np.testing.assert_array_equal(_roundtrip(tmp_path, nd_to_fractal_nz(as_2d), FRACTAL_NZ, shape), x)


@pytest.mark.parametrize("shape", [(4, 3, 3, 3), (17, 20, 1, 1), (32, 16, 2, 3)])
def test_fractal_z_to_nchw(tmp_path: Path, shape: tuple[int, ...]) -> None:
    w = _values(shape)
    np.testing.assert_array_equal(_roundtrip(tmp_path, nchw_to_fractal_z(w), FRACTAL_Z, shape), w)


def test_ndc1hwc0_to_ncdhw(tmp_path: Path) -> None:
    x = _values((2, 5, 3, 4, 2))
    np.testing.assert_array_equal(_roundtrip(tmp_path, ncdhw_to_ndc1hwc0(x), NDC1HWC0, x.shape), x)


def test_plain_layout_permutation_follows_the_origin_format() -> None:
    x = _values((2, 3, 4, 5))
    nhwc = x.transpose(0, 2, 3, 1)
    out = lay.to_original(nhwc.reshape(-1), NHWC, nhwc.shape, x.shape, "NCHW")
    np.testing.assert_array_equal(out, x)


def test_unknown_format_is_a_message_on_the_tensor(tmp_path: Path) -> None:
    t = aw.RawTensor(_values((1, 1, 2, 2, 16)), FLOAT16, 17, (1, 4, 2, 2))  # NC1KHKWHWC0
    _write(tmp_path / "Op.t.1.1.1700000000000001", "t", t)
    _write(tmp_path / "Op.u.2.1.1700000000000002", "u", aw.RawTensor(_values((3,)), FLOAT16, 200))
    dump = ad.open(tmp_path)
    assert "NC1KHKWHWC0 is not converted" in (dump.tensors["t"].error or "")
    assert "code 200 is not converted" in (dump.tensors["u"].error or "")


def test_layout_mismatch_raises_a_clear_error() -> None:
    with pytest.raises(lay.LayoutError, match="fits neither NCHW nor NHWC"):
        lay.to_original(np.zeros(2 * 16 * 9, np.float16), NC1HWC0, (1, 2, 3, 3, 16), (1, 20, 4, 4))


# --- protobuf decoder ---


def test_protobuf_rejects_lengths_past_the_end() -> None:
    msg = pb.encode_bytes(1, b"abcdef")
    with pytest.raises(pb.ProtobufError, match="claims 6 bytes"):
        list(pb.iter_fields(msg[:-2]))
    with pytest.raises(pb.ProtobufError, match="varint"):
        list(pb.iter_fields(b"\x08\xff\xff"))
    with pytest.raises(pb.ProtobufError, match="wire type"):
        list(pb.iter_fields(b"\x0b"))


def test_protobuf_reads_packed_and_unpacked_repeated_fields() -> None:
    packed = pb.encode_packed(1, [1, 300, 2**40])
    unpacked = b"".join(pb.encode_int(1, v) for v in [1, 300, 2**40])
    for msg in (packed, unpacked):
        fields = pb.group(pb.iter_fields(msg))
        assert pb.repeated_varints(msg, fields[1]) == [1, 300, 2**40]
    assert pb.to_signed(pb.read_varint(pb.encode_varint(-1), 0, 10)[0]) == -1


# --- properties ---

_dims = st.integers(min_value=1, max_value=9)


@settings(max_examples=60, deadline=None)
@given(n=_dims, c=st.integers(1, 40), h=_dims, w=_dims, c0=st.sampled_from([4, 8, 16, 32]))
def test_nc1hwc0_round_trip_property(n: int, c: int, h: int, w: int, c0: int) -> None:
    x = np.arange(n * c * h * w, dtype=np.float32).reshape(n, c, h, w)
    device = nchw_to_nc1hwc0(x, c0)
    out = lay.to_original(device.reshape(-1), NC1HWC0, device.shape, x.shape, "NCHW")
    np.testing.assert_array_equal(out, x)


@settings(max_examples=60, deadline=None)
@given(
    batch=st.lists(_dims, max_size=2),
    h=st.integers(1, 40),
    w=st.integers(1, 40),
    w0=st.sampled_from([16, 32]),
)
def test_fractal_nz_round_trip_property(batch: list[int], h: int, w: int, w0: int) -> None:
    x = np.arange(math.prod(batch) * h * w, dtype=np.float32).reshape(*batch, h, w)
    device = nd_to_fractal_nz(x, 16, w0)
    np.testing.assert_array_equal(lay.to_original(device.reshape(-1), FRACTAL_NZ, device.shape, x.shape), x)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), c=st.integers(1, 40), h=_dims, w=_dims, c0=st.sampled_from([16, 32]))
def test_fractal_z_round_trip_property(n: int, c: int, h: int, w: int, c0: int) -> None:
    x = np.arange(n * c * h * w, dtype=np.float32).reshape(n, c, h, w)
    device = nchw_to_fractal_z(x, c0)
    np.testing.assert_array_equal(lay.to_original(device.reshape(-1), FRACTAL_Z, device.shape, x.shape), x)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), name=st.sampled_from(["Add.a.1.1.1700000000000001", "8812731"]))
def test_arbitrary_bytes_never_crash_the_reader(tmp_path: Path, data: bytes, name: str) -> None:
    p = tmp_path / name
    p.write_bytes(data)
    try:
        header = ad.parse_header(p)
    except ad.DumpFileError:
        return
    for desc in header.tensors:
        if desc.role in ("input", "output") and ad.tensor_problem(desc, header.file_size) is None:
            try:
                ad.load_tensor(header, desc)
            except (lay.LayoutError, ValueError):
                pass
