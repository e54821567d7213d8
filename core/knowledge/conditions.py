"""The condition of a quoted failed check, read into a sentence with its names filled in.

A message that quotes a failed internal check (TVM's ``Check failed: (config_istream) is false``, TensorRT's
``Assertion engine != nullptr failed`` or ``Parameter check failed ..., condition: (blob) != nullptr``,
onnxruntime's ``... type != nullptr was false``, OpenVINO's ``Check 'it != map.end()' failed``, ggml's
``GGML_ASSERT(...) failed``) is answered by a card or a frame entry whose steps fit any check of its tool.
The condition itself often says more, in a few common forms: a stream, handle or created object that was
null (:data:`NULL_KINDS`: a file stream that did not open, an engine or module whose creation failed before,
a plugin creator not registered), a call's status that was not success, a lookup that found nothing
(``it != map.end()``), a container that was empty (or not), an object that was not of a type
(``IsInstance<T>()``) or not defined, a value over a type's limit (``std::numeric_limits<T>::max()``), a
value outside a range (``x >= lo && x < hi``) or not one of two (``x == a || x == b``), two values compared
(with the values the message printed, ``(7 vs. 6)``).  :data:`FORMS` is the table of
those forms; :func:`read` reads a condition with it; :func:`condition_answered` adds the reading to an
answer of :data:`FRAMES` (the answers whose advice is a tool's generic check steps).

Say less when unsure: a condition no form reads (``false``, a call such as ``convertOnnxWeights(...)``, a
form joined with ``&&`` or ``||``), a null name of no kind :data:`NULL_KINDS` knows, leave the answer as it
was.  The forms were written from the dev messages of the eval set that quote a check, and checked against
every dev message they fire on (tests/core/knowledge/test_knowledge_s38a.py).  Tried and dropped: a
predicate form (``x->is_const()``, ``!x->is_mod()``: "x was not const" restates the check and names no
step), a plain-null form for any name (``type != nullptr``, ``(n) != nullptr``: nothing true to say of an
unknown pointer beyond restating it).
"""

from __future__ import annotations

from dumpscope.core.knowledge.entry import FIELDS, Entry
from dumpscope.core.lazyre import LazyPattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from dumpscope.core.knowledge.kb import Match

FRAMES = frozenset(
    {
        "tensorrt-internal-assertion",
        "tensorrt-assertion-failed-abc",
        "message-reason-line",
        "code-own-reason",
        "envelope-inner-reason",
        "tvm-check-failed-reason",
        "tensorrt-torch-tensorrt-check-failed",
        "tensorrt-s22-assertion-error-in-function",
        "trt-parameter-check",
        "trt-myelin-assertion",
        "openvino-check-any-component",
    }
)
"""The answers (an entry's id, or the last part of a card's ``+`` id: what answered it) whose advice is a
tool's generic steps for a failed check: only these take a reading of the condition."""
KIND_READ = "read as a reason of kind"
"""A reason-line or code-reason answer whose source says this read its line as a reason kind already: it
keeps that reading."""

EXTRACT = tuple(
    LazyPattern(p)
    for p in (
        r"Check failed: \((?P<c>[^\n]{1,200}?)\) is false",
        r"Check failed: (?P<c>[^\n:(]{1,200}?) \((?P<l>[^()\n]{1,60}) vs\. (?P<r>[^()\n]{1,60})\)",
        r"Check '(?P<c>[^'\n]{1,200})' failed",
        r"GGML_ASSERT\((?P<c>[^\n]{1,200})\) failed",
        r"CHECK\((?P<c>[^\n]{1,200}?)\) failed",
        r"Assertion [`'‘](?P<c>[^\n]{1,200}?)['’] failed",
        r"Assertion (?!failed)(?P<c>[^\n]{1,200}?) failed",
        r"^Assertion (?!failed)(?P<c>[^\n]{1,200}?)\.?$",
        r"Assertion failed: (?P<c>[^\n]{1,200}?)\s*(?:\(/|/[\w.]|, file |$)",
        r"condition: (?P<c>[^\n]{1,200}?)\s*(?:\)|\. |$)",
        r"[)\]] (?P<c>[^\s()][^\n]{0,200}?) was false",
    )
)
"""Where a message quotes a check's condition: TVM's and MLC's ``Check failed: (c) is false`` and binary
checks with their values (``(7 vs. 6)``), OpenVINO's ``Check 'c' failed``, ggml's ``GGML_ASSERT(c)``,
Myelin's ``CHECK(c)``, C's and TensorRT's assertions, TensorRT's parameter checks (``condition: c``), and
onnxruntime's ORT_ENFORCE (``<signature> c was false``)."""

