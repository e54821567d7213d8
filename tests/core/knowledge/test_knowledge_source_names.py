"""Issue 23: a tool recognised by the compound names of its own files (``bench/build_source_grams.py``).

A message whose markers are gone and which quotes no 4-gram of its tool's error texts may still name the
tool's API: a function (``getUserRegion``), an option (``allow_custom_ops``), a status
(``RUNTIME_EXCEPTION``).  The build keeps a family's names by the 4-grams' three rules and leaves out ONNX
operator types and the names of PyTorch's Python sources; the product
counts them in the wording cue and the wording order (:mod:`.kb`).  Checked on synthetic binaries, on the
shipped table (its consistency, and names read from the vendors' wheels: TensorRT 11.4's bindings,
ai-edge-litert 2.3.0, onnxruntime 1.x, OpenVINO 2026.4.1, RKNN-Toolkit2 2.5.0, torch-npu 2.14.0), and on the
cue's and the order's rules.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumpscope.core.knowledge import Entry
from dumpscope.core.knowledge import family as family_module
from dumpscope.core.knowledge import kb as kb_module
from dumpscope.core.knowledge.family import NAME, SOURCE_COUNTS, source_name_counts
from dumpscope.core.knowledge.kb import Match, family_wording_order, wording_cue
from dumpscope.core.knowledge.package_data import package_bytes
from tests.support.paths import bench_script


@pytest.fixture(scope="module")
def build() -> Any:
    return bench_script("build_source_grams")


# --- the pattern -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, names",
    [
        ("rt::Engine::getUserRegion::1312", ["getUserRegion"]),
        ("converter.allow_custom_ops = True", ["allow_custom_ops"]),
        ("[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : x", ["ONNXRuntimeError", "RUNTIME_EXCEPTION"]),
        ("Error: failed to open model.onnx on x86_64 (anaconda3)", []),  # plain words, no compound name
        ("state_in ContextType op_base", []),  # under twelve characters
        ("_Z3fooN6detail11getUserRegionEv", []),  # starts with an underscore: a mangled symbol
        ("a" * 30 + "_" + "b" * 40, []),  # longer than 64: a hash or a symbol, not a name
    ],
)
def test_a_name_is_a_whole_compound_run(text: str, names: list[str]) -> None:
    assert [m.group() for m in NAME.finditer(text)] == names


_RUN = st.text(alphabet="abcXYZ_019 .:-", max_size=80)


@given(_RUN)
def test_every_name_found_is_a_whole_compound_run_of_6_to_64(text: str) -> None:
    for m in NAME.finditer(text):
        name = m.group()
        assert 12 <= len(name) <= 64 and name[0].isalpha()
        assert m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
        assert m.end() == len(text) or not (text[m.end()].isalnum() or text[m.end()] == "_")
        assert "_" in name or any(a.islower() and b.isupper() for a, b in zip(name, name[1:], strict=False))


@given(_RUN, _RUN)
def test_the_counts_are_a_function_of_the_distinct_names(a: str, b: str) -> None:
    """Repeating a text adds no name; the counts only hold families of the table."""
    once = source_name_counts(f"{a} {b}")
    assert source_name_counts(f"{a} {b} {a} {b}") == once
    assert set(once) <= set(family_module._source_names()[0])


# --- the build ---------------------------------------------------------------------------------------

_A = b"\x00ELF\x00the widget failed: getSidelessChannel returned null\x00 sharedHelperName is set\x00"
_B = (
    b"MZ\x90\x00 sharedHelperName is set\x00\x00"
    b"bind_frobnicator_now(handle) failed; see MatMulInteger here\x00"
)
_LIB = b"\x00vendoredLibFunction was not found\x00"
_RUNTIME = b"\x00cudaRuntimeThing failed to bind\x00cudaOtherCallNow_v2 is unavailable\x00"


def _names(build: Any, operators: tuple[str, ...] = ()) -> dict[str, set[int]]:
    return build.family_names(
        {
            "alpha": build.literals(_A) | {"cudaRuntimeThing", "cudaOtherCallNow(handle) failed"},
            "beta": build.literals(_B) | build.literals(_LIB),
            "lib": build.literals(_LIB),
            "runtime": build.literals(_RUNTIME),
        },
        {"beta": ("lib",)},
        {"gamma": ["gamma entry: bind_frobnicator_now was called"]},
        generic=("runtime",),
        operators=operators,
    )


def test_the_build_keeps_each_family_s_own_names_by_the_three_rules(build: Any) -> None:
    names = _names(build, operators=("MatMulInteger",))
    crc = lambda n: zlib.crc32(n.encode())  # noqa: E731
    assert crc("getSidelessChannel") in names["alpha"]
    assert crc("sharedHelperName") not in names["alpha"] | names["beta"]  # rule 2: both families' files
    assert crc("cudaRuntimeThing") not in names["alpha"]  # rule 2: a runtime's text
    assert crc("cudaOtherCallNow") not in names["alpha"]  # ... and its versioned symbol's name
    assert crc("bind_frobnicator_now") not in names["beta"]  # rule 3: another family's entry names it
    assert crc("vendoredLibFunction") in names["lib"] and crc("vendoredLibFunction") not in names["beta"]
    assert crc("MatMulInteger") not in names["beta"]  # an ONNX operator type names no tool
    assert crc("MatMulInteger") in _names(build)["beta"]
    # a name common code spells (PyTorch's Python sources) names no tool
    common = build.family_names({"alpha": build.literals(_A)}, {}, {}, common=("getSidelessChannel",))
    assert crc("getSidelessChannel") not in common["alpha"]
    assert set(names) == {"alpha", "beta", "lib"}


def test_the_names_table_is_in_the_document_and_reproducible(build: Any) -> None:
    grams = {"alpha": {1, 2}, "beta": {3}}
    names = {"alpha": {7}, "beta": {5, 9}}
    table = build.pack(names)
    first = build.document(grams, {"alpha": "a", "beta": "b"}, table)
    second = build.document(grams, {"alpha": "a", "beta": "b"}, build.pack(names))
    assert json.dumps(first[0], sort_keys=True) == json.dumps(second[0], sort_keys=True)
    doc = first[0]
    assert doc["names_table_bytes"] == len(table) == 15
    assert doc["names_table_sha256"] == hashlib.sha256(table).hexdigest()
    assert [r["names"] for r in doc["families"]] == [1, 2]
    with pytest.raises(AssertionError):
        build.document(grams, {"alpha": "a", "beta": "b"}, build.pack({**names, "gamma": {11}}))


def test_the_shipped_names_table_is_consistent_with_its_document() -> None:
    doc = json.loads(package_bytes("source_grams.json"))
    table = package_bytes(doc["names_table"])
    assert len(table) == doc["names_table_bytes"]
    assert hashlib.sha256(table).hexdigest() == doc["names_table_sha256"]
    families, keys, owners = family_module._source_names()
    assert families == family_module._source_grams()[0]
    assert len(keys) == len(owners) == len(table) // 5
    assert all(a < b for a, b in zip(keys, keys[1:], strict=False))
    assert [bytes(owners).count(i) for i in range(len(families))] == [r["names"] for r in doc["families"]]


# --- names read from the vendors' files --------------------------------------------------------------


@pytest.mark.parametrize(
    "name, family",
    [
        ("getUserRegion", "tensorrt"),  # libnvinfer_lean: rt::Engine::getUserRegion
        ("plugin_namespace", "tensorrt"),
        ("allow_custom_ops", "tflite"),  # ai-edge-litert's converter option
        ("signature_keys", "tflite"),
        ("ExecuteKernel", "onnxruntime"),  # the executor's log location
        ("RUNTIME_EXCEPTION", "onnxruntime"),  # a status code's name
        ("minus_one_dim", "openvino"),  # the Reshape shape-inference check
        ("error_catch_wrapper", "rknn"),  # RKNN-Toolkit2's compiled API
        ("aclopCompileAndExecute", "ascend"),  # torch_npu's ACL call
        ("QnnGraph_finalize", "qualcomm"),
    ],
)
def test_a_vendor_s_own_name_counts_for_its_tool(name: str, family: str) -> None:
    assert source_name_counts(f"error in {name}: failed") == {family: 1}


@pytest.mark.parametrize(
    "name",
    [
        "MatMulInteger",
        "QuantizeLinear",
        "site_packages",
        "named_parameters",
        "FileNotFoundError",
        "input_names",
    ],
)
def test_an_operator_type_or_a_generic_name_counts_for_no_tool(name: str) -> None:
    assert source_name_counts(f"error in {name}: failed") == {}


def _match(family: str, score: float, n: int = 0) -> Match:
    e = Entry(
        id=f"{family}-{n}",
        tool=family,
        stage="run",
        cause="c",
        fix="f",
        source="s",
        family=family,
        pattern="",
    )
    return Match(entry=e, score=score, reason="words")


def _families(ranked: list[Match]) -> list[str]:
    return [m.entry.family for m in ranked]


# --- the cue and the order ---------------------------------------------------------------------------


def test_a_tool_s_own_name_cues_it_where_no_4_gram_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # TensorRT's inner forms here (``::1312]``, ``3: ... Internal Error (``) are a cue of their own since s32i
    # (test_knowledge_inner_forms): left out, so the name is what is measured
    monkeypatch.setattr(kb_module, "INNER_CUES", ())
    text = "[E] 3: [engine rt::Engine::getUserRegion::1312] Internal Error (check failed)"
    assert "tensorrt" not in family_module.source_gram_counts(text.lower())
    assert wording_cue(text.lower(), text) == ("tensorrt",)
    assert wording_cue(text.lower()) == ()  # without the text as written, no name is read
    # a name of another tool ties: no cue
    tie = text + " allow_custom_ops"
    assert wording_cue(tie.lower(), tie) == ()


@given(st.dictionaries(st.sampled_from(sorted(SOURCE_COUNTS)), st.integers(1, 4), max_size=3))
def test_the_cue_is_the_unique_most_evidenced_covered_tool(names: dict[str, int]) -> None:
    """With no 4-gram, the cue is the one tool holding the most of its names, none on a tie."""
    original = kb_module.source_name_counts
    kb_module.source_name_counts = lambda text: dict(names)  # type: ignore[assignment]
    try:
        cue = wording_cue("plain words only", "plain words only")
    finally:
        kb_module.source_name_counts = original  # type: ignore[assignment]
    ranked = sorted(names.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] == ranked[1]):
        assert cue == ()
    else:
        assert cue == (max(names, key=lambda f: names[f]),)


def test_the_tool_s_own_names_weigh_in_the_wording_order(monkeypatch: pytest.MonkeyPatch) -> None:
    ranked = [_match("ascend", 10.0), _match("tensorrt", 9.0, n=1)]
    assert family_wording_order(ranked, "some text") == ranked
    monkeypatch.setattr(kb_module, "source_name_counts", lambda text: {"tensorrt": 1})
    assert 9.0 + kb_module.WORDS_FAMILY_NAME > 10.0
    assert _families(family_wording_order(ranked, "some text")) == ["tensorrt", "ascend"]
    assert family_wording_order(ranked) == ranked  # no text, no names
    # capped: many names weigh as WORDS_FAMILY_NAMES of them
    monkeypatch.setattr(kb_module, "source_name_counts", lambda text: {"tensorrt": 9})
    far = [_match("ascend", 9.0 + kb_module.WORDS_FAMILY_NAME * kb_module.WORDS_FAMILY_NAMES + 1), ranked[1]]
    assert _families(family_wording_order(far, "some text")) == ["ascend", "tensorrt"]
