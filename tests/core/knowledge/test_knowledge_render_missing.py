"""An entry's advice reads as English when the message did not carry a part (issue 23, s23a).

Every entry's cause and fix is rendered twice: with no captures (found by its code, a marker or its wording)
and with made-up captures for every placeholder.  Neither rendering may hold a repeated word ("node node",
"attribute the attribute"), stacked articles ("a the"), empty brackets or quotes, a preposition stranded
before punctuation ("for ;"), a space before punctuation, two default phrases side by side ("the tensor the
data type"), a sentence the part starts in lower case, or a leftover ``{name}``.  A rendering with every part
captured is the plain substitution: :func:`.kb.fill` fits only the words it says for a missing part."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.kb import _PLACEHOLDER, _UNKNOWN, MISSING, fill
from dumpscope.core.knowledge.kb import _captures as _example_captures

_KB = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
_WITH_PLACEHOLDERS = [e for e in _KB.entries if _PLACEHOLDER.search(e.cause + e.fix)]

#: Made-up values a message could carry, by base name (others: ``X_<name>``).
_VALUES = {
    "op": "/model/Conv_3",
    "op_name": "/model/Conv_3",
    "node": "/model/Conv_3",
    "layer": "conv1",
    "op_type": "Resize",
    "optype": "Resize",
    "type": "float16",
    "ops": "Conv, Relu",
    "input": "images",
    "output": "output_0",
    "tensor": "onnx::Add_12",
    "arg": "keepdims",
    "value": "42",
    "option": "input_shape",
    "dtype": "float16",
    "shape": "[1,3,224,224]",
    "version": "1.15.0",
    "path": "/tmp/model.onnx",
    "file": "/tmp/model.onnx",
    "opset": "17",
    "domain": "com.microsoft",
    "axis": "1",
    "index": "2",
}

_DEFAULTS = "|".join(
    re.escape(d) for d in sorted({*MISSING.values(), "the part the message names"}, key=len)[::-1]
)
_KIND = "operator|node|layer|op|tensor|input|output|argument|attribute|option|parameter|file|type"
"""Kind words that name a part (``node {op}``): left bare by a missing part after a preposition or at a
sentence's start they read "for node," or "Node has" (issue 23's hand draws: a partial match)."""
_CHECKS = (
    ("repeated word", re.compile(r"(?i)\b([a-z]+) \1\b")),
    ("kind said twice", re.compile(r"(?i)\b([a-z]{3,}) the \1\b")),
    ("stacked articles", re.compile(r"(?i)\b(?:a|an|the) (?:a|an|the)\b")),
    ("empty brackets", re.compile(r"''|\"\"|\(\s*\)|\[\s*\]|' '|\" \"")),
    (
        "stranded preposition",
        re.compile(r"(?i)(?<!asked )\b(?:for|of|in|on|at|to|from|with|by|into|than)\s*[,.;:)](?=\s|$)"),
    ),
    ("space before punctuation", re.compile(r"\w \s*[,;:)](?=\s|$)|\w \.(?=\s|$)")),
    ("default words side by side", re.compile(rf"(?i)\b(?:{_DEFAULTS}) ({_DEFAULTS})\b")),
    ("leftover placeholder", re.compile(r"\{[a-z][a-z0-9_]*[|}]")),
    ("doubled space", re.compile(r"\S  +\S")),
    (
        "an ellipsis for a part",
        re.compile(r"[('\"](?:…|\.\.\.)[)'\"]|\b(?:at|of|for|op|node) (?:…|\.\.\.)(?=[ ,.;:)])"),
    ),
    (
        "a kind word with no article",
        re.compile(
            rf"(?:^|[.!?:;] |\b(?i:for|of|in|on|at|to|from|with|by|into) )(?i:{_KIND})"
            r"(?=[,.;:)]| (?:is|was|has|had|cannot|does|takes|given|appears|lacks|named|listed|and|but|so"
            r"|usually|which|of|the|with|at|to|in)\b)"
        ),
    ),
    ("lower-case sentence start", re.compile(r"(?:^|(?<!e\.g)(?<!i\.e)(?<!etc)(?<!vs)[.!?] )[a-z]\w*")),
)

#: Renderings that a check flags but that read right, each with its reason.
_ALLOWED = {
    ("qualcomm-s22b-executorch-graph-name-missing", "fix", "that that"): (
        "'re-export so that that graph is among the compiled graphs': a conjunction, then a determiner"
    ),
}


def oddities(raw: str, rendered: str) -> list[tuple[str, str]]:
    """``(check, text)`` for each oddity of ``rendered`` that the entry's own text (``raw``) does not
    already hold."""
    own = _PLACEHOLDER.sub("\0", raw)
    found = []
    for name, check in _CHECKS:
        for m in check.finditer(rendered):
            said = m.group(0)
            if said in raw or said in own:
                continue
            if name == "default words side by side" and "} " + m.group(1) in raw:
                continue  # "Give {input} the type": the second phrase is the entry's own
            if name == "lower-case sentence start" and not re.search(r"(?:^|[.!?] )'?\{", raw):
                continue
            found.append((name, said))
    return found


def _captures(text: str) -> tuple[tuple[str, str], ...]:
    names = dict.fromkeys(m.group(3) for m in _PLACEHOLDER.finditer(text))
    return tuple((n, _VALUES.get(n, _VALUES.get(n.rstrip("0123456789"), "X") + "_" + n)) for n in names)


def _plain(text: str, captures: tuple[tuple[str, str], ...]) -> str:
    """``text`` with every placeholder replaced by its value, nothing else changed."""
    found = dict(captures)
    return _PLACEHOLDER.sub(lambda m: f"{m.group(1)}{m.group(2)}{found[m.group(3)]}{m.group(5)}", text)


def test_the_audit_covers_many_entries() -> None:
    assert len(_WITH_PLACEHOLDERS) > 800


@pytest.mark.parametrize("field", ["cause", "fix"])
def test_no_entry_reads_oddly_without_its_parts(field: str) -> None:
    bad = []
    for e in _WITH_PLACEHOLDERS:
        raw = getattr(e, field)
        for check, said in oddities(raw, fill(raw, ())):
            if (e.id, field, said) not in _ALLOWED:
                bad.append(f"{e.id} {field}: {check}: {said!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("field", ["cause", "fix"])
def test_no_entry_reads_oddly_with_every_part(field: str) -> None:
    bad = []
    for e in _WITH_PLACEHOLDERS:
        raw = getattr(e, field)
        for check, said in oddities(raw, fill(raw, _captures(raw))):
            if check != "lower-case sentence start" and (e.id, field, said) not in _ALLOWED:
                bad.append(f"{e.id} {field}: {check}: {said!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("field", ["cause", "fix"])
def test_no_entry_reads_oddly_with_any_one_part_missing(field: str) -> None:
    """A partial or code match, or an optional group, leaves one part out while the others are there (issue
    23's hand draws: "op  (...)", an empty ellipsis default): rendered with made-up values for every part but
    one, each in turn, no entry reads oddly, nor says the catch-all words."""
    bad = []
    for e in _WITH_PLACEHOLDERS:
        raw = getattr(e, field)
        every = _captures(raw)
        for name, _ in every:
            captures = tuple(c for c in every if c[0] != name)
            rendered = fill(raw, captures)
            if _UNKNOWN in rendered:
                bad.append(f"{e.id} {field} without {name}: says {_UNKNOWN!r}")
            values = [v for _, v in captures]
            for check, said in oddities(raw, rendered):
                if check == "lower-case sentence start" or any(said in v or v in said for v in values):
                    continue
                if (e.id, field, said) not in _ALLOWED:
                    bad.append(f"{e.id} {field} without {name}: {check}: {said!r}")
    assert not bad, "\n".join(sorted(set(bad)))


@pytest.mark.parametrize("entry", _WITH_PLACEHOLDERS[::7], ids=lambda e: e.id)
def test_captured_parts_render_as_the_plain_substitution(entry: Entry) -> None:
    for raw in (entry.cause, entry.fix):
        captures = _captures(raw)
        assert fill(raw, captures) == _plain(raw, captures)


def test_the_allow_list_is_still_needed() -> None:
    by_id = {e.id: e for e in _WITH_PLACEHOLDERS}
    for entry_id, field, said in _ALLOWED:
        raw = getattr(by_id[entry_id], field)
        assert said in fill(raw, ())


# One test per rule, on made-up texts.


def test_a_kind_word_before_a_part_s_own_words_is_said_once() -> None:
    text = "Give attribute {option|the attribute} of {op|the operator} a value."
    assert fill(text, ()) == "Give the attribute of the operator a value."
    assert fill(text, (("option", "axes"), ("op", "Conv_3"))) == "Give attribute axes of Conv_3 a value."
    assert fill("Node {node|the node} failed", ()) == "The node failed"
    assert fill("the {kind|}feature '{value|the feature}' has no type", ()) == "the feature has no type"


def test_own_words_in_brackets_keep_the_word_before_them() -> None:
    text = "a tensor between two devices ({value|the devices are named in the message})"
    assert fill(text, ()) == text.replace("{value|", "").replace("})", ")")


def test_two_missing_parts_side_by_side_are_said_once() -> None:
    assert (
        fill("drop --input_dtype {tensor} {dtype} (it is kept)", ())
        == "drop --input_dtype the tensor (it is kept)"
    )
    assert fill("collective {seq} ({op}) timed out", ()) == "collective the part the message names timed out"
    assert fill("for node {op} ({arg}): x", ()) == "for the node: x"
    assert fill("has only {value2} {arg}s", ()) == "has only the value the arguments"
    assert fill("drop {tensor} {dtype}", (("dtype", "int8"),)) == "drop the tensor int8"


def test_a_missing_part_before_the_word_it_names_is_not_said_twice() -> None:
    assert fill("BatchNormalization's {input} input is wrong", ()) == "BatchNormalization's input is wrong"
    assert fill("this model has no {layer} layer by that name", ()) == "this model has no layer by that name"
    assert fill("it gives {value} value(s)", ()) == "it gives the value(s)"
    assert fill("set --input_encoding {input} INPUT_ENCODING_IN", ()) == (
        "set --input_encoding the input INPUT_ENCODING_IN"
    )


def test_a_determiner_takes_the_noun_without_the() -> None:
    assert fill("refused its {option} flag", ()) == "refused its option flag"
    assert fill("an input whose {dtype} is wrong", ()) == "an input whose data type is wrong"
    assert (
        fill("check that {value} exists", ()) == "check that the value exists"
    )  # "that" may be a conjunction


def test_an_article_before_a_part_with_no_noun_after_it_agrees_with_the_words() -> None:
    assert fill("its flag (a --{option}=... argument)", ()) == "its flag (an option=... argument)"
    assert fill("the entry is a {type}, not a tuple", ()) == "the entry is a type, not a tuple"
    assert fill("The inputs of a {op_type} node differ", ()) == "The inputs of a node differ"


def test_empty_brackets_go_with_their_space() -> None:
    assert fill("has shape [{shape|}], where", ()) == "has shape, where"
    assert fill("a query command ({value|}{value2|}) this runtime", ()) == "a query command this runtime"
    assert fill("a query command ({value|}{value2|})", (("value", "0x12"),)) == "a query command (0x12)"
    assert fill("the check is '{check|}{kind|}' here", ()) == "the check is here"


def test_a_bracket_left_holding_only_a_kind_word_goes() -> None:
    """'kept node {node} (type {op_type})' without its parts read 'kept node (type)': the bracket says nothing
    then and goes with its space; with the part captured it stays as the entry wrote it."""
    assert fill("kept node {node} (type {op_type}) as an Extra op", ()) == "kept node as an Extra op"
    assert fill("for operator type {op} (node {node}): no plugin", (("op", "Foo"),)) == (
        "for operator type Foo: no plugin"
    )
    assert fill("for operator type {op} (node {node}): no plugin", (("op", "Foo"), ("node", "n1"))) == (
        "for operator type Foo (node n1): no plugin"
    )
    assert fill("a layer's input buffer (tensor) name", ()) == "a layer's input buffer (tensor) name"


def test_a_stranded_preposition_goes_with_its_empty_part() -> None:
    assert fill("supported architectures for {model_type|} {model_type2|}; otherwise", ()) == (
        "supported architectures; otherwise"
    )
    assert fill("loaded from {path|}.", ()) == "loaded."


def test_a_verb_left_without_its_empty_part_says_that_the_line_does_not_name_it() -> None:
    assert fill("The check that failed here is '{check|}{kind|}'; retry", ()) == (
        "The check that failed here is not named in this line; retry"
    )


def test_a_missing_code_after_a_code_noun_is_said_to_be_not_shown() -> None:
    # issue 23's hand draws: "returned CUDA error the value" read as if "the value" were the error.
    assert fill("and CUDA returned error {value}: a kernel failed", ()) == (
        "and CUDA returned error (not shown in this message): a kernel failed"
    )
    assert fill("it exited with code {value}; this line", ()) == (
        "it exited with code (not shown in this message); this line"
    )
    assert (
        fill("could not open (error {value}) here", ())
        == "could not open (error not shown in this message) here"
    )
    assert fill("converter_lite stopped with status {value} (RET_INFER_ERR)", ()) == (
        "converter_lite stopped with status (not shown in this message) (RET_INFER_ERR)"
    )


def test_a_missing_returned_code_is_said_to_be_a_code_not_shown() -> None:
    assert fill("cuBLAS returned {value} for the matrix product", ()) == (
        "cuBLAS returned a code not shown in this message for the matrix product"
    )
    assert fill("the driver returned {value}.", ()) == "the driver returned a code not shown in this message."


def test_a_missing_value_after_is_is_said_to_be_not_shown_only_where_its_phrase_ends() -> None:
    assert fill("num_beams is {value}, and it must be", ()) == (
        "num_beams is a value not shown in this message, and it must be"
    )
    # A noun after the part belongs to it: the plain default words stay.
    assert "not shown" not in fill("the data given is {value} bytes", ())
    assert "not shown" not in fill("the model returns {value} tensors", ())
    assert "not shown" not in fill("Read errno {value}'s meaning", ())


def test_a_captured_code_after_a_code_noun_is_the_plain_substitution() -> None:
    assert fill("returned CUDA error {value}; see", (("value", "700"),)) == "returned CUDA error 700; see"
    assert fill("the driver returned {value}.", (("value", "-9"),)) == "the driver returned -9."


@pytest.mark.parametrize("field", ["cause", "fix"])
def test_no_entry_says_a_code_noun_then_default_words(field: str) -> None:
    """No entry, rendered without its parts, says "error the value" or "returned the argument"."""
    odd = re.compile(r"\b(?:error|code|status|errno|returned|returns) (?:the value|the argument)\b")
    bad = [e.id for e in _WITH_PLACEHOLDERS if odd.search(fill(getattr(e, field), ()))]
    assert not bad, bad


def test_a_part_glued_to_a_name_reads_as_a_wildcard() -> None:
    assert fill("rknn_{api} was called", ()) == "rknn_* was called"
    assert fill("name it {tensor}_out", ()) == "name it *_out"
    assert fill("rknn_{api} was called", (("api", "run"),)) == "rknn_run was called"


def test_a_sentence_that_starts_with_a_missing_part_starts_with_a_capital() -> None:
    assert fill("{op} was called while tracing", ()) == "The node was called while tracing"
    assert fill("Set it. {value} is not set.", ()) == "Set it. The value is not set."
    assert fill("(e.g. {value|numpy}.py)", ()) == "(e.g. numpy.py)"
    assert fill("{op} was called", (("op", "aten::add"),)) == "aten::add was called"


def test_a_call_s_parentheses_keep_the_words_of_its_missing_argument() -> None:
    assert fill("check os.path.exists({path}) first", ()) == "check os.path.exists(the file) first"
    assert fill("times sizeof({dtype}): the dims", ()) == "times sizeof(the data type): the dims"
    assert fill("times sizeof({dtype})", (("dtype", "float"),)) == "times sizeof(float)"
    assert fill("an attribute value ({value}) of a Slice", ()) == "an attribute value of a Slice"


def test_a_possessive_before_own_words_keeps_the_kind_once() -> None:
    text = "The code called {value|a Core ML class}'s method {call|the method}, and failed"
    assert fill(text, ()) == "The code called a Core ML class's method, and failed"
    assert fill(text, (("value", "MLModel"), ("call", "predict"))) == (
        "The code called MLModel's method predict, and failed"
    )


def test_names_many_entries_leave_unsaid_have_words_of_their_own() -> None:
    assert (
        fill("could not read the input model: {detail}.", ())
        == "could not read the input model: the details."
    )
    assert fill("caught a C++ exception: {reason}. It is logged", ()) == (
        "caught a C++ exception: the reason. It is logged"
    )


# s26g: the entry's own example, with each captured part missing in turn.


def _example_cases(entry: Entry) -> list[tuple[tuple[str, str], ...]]:
    """The captures of ``entry``'s example, then the same with each part missing in turn, then none."""
    m = entry.search(entry.example)
    assert m is not None, entry.id
    captured = _example_captures(m)
    return [captured, ()] + [tuple(c for c in captured if c[0] != name) for name, _ in captured]


@pytest.mark.parametrize("field", ["cause", "fix"])
def test_no_entry_reads_oddly_on_its_example_with_any_part_missing(field: str) -> None:
    """Rendered on what its own example captures, and with each of those parts missing in turn, the advice
    says neither the catch-all words ("the part the message names": s26g found 63 entries saying it with
    nothing captured) nor any oddity of :data:`_CHECKS` that is not in a captured value."""
    bad = []
    for e in _WITH_PLACEHOLDERS:
        raw = getattr(e, field)
        for captures in _example_cases(e):
            rendered = fill(raw, captures)
            if _UNKNOWN in rendered:
                bad.append(f"{e.id} {field}: says {_UNKNOWN!r} with {captures}")
            values = [v for _, v in captures]
            for check, said in oddities(raw, rendered):
                if check == "lower-case sentence start" and captures:
                    continue  # a captured value may start a sentence as the message wrote it
                if any(said in v or v in said for v in values) or (e.id, field, said) in _ALLOWED:
                    continue
                bad.append(f"{e.id} {field}: {check}: {said!r} with {captures}")
    assert not bad, "\n".join(sorted(set(bad)))


def test_the_catch_all_words_are_only_a_fallback() -> None:
    assert fill("the {zz} failed", ()) == f"the {_UNKNOWN[4:]} failed"
    assert fill("the {zz|zz part} failed", ()) == "the zz part failed"
    assert _UNKNOWN not in fill("the {op} failed", ())  # a known name says its own words


def test_a_bare_kind_word_left_by_a_missing_part_takes_the() -> None:
    """``Node {op|} has`` without its part read "Node has", ``needed by node {node}`` "needed by node"."""
    assert fill("Node {op|}, listed in option --{arg|}, is", ()) == "The node, listed in the option, is"
    assert fill("x. Operator {op|} lacks it", ()) == "x. The operator lacks it"
    assert fill("needed by node {node}, so", ()) == "needed by the node, so"
    assert fill("For node '{op|}': use", ()) == "For the node: use"
    # Not after a word that already says which one, not inside a bracket the tidy step removes.
    assert fill("the Conv node {op|} has", ()) == "the Conv node has"
    assert fill("kept node {node} (type {op_type}) as", ()) == "kept node as"
    # A captured part is the plain substitution.
    assert fill("needed by node {node}, so", (("node", "n1"),)) == "needed by node n1, so"
    assert fill("Node {op|} has", (("op", "Conv_3"),)) == "Node Conv_3 has"


@pytest.mark.parametrize(
    "text",
    [
        "for node {op|}, the op",
        "Node {op|} has {value} values; by layer {layer} it ends.",
        "Input {input|} of operator {op|} has shape [{shape|}], where",
        "at op {arg|} ({op|}) and",
    ],
)
def test_any_subset_of_parts_missing_reads_without_oddities(text: str) -> None:
    """Property: every subset of a text's parts left out renders without an oddity of :data:`_CHECKS`."""
    every = _captures(text)
    for mask in range(1 << len(every)):
        captures = tuple(c for k, c in enumerate(every) if mask >> k & 1)
        rendered = fill(text, captures)
        values = [v for _, v in captures]
        odd = [
            (check, said)
            for check, said in oddities(text, rendered)
            if check != "lower-case sentence start" and not any(said in v or v in said for v in values)
        ]
        assert not odd, (rendered, odd)