_NAME = r"[A-Za-z_][\w.:>\[\]-]{0,80}?"
_NULL_ROWS = (
    (
        r"(?:\w*_)?(?:i|o|if|of)?f?stream|infile|fin|fp|fd|file",
        "{cond_subject}, a file stream or handle, was null or false: the file it was to open could not be "
        "opened (a path that does not exist as the process sees it, a folder, or a file the process may not "
        "read), so nothing was read from it.",
        "Check the path that {cond_subject} opens: print it just before the call and check that it exists "
        "there (a relative path is read from the process's working directory), that it is a file and not a "
        "folder, and that it is readable; the path usually comes from a model folder, config or option given "
        "to the tool, so a missing or misspelled file in it is the usual cause.",
    ),
    (
        r"(?:m_?|_)?(?:engine|engineptr|module|runtime|builder|network|parser|session|context|executor)",
        "{cond_subject} was null when this check ran: the step that should have created it (a build, a "
        "deserialization, a load or a create call before this line) failed and returned nothing, and this "
        "check only reports that.",
        "Look for the first error printed before this line: it says why {cond_subject} was not created (for "
        "an engine: the builder's or runtime's own error, such as a layer with no implementation, too little "
        "memory, or a plan file of another release or GPU); fix that one, and in the calling code test "
        "{cond_subject} for null right after the call that creates it.",
    ),
    (
        r"(?:m_?|_)?(?:blob|plan|serialized\w*|buffer|data)",
        "{cond_subject}, the data passed in, was null: nothing was read or produced into it (a plan or model "
        "file that could not be read, or a build or serialization step that returned nothing).",
        "Check the step that fills {cond_subject}: that the file it reads exists and is not empty (read it "
        "in binary mode and check its size), or that the build or serialization before it returned data; "
        "when that step failed, the first error printed before this line says why.",
    ),
    (
        r"(?:m_?|_)?(?:\w*creator|\w*plugin|factory)",
        "{cond_subject} was null: the lookup of a plugin or op creator by its name found none: nothing "
        "registered under that name, version and namespace in this process.",
        "Load what registers it before this step (for TensorRT: initLibNvInferPlugins, the plugin library "
        "with trtexec --plugins or ctypes.CDLL before the engine is built or loaded), and check the name, "
        "version and namespace the model asks for against the ones registered.",
    ),
    (
        r"_?p?impl",
        "{cond_subject} was null: the object was used before it held anything (made empty, moved from, or "
        "returned empty by a call that failed).",
        "Find where the object this check belongs to was made and use it only after the call that fills it "
        "succeeded; the message's next line, when it has one, says which object it was.",
    ),
)
NULL_KINDS: tuple[tuple[LazyPattern, str, str], ...] = tuple((LazyPattern(k), c, f) for k, c, f in _NULL_ROWS)
"""The null (or false) names a check can test, by kind (a regex on the name's last part, lower case), with
what a null of that kind means and what to do: a file stream or handle, a created object (an engine, a
module, a runtime, a context), data passed in, a plugin or op creator, an object's implementation."""

