"""A scanned ``.npy`` file's info, made slot by slot, equals the one ``TensorInfo(...)`` makes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dumpscope.core.dumps import TensorInfo
from dumpscope.core.formats import npy_dir

TEXT = st.text(max_size=12)


@given(
    name=TEXT,
    node=st.none() | TEXT,
    op_type=st.none() | TEXT,
    index=st.integers(0, 9),
    kind=st.sampled_from(["activation", "op_input", "input"]),
    order=st.none() | st.floats(allow_nan=False),
    extra=st.lists(st.tuples(TEXT, TEXT), max_size=2).map(tuple),
    file=TEXT,
)
def test_a_scanned_info_equals_the_constructed_one(
    name: str,
    node: str | None,
    op_type: str | None,
    index: int,
    kind: str,
    order: float | None,
    extra: tuple[tuple[str, str], ...],
    file: str,
) -> None:
    parsed = npy_dir._Parsed(name, node, op_type, index, kind, order, extra)  # type: ignore[arg-type]
    made = npy_dir._scan_info(file, parsed, order)
    expected = TensorInfo(
        name=name,
        node_name=node,
        op_type=op_type,
        output_index=index,
        kind=kind,
        source=file,
        order=order,
        extra=extra,
    )  # type: ignore[arg-type]
    assert made == expected and repr(made) == repr(expected) and hash(made) == hash(expected)