_OPS = {
    "==": "equal",
    "!=": "differ from",
    "<": "be below",
    "<=": "be at most",
    ">": "be above",
    ">=": "be at least",
}
_SIDE = r"(?:->|[^=!<>&|\s]){1,80}"
"""A side of a comparison: no space, no other comparison or logical operator (``->`` is a member's)."""
_LAST_SIDE = r"[^=!&|\s]{1,80}"
"""The last side of a range check: it may hold a template's brackets (``EnumMax<BuilderFlag>()``)."""
_MEMBER = r"m_?[A-Z_a-z]"
"""A class member's name (``mIndex``, ``m_count``, ``mNodes.size()``): a comparison of the tool's own state,
which no value of the model or the call names; not read (an internal assertion's general steps fit it)."""
_NULLS = r"(?:nullptr|NULL|nil|None)\b"
"""A null pointer's name: a comparison with it is a null check, read only by :data:`NULL_KINDS`."""
_SUCCESS = r"\w*(?:SUCCESS|Success|success)\w*|0"
_STATUS_NAME = r"(?:\w*_)?(?:status|ret|res|result|err|error|rc)|\w*(?:Status|Result)"
"""A returned status's name: one of those words whole or after an underscore (``ret``, ``cu_res``), or a
CamelCase ``...Status`` / ``...Result``; not a word that only ends in their letters (``scores``, ``address``,
``progress``: a value compared with 0 is no status)."""
_FORM_ROWS = (
    (
        "status",
        rf"(?P<cond_subject>{_STATUS_NAME})\s*==\s*(?P<cond_right>{_SUCCESS})"
        rf"|(?P<cond_call>\w+::isSuccess)\((?P<cond_subject2>\w+)\)"
        r"|(?P<cond_subject3>\w+)\.(?P<cond_call2>IsOK|ok)\(\)",
        "{cond_subject} is the status a call returned just before this check, and it was not "
        "{cond_right}: that call failed, and the check only reports it.",
        "Find the error of the call that set {cond_subject} to something other than {cond_right}: it is "
        "printed before this line when the library prints one (a plugin's or kernel's own message, a CUDA "
        "or driver error); the function and file where the check sits name the call (a plugin's enqueue, a "
        "compiler or driver call).",
    ),
    (
        "not-found",
        rf"(?P<cond_subject>{_NAME})\s*!=\s*(?P<cond_right>{_NAME})\.end\(\)",
        "A lookup in {cond_right} found nothing: the key this code looked for (an op, a format, a name or "
        "a version) is not in that table in this release.",
        "Find which key was looked up in {cond_right}: the message's next line, when it has one, names it; "
        "an op, format or name that this release's {cond_right} does not list needs a release that has it, "
        "or the model changed so that it no longer asks for it.",
    ),
    (
        "empty",
        rf"!\s*(?P<cond_subject>{_NAME})\.empty\(\)",
        "{cond_subject} was empty where this code needs at least one element.",
        "Find what should have filled {cond_subject} before this step (the outputs, ids, candidates or "
        "entries its name says): the step before it produced nothing, and the lines printed before this one "
        "say why.",
    ),
    (
        "nonempty",
        rf"(?P<cond_subject>{_NAME})\.empty\(\)",
        "{cond_subject} was not empty: it holds what this step refuses (the lines after the check list it "
        "when the tool prints them).",
        "Read what {cond_subject} holds in the message (the errors or leftovers the tool lists after this "
        "check) and remove each from the model or the call.",
    ),
    (
        "instance",
        rf"(?P<cond_subject>{_NAME})->IsInstance<(?P<cond_right>\w+)>\(\)",
        "{cond_subject} was not a {cond_right}: the value given there is of another kind of expression than "
        "this op or pass takes.",
        "Give {cond_subject} as a {cond_right} (for TVM Relax, a PrimValue or a constant of that kind rather "
        "than a tensor constant, as the op's signature says), or update the frontend that built it.",
    ),
    (
        "defined",
        rf"(?P<cond_subject>{_NAME})\.defined\(\)",
        "{cond_subject} was not defined: the function or object it should hold was not found or not made.",
        "Find what should have defined {cond_subject} (a function looked up in a compiled library, an "
        "object built before): the check's own message after it names what was missing; a library built by "
        "another release than the runtime loading it is the usual cause of a missing function.",
    ),
    (
        "type-limit",
        rf"(?P<cond_subject>{_SIDE}?)\s*<=?\s*std::numeric_limits<(?P<cond_right>\w+)>::max\(\)",
        "{cond_subject} was over the largest value of {cond_right}: a size, count or offset of this "
        "model or input (the elements or bytes of one tensor, most often) is too large for the {cond_right} "
        "this code indexes it with.",
        "Make {cond_subject} fit in {cond_right}: a smaller batch, input size or sequence length, or the "
        "largest tensor split in parts (a tiled or chunked op, a Gather or MatMul over slices) so that no "
        "single tensor reaches that size.",
    ),
    (
        "range",
        rf"(?P<cond_subject>{_SIDE}?)\s*>=\s*(?P<cond_low>{_SIDE})\s*&&\s*(?P=cond_subject)\s*<\s*"
        rf"(?P<cond_high>{_LAST_SIDE})",
        "{cond_subject} was outside the range [{cond_low}, {cond_high}) that this code takes.",
        "Find what gives {cond_subject} its value at this step and keep it within [{cond_low}, {cond_high}): "
        "an index counted on another model or tensor, a negative axis not normalised, or an enum value from "
        "another release's headers or bindings than the library loaded.",
    ),
    (
        "either",
        rf"(?P<cond_left>{_SIDE}?)\s*==\s*(?P<cond_right>{_SIDE})\s*\|\|\s*(?P=cond_left)\s*==\s*"
        rf"(?P<cond_right2>{_SIDE})",
        "{cond_left} was neither {cond_right} nor {cond_other}, the values this code takes.",
        "Find what {cond_left} is at this step (a value of the model, its inputs, the call's arguments or "
        "the build, as its name says) and make it {cond_right} or {cond_other}: a count or version from "
        "another release of the tool than the one that made the model is the usual source.",
    ),
    (
        "compare",
        rf"(?!{_NULLS}|{_MEMBER})(?P<cond_left>{_SIDE}?)\s*(?P<cond_op>==|!=|<=|>=|<|>)\s*(?!{_NULLS})"
        rf"(?P<cond_right>{_SIDE})",
        "{cond_left} was required to {cond_op} {cond_right}, and it did not.",
        "Find what {cond_left} and {cond_right} are at this step (values of the model, its inputs, the "
        "call's arguments, the build or the device, as their names say) and make them meet "
        "{cond_left} {cond_sign} {cond_right}.",
    ),
)
FORMS: tuple[tuple[str, LazyPattern, str, str], ...] = tuple(
    (name, LazyPattern(pattern), cause, fix) for name, pattern, cause, fix in _FORM_ROWS
)
"""The forms of condition :func:`read` knows, tried in order, each read whole (``fullmatch``) on the
condition without its outer parentheses: ``(name, regex with named groups, cause, fix)``, the cause and fix
templates filled by :func:`read` with the groups (``cond_*``)."""


def read(
    condition: str, left: str = "", right: str = ""
) -> tuple[str, str, tuple[tuple[str, str], ...]] | None:
    """``(cause, fix, captures)``: what ``condition`` says in words, by the first form of :data:`FORMS`
    (or a null of a kind of :data:`NULL_KINDS`) that reads it whole; ``left`` and ``right`` are the values
    the message printed for a comparison's two sides.  ``None`` when no form reads it."""
    cond = _bare(condition)
    null = _null_reading(cond)
    if null is not None:
        return null
    for _name, pattern, cause, fix in FORMS:
        found = pattern.fullmatch(cond)
        if found is not None:
            captures = _captures(found.groupdict(), left, right)
            return _with_values(cause, captures), fix, captures
    return None


def _with_values(cause: str, captures: tuple[tuple[str, str], ...]) -> str:
    """``cause`` with the values the message printed for a comparison's two sides, where it printed them."""
    if not any(k == "cond_left_value" for k, _ in captures):
        return cause
    return cause.rstrip(".") + ": the message prints {cond_left_value} against {cond_right_value}."


def _bare(condition: str) -> str:
    """``condition`` without outer spaces, quotes and one pair of parentheses around it all."""
    cond = condition.strip().rstrip(".").strip()
    if len(cond) > 1 and cond[0] in "`'‘\"" and cond[-1] in "'’\"":
        cond = cond[1:-1].strip()
    said = _SAID.fullmatch(cond)
    if said is not None:  # C's assert(cond && "message"): the string is the check's message, always true
        cond = said.group("c")
    return cond[1:-1].strip() if _wrapped(cond) else cond


_SAID = LazyPattern(r'(?P<c>[^"]{1,200}?)\s*&&\s*"[^"\n]{0,200}"')


def _wrapped(cond: str) -> bool:
    """Whether one pair of parentheses holds all of ``cond`` (``(a.f())``, not ``(a) == (b)``)."""
    depth = 0
    for i, ch in enumerate(cond):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(cond) - 1 and i > 0
    return False


_NULL = LazyPattern(rf"\(?(?P<name>{_NAME})\)?\s*(?:!=\s*(?:nullptr|NULL)|\s*)")


def _null_reading(cond: str) -> tuple[str, str, tuple[tuple[str, str], ...]] | None:
    """The reading of ``name != nullptr`` (or of a bare ``name``) for a name of a kind of
    :data:`NULL_KINDS`; ``None`` for another condition or a name of no known kind."""
    found = _NULL.fullmatch(cond)
    if found is None:
        return None
    name = found.group("name")
    last = name.replace("->", ".").rsplit(".", 1)[-1].lower()
    for kind, cause, fix in NULL_KINDS:
        if kind.fullmatch(last):
            return cause, fix, (("cond_subject", name),)
    return None


def _captures(groups: dict[str, str | None], left: str, right: str) -> tuple[tuple[str, str], ...]:
    """The captures a form's groups give (``cond_subject2`` read as ``cond_subject``), with a comparison's
    words (``cond_op``), sign (``cond_sign``) and printed values (``cond_left_value``,
    ``cond_right_value``)."""
    named = {"cond_right2": "cond_other"}
    out = {named.get(k, k.rstrip("0123456789")): v for k, v in groups.items() if v}
    if "cond_call" in out:
        out["cond_right"] = f"a success ({out.pop('cond_call')})"
    sign = out.get("cond_op", "")
    if sign:
        out["cond_op"], out["cond_sign"] = _OPS[sign], sign
        if left and right:
            out["cond_left_value"], out["cond_right_value"] = left, right
    return tuple(out.items())


def condition_in(text: str) -> tuple[str, str, str]:
    """The first condition a check quotes in ``text`` (:data:`EXTRACT`), with the values it printed for a
    comparison's two sides; empty strings when none does."""
    for pattern in EXTRACT:
        found = pattern.search(text)
        if found is not None:
            groups = found.groupdict()
            return found.group("c"), groups.get("l") or "", groups.get("r") or ""
    return "", "", ""


_COMPARES = LazyPattern(r"[!=<>]=|\s[<>]\s")
QUOTING = ("cond", "value", "detail", "reason")
"""The captures of a frame that may hold its check's condition: as it stands (``cond``, or a ``value`` that
compares), or quoted in a line (:func:`condition_in`)."""


def answer_condition(m: Match, text: str) -> tuple[str, str, str]:
    """The condition the answer ``m`` quotes: from its captures (:data:`QUOTING`) first, then from
    ``text``."""
    for key, value in m.captures:
        if key not in QUOTING:
            continue
        found = condition_in(value)
        if found[0]:
            return found
        if key == "cond" or (key == "value" and _COMPARES.search(value)):
            return value, "", ""
    return condition_in(text)


GENERAL = LazyPattern(r" For the (?:code|step) in general: ")
"""Where a quoting answer's fix turns from the quoted reason to its card's general steps."""


def _fix_with(step: str, fix: str) -> str:
    """``fix`` with the reading's ``step``: right before its card's general part where it has one (a
    quoting answer's fix starts from the quote), else first."""
    found = GENERAL.search(fix)
    if found is None:
        return f"{step} {fix}"
    return f"{fix[: found.start()]} {step}{fix[found.start() :]}"


def is_frame(m: Match) -> bool:
    """Whether ``m`` is an answer of :data:`FRAMES` that read no reason kind already."""
    e = m.entry
    return e.id.rsplit("+", 1)[-1] in FRAMES and KIND_READ not in e.source


def condition_answered(m: Match, text: str) -> Match:
    """``m`` with the reading of the condition its check quotes (:func:`read`) added: the reading's sentence
    after the answer's cause, its step before the answer's fix, its names among the captures.  The condition
    is taken from the answer's captures first, then from ``text``.  ``m`` as it was when it is no answer of
    :data:`FRAMES` or no form reads the condition."""
    if not is_frame(m):
        return m
    cond, left, right = answer_condition(m, text)
    reading = read(cond, left, right) if cond else None
    if reading is None:
        return m
    cause, fix, captures = reading
    e = m.entry
    fields = {name: getattr(e, name) for name in FIELDS}
    fields.update(
        cause=f"{e.cause} The condition it checked reads: {cause}",
        fix=_fix_with(fix, e.fix),
        source=f"{e.source}; the checked condition read by dumpscope's condition forms",
    )
    return m._replace(entry=Entry(**fields), captures=(*m.captures, *captures))
