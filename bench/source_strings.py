"""Coverage of the claimed tools' own failure strings: which land on a specific entry, which do not.

    .venv/bin/python bench/source_strings.py --onnx DIR --ort DIR --trt DIR --onnxsim DIR --float16 DIR
        [--uncovered FILE.jsonl] [--sample FILE.jsonl --sample-per-tool N]
    .venv/bin/python bench/source_strings.py --strings tests/data/source_strings/sample.jsonl

The strings come from the tools' own sources, read from local copies given as paths (nothing is fetched
when it runs):

* ``--onnx``: a checkout of github onnx/onnx; ``fail_shape_inference`` / ``fail_type_inference`` calls in
  ``onnx/defs/**``, ``onnx/shape_inference/**`` and ``fail_check`` in ``onnx/checker.cc``;
* ``--ort``: the unpacked onnxruntime wheel (``pip download --no-deps onnxruntime``): the ``raise`` and
  ``warnings.warn`` messages of its Python files and the message-like literals of
  ``capi/libonnxruntime.so*`` (the wheel has no C++ source; the GitHub snapshot is over the fetch limit):
  a literal is the fixed head of an ``ORT_ENFORCE`` / ``ORT_MAKE_STATUS`` message, the value after it is
  filled in;
* ``--trt``: a checkout of github onnx/onnx-tensorrt (TensorRT's ONNX parser): ``ASSERT_NODE``,
  ``ASSERT``, ``MAKE_ERROR``, ``STATIC_CHECK`` and ``LOG_ERROR`` in its ``*.cpp``;
* ``--onnxsim``: a checkout of github daquexian/onnx-simplifier: ``raise`` in ``onnxsim/*.py`` and
  ``throw std::...(...)`` in ``onnxsim/*.cpp``;
* ``--float16``: the unpacked onnxconverter-common wheel: ``raise`` / ``warnings.warn`` in
  ``onnxconverter_common/{float16,auto_mixed_precision,auto_mixed_precision_model_path}.py``.

Each format string is rendered as a message a user would paste (:func:`render`): its placeholders filled
with a plausible value chosen by the argument's name (:func:`guess`), inside the tool's envelope
(``[ONNXRuntimeError] : 1 : FAIL :``, the parser's ``ModelImporter.cpp`` lines, onnx's
``[ShapeInferenceError] (op_type:...)``, a Python exception line).  Then the KB is asked (:func:`verdict`):

* ``specific``: the top entry is the tool's and its advice is specific (``eval_explain.specific``);
* ``card``: the tool is right, the advice is its family card, a generic entry or not specific;
* ``other``: the top entry is another tool's, or nothing confident is answered.

``--strings FILE`` scores strings already extracted (one JSON object a line: ``family``, ``source``,
``fmt``, ``message``), as the committed sample is scored by the tests.

Measured on the base of branch s32d (260e9716) and after its entries (base -> after: the same strings,
the same command), from onnx f7546912, onnx-tensorrt 96e78110, onnx-simplifier f89308cf and the
onnxruntime 1.32.0 / onnxconverter-common 1.16.0 wheels:

    tool         strings     entry    clause        card   other
    onnx             645  108->128         5    532->512       0
    onnxruntime     2823   19->29        118  2603->2596  83->80
    tensorrt         332   22->36        261     49->35        0
    onnxsim           14    6->8           0           0    8->6
    float16           14   10->11          0           3    1->0
    all             3828  165->212       384  3187->3146  92->86

The onnxruntime count is the wheel's whole literal table (contrib and training kernels, ML ops, the TLS
library linked in): its ``card`` column is mostly kernel-internal text that the envelope answers; the
literal is only a message's fixed head, so a string whose entry needs the values after it is counted as
not covered.  The entries written (``*-s32d-*``, 30 of them) answer the strings that name a user-facing
cause: shapes, ranks, types, attributes, opsets, initializers and external data.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dumpscope.core.atomic import write_text

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench.eval_explain is importable from the checkout
    sys.path.insert(0, str(ROOT))

FAMILIES = ("onnx", "onnxruntime", "tensorrt", "onnxsim", "float16")

# ---------------------------------------------------------------- placeholder values


_GUESSES = (
    (r"op_?type|optype|\bop\b", "Resize"),
    (r"^len\(|dim_size|dim_value|nbdims|\.size\(\)|rank|\[i\w*\]$", "4"),
    (r"shape|dims?\b|dimensions", "[1,3,224,224]"),
    (r"dtype|elem_?type|data_?type|type", "tensor(float16)"),
    (r"axis|axes", "3"),
    (r"opset|version|ir_", "21"),
    (r"domain", "com.microsoft"),
    (r"provider|\bep\b", "CUDAExecutionProvider"),
    (r"path|file|location|dir", "model.onnx"),
    (r"attr", "mode"),
    (r"node", "/model/backbone/Conv_3"),
    (r"name|input|output|tensor|initializer|arg", "/model/backbone/Conv_3_output_0"),
    (r"rank|size|num|count|index|idx|len|nb|\bi\b|\bj\b|\bk\b", "4"),
)


def guess(expr: str) -> str:
    """A plausible value for a placeholder, from the expression that fills it."""
    low = expr.lower()
    if "to_string" in low and "type" in low:  # a C++ enum printed as its number (TensorProto data type 16)
        return "16"
    for pattern, value in _GUESSES:
        if re.search(pattern, low):
            return value
    return "7"


# ---------------------------------------------------------------- C++ calls


def cpp_calls(text: str, names: tuple[str, ...]) -> Iterator[tuple[str, int, list[str]]]:
    """``(macro, line, args)`` of each call of one of ``names`` (top-level arguments, comments kept out)."""
    text = re.sub(r"//[^\n]*", "", text)
    head = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\s*\(")
    for m in head.finditer(text):
        args = _split_args(text, m.end())
        if args is not None:
            yield m.group(1), text.count("\n", 0, m.start()) + 1, args


def _split_args(text: str, start: int) -> list[str] | None:
    """The comma-separated top-level arguments of the call whose ``(`` ends just before ``start``."""
    depth, i, args, cur = 0, start, [], []
    while i < len(text) and i - start < 4000:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            cur.append(text[i:j])
            i = j
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append("".join(cur).strip())
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return None


def _string_end(text: str, i: int) -> int:
    j = i + 1
    while j < len(text) and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j + 1


_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def cpp_message(args: list[str]) -> str:
    """A C++ message built of literals, stream pieces and values, rendered with guessed values."""
    out = []
    for arg in args:
        for piece in re.split(r"\s*(?:<<|\+)\s*", arg):
            lits = _LITERAL.findall(piece)
            if lits and _LITERAL.sub("", piece).strip() == "":
                out.append("".join(lits).replace('\\"', '"').replace("\\n", " "))
            elif piece.strip():
                out.append(guess(piece))
    return "".join(out).strip()


# ---------------------------------------------------------------- Python raises


def py_messages(path: Path) -> Iterator[tuple[int, str, str]]:
    """``(line, exception name, message)`` of each ``raise X("...")`` and ``warnings.warn("...")``."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return
    for node in ast.walk(tree):
        call, name = None, ""
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            call, name = node.exc, _dotted(node.exc.func)
        elif isinstance(node, ast.Call) and _dotted(node.func).endswith("warnings.warn"):
            call, name = node, "UserWarning"
        if call is None or not call.args:
            continue
        msg = py_text(call.args[0])
        if msg and len(msg.split()) >= 3:
            yield node.lineno, name.rsplit(".", 1)[-1], msg


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return _dotted(node.value) + "." + node.attr
    return ""


def py_text(node: ast.AST) -> str:
    """The text an expression builds, placeholders filled by :func:`guess` (read, never evaluated)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(py_text(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return guess(ast.unparse(node.value))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return py_text(node.left) + py_text(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _percent(py_text(node.left), node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _format(py_text(node.func.value), node.args)
    return guess(ast.unparse(node)) if not isinstance(node, ast.Constant) else str(node.value)


def _percent(fmt: str, right: ast.AST) -> str:
    values = [ast.unparse(e) for e in right.elts] if isinstance(right, ast.Tuple) else [ast.unparse(right)]
    it = iter(values)
    return re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdrifgx]", lambda _: guess(next(it, "")), fmt)


def _format(fmt: str, args: list[ast.expr]) -> str:
    values = [ast.unparse(a) for a in args]
    it = iter(values)
    return re.sub(r"\{([^{}]*)\}", lambda m: guess(m.group(1) or next(it, "")), fmt)


# ---------------------------------------------------------------- per tool


def onnx_strings(root: Path) -> Iterator[dict[str, str]]:
    names = ("fail_shape_inference", "fail_type_inference", "fail_check")
    files = sorted((root / "onnx").glob("defs/**/*.cc")) + sorted(
        (root / "onnx").glob("shape_inference/*.cc")
    )
    files += [root / "onnx" / "checker.cc"]
    for path in (p for p in files if p.is_file()):
        text = path.read_text(encoding="utf-8", errors="replace")
        for macro, line, args in cpp_calls(text, names):
            msg = cpp_message(args)
            if len(msg.split()) < 2:
                continue
            op = (
                _enclosing(text, line, r"ONNX_(?:OPERATOR_SET_SCHEMA|ML_OPERATOR_SET_SCHEMA)\(\s*(\w+)")
                or "Reshape"
            )
            where = f"onnx/onnx:{path.relative_to(root)}:{line}"
            if macro == "fail_check":
                full = f"onnx.onnx_cpp2py_export.checker.ValidationError: {msg}"
            else:
                kind = "ShapeInferenceError" if macro == "fail_shape_inference" else "TypeInferenceError"
                full = (  # implementation.cc: 'Inference error(s): ' + GetErrorWithNodeInfo(node, error)
                    "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] Inference "
                    f"error(s): (op_type:{op}, node name: /model/{op}_3): [{kind}] {msg}"
                )
            yield {"family": "onnx", "source": where, "fmt": msg, "message": full}


def _enclosing(text: str, line: int, pattern: str) -> str:
    """The last ``pattern`` group before ``line`` (the operator whose schema holds the call)."""
    upto = "\n".join(text.split("\n")[: line - 1])
    found = re.findall(pattern, upto)
    return found[-1] if found else ""


TRT_CODES = {
    "kINTERNAL_ERROR": 1,
    "kINVALID_VALUE": 4,
    "kINVALID_GRAPH": 5,
    "kINVALID_NODE": 6,
    "kUNSUPPORTED_GRAPH": 7,
    "kUNSUPPORTED_NODE": 8,
    "kUNSUPPORTED_NODE_ATTR": 9,
    "kUNSUPPORTED_NODE_INPUT": 10,
    "kUNSUPPORTED_NODE_DATATYPE": 11,
    "kUNSUPPORTED_NODE_DYNAMIC": 12,
    "kUNSUPPORTED_NODE_SHAPE": 13,
}


def trt_strings(root: Path) -> Iterator[dict[str, str]]:
    names = ("ASSERT_NODE", "ASSERT", "MAKE_ERROR", "LOG_ERROR")
    for path in sorted(root.glob("*.cpp")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for macro, line, args in cpp_calls(text, names):
            desc, code = _trt_desc(macro, args)
            if len(desc.split()) < 2:
                continue
            op = _enclosing(text, line, r"DEFINE_BUILTIN_OP_IMPORTER\((\w+)\)") or "Resize"
            func = f"import{op}" if path.name == "onnxOpImporters.cpp" else _enclosing(text, line, _CPP_FUNC)
            ts = "[12/01/2026-10:00:00] [TRT] [E] ModelImporter.cpp"
            func = func or "parseGraph"
            if macro == "LOG_ERROR":
                full = f"{ts}:{line}: {desc}"
            else:
                full = (
                    f'{ts}:949: While parsing node number 12 [{op} -> "/model/{op}_output_0"]:\n'
                    f"{ts}:951: --- End node ---\n"
                    f"{ts}:953: ERROR: {path.name}:{line} In function {func}:\n"
                    f"[{code}] {desc}"
                )
            yield {
                "family": "tensorrt",
                "source": f"onnx/onnx-tensorrt:{path.name}:{line}",
                "fmt": desc,
                "message": full,
            }


_CPP_FUNC = r"(?m)^[A-Za-z][\w:<>,*& ]*?\b(\w+)\([^;{]*$"


def _trt_desc(macro: str, args: list[str]) -> tuple[str, int]:
    code = next((TRT_CODES[a.rsplit(":", 1)[-1]] for a in args if a.rsplit(":", 1)[-1] in TRT_CODES), 8)
    if macro == "ASSERT_NODE" and len(args) >= 2:
        return f"Assertion failed: {_cond(args[0])}: {cpp_message([args[1]])}", code
    if macro == "ASSERT" and args:
        return f"Assertion failed: {_cond(args[0])}", code
    return cpp_message(args[:1]), code


def _cond(cond: str) -> str:
    return re.sub(r"\s+", " ", cond).strip()


ORT_ENVELOPE = "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "
_ERRORISH = re.compile(
    r"\b(?:invalid|must|not|failed|fail|unsupported|mismatch|expected|expect|cannot|can't|unable|unexpected|"
    r"error|only|missing|exceed|exceeds|out of range|should|no |doesn't|does not|unknown|illegal|too)\b",
    re.I,
)
_NOT_MESSAGE = re.compile(r"[{};\\|]|::|\(\)|^\W|%|\bConstrain|\btensor\(|\.\w+\(|https?:|[=<>]{2}")


def ort_strings(root: Path) -> Iterator[dict[str, str]]:
    pkg = root / "onnxruntime"
    for path in sorted(pkg.glob("capi/*.py")) + sorted(pkg.glob("tools/*.py")):
        for line, exc, msg in py_messages(path):
            yield {
                "family": "onnxruntime",
                "source": f"onnxruntime wheel:{path.relative_to(root)}:{line}",
                "fmt": msg,
                "message": f"{exc}: {msg}",
            }
    for lib in sorted(pkg.glob("capi/libonnxruntime.so*")):
        for lit in sorted(set(binary_literals(lib.read_bytes()))):
            msg = lit + _ort_tail(lit)
            yield {
                "family": "onnxruntime",
                "source": f"onnxruntime wheel:capi/{lib.name}",
                "fmt": lit,
                "message": ORT_ENVELOPE + msg.strip(),
            }


def _ort_tail(lit: str) -> str:
    """The value that follows a literal's fixed head: after ``: ``, ``= `` or a word and a space, or
    inside the quote it opens."""
    if lit.endswith("'") and lit.count("'") % 2:
        return "/model/backbone/Conv_3'"
    words = lit.split()
    if lit.endswith((":", ": ", "=", "= ")) or (lit.endswith(" ") and words[-1].isalpha()):
        value = guess(words[-1].rstrip(":=") if words[-1].rstrip(":=") else lit)
        return "{" + value[1:-1] + "}" if value.startswith("[") else value  # TensorShape prints {1,3}
    return ""


def binary_literals(data: bytes) -> Iterator[str]:
    """Message-like NUL-terminated literals: 4+ words, a capital first letter, error wording, no code."""
    for m in re.finditer(rb"[\x20-\x7e]{20,200}(?=\x00)", data):
        s = m.group(0).decode("ascii")
        if len(s.split()) < 4 or not s[0].isupper() or _NOT_MESSAGE.search(s) or not _ERRORISH.search(s):
            continue
        if s.endswith(".") and not _ERRORISH.search(s.split(".")[0]):
            continue
        yield s


def onnxsim_strings(root: Path) -> Iterator[dict[str, str]]:
    pkg = root / "onnxsim"
    for path in sorted(pkg.glob("*.py")):
        for line, exc, msg in py_messages(path):
            yield {
                "family": "onnxsim",
                "source": f"daquexian/onnx-simplifier:onnxsim/{path.name}:{line}",
                "fmt": msg,
                "message": f"{exc}: {msg}",
            }
    for path in sorted(pkg.glob("*.cpp")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for macro, line, args in cpp_calls(text, ("std::invalid_argument", "std::runtime_error")):
            msg = cpp_message(args)
            if len(msg.split()) >= 2:
                exc = (
                    "ValueError" if macro.endswith("invalid_argument") else "RuntimeError"
                )  # pybind11's mapping
                yield {
                    "family": "onnxsim",
                    "source": f"daquexian/onnx-simplifier:onnxsim/{path.name}:{line}",
                    "fmt": msg,
                    "message": f"{exc}: {msg}",
                }


def float16_strings(root: Path) -> Iterator[dict[str, str]]:
    pkg = root / "onnxconverter_common"
    for name in ("float16.py", "auto_mixed_precision.py", "auto_mixed_precision_model_path.py"):
        path = pkg / name
        if path.is_file():
            for line, exc, msg in py_messages(path):
                yield {
                    "family": "float16",
                    "source": f"onnxconverter-common:onnxconverter_common/{name}:{line}",
                    "fmt": msg,
                    "message": f"{exc}: {msg}",
                }


EXTRACTORS = {
    "onnx": onnx_strings,
    "ort": ort_strings,
    "trt": trt_strings,
    "onnxsim": onnxsim_strings,
    "float16": float16_strings,
}


# ---------------------------------------------------------------- the KB's answer


CATCH_ALL = re.compile(r"\(\?P<\w+>\[\^\\n\]\{\d*,\d+\}\)\)?\??$")
"""A pattern that ends in one capture of the rest of the line: the entry quotes the message's reason."""


def verdict(kb: Any, record: dict[str, str]) -> tuple[str, str]:
    """``(entry | clause | card | other, top entry id)`` of a rendered message:

    * ``entry``: a written entry of the tool answers, with specific advice (``eval_explain.specific``), and
      its pattern is not a catch-all that quotes the rest of the line (``onnx-ValidationError-14``'s
      ``[ShapeInferenceError] (?P<shape>...)``);
    * ``clause``: the advice is specific, composed from the tool's envelope and a reason clause (an id
      ``envelope+clause``, :mod:`dumpscope.core.knowledge.clauses`);
    * ``card``: the tool is right but the advice is its card, a code-range entry, a catch-all quote or
      otherwise not specific;
    * ``other``: another tool's entry, or no confident answer."""
    from bench.eval_explain import specific
    from dumpscope.core.knowledge.answer import answer

    ans = answer(kb, record["message"], top=1)
    if not ans.matches or not ans.confident:
        return "other", "-"
    m = ans.matches[0]
    if m.entry.family != record["family"]:
        return "other", m.entry.id
    if not specific(m)[0]:
        return "card", m.entry.id
    if "+" in m.entry.id:
        return "clause", m.entry.id
    return ("card" if CATCH_ALL.search(m.entry.pattern) else "entry"), m.entry.id


VERDICTS = ("entry", "clause", "card", "other")


def coverage(kb: Any, records: list[dict[str, str]]) -> tuple[dict[str, Counter[str]], list[dict[str, str]]]:
    """Per family the count of each verdict, and the records not answered by an entry (with their top id)."""
    table: dict[str, Counter[str]] = {f: Counter() for f in FAMILIES}
    gaps = []
    for r in records:
        v, top = verdict(kb, r)
        table[r["family"]][v] += 1
        if v != "entry":
            gaps.append({**r, "verdict": v, "top": top})
    return table, gaps


def dedup(records: list[dict[str, str]]) -> list[dict[str, str]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for r in records:
        key = (r["family"], r["message"])
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def print_table(table: dict[str, Counter[str]]) -> None:
    print(f"{'tool':<12} {'strings':>7}" + "".join(f" {v:>7}" for v in VERDICTS))
    total: Counter[str] = Counter()
    for fam in FAMILIES:
        c = table[fam]
        total.update(c)
        if c:
            print(f"{fam:<12} {sum(c.values()):>7}" + "".join(f" {c[v]:>7}" for v in VERDICTS))
    print(f"{'all':<12} {sum(total.values()):>7}" + "".join(f" {total[v]:>7}" for v in VERDICTS))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in EXTRACTORS:
        ap.add_argument(f"--{name}", type=Path, help=f"local copy of {name}'s sources")
    ap.add_argument("--strings", type=Path, help="score strings already extracted (JSON lines)")
    ap.add_argument("--uncovered", type=Path, help="write the strings not answered specifically here")
    ap.add_argument("--sample", type=Path, help="write a sample of the extracted strings here")
    ap.add_argument("--sample-per-tool", type=int, default=20)
    args = ap.parse_args(argv)
    from dumpscope.core.knowledge import load_kb

    records: list[dict[str, str]] = []
    if args.strings:
        records = [json.loads(x) for x in args.strings.read_text(encoding="utf-8").splitlines() if x.strip()]
    for name, fn in EXTRACTORS.items():
        if getattr(args, name):
            records += list(fn(getattr(args, name)))
    records = dedup(records)
    kb = load_kb(user_dir=Path("/nonexistent-dumpscope"))
    table, gaps = coverage(kb, records)
    print_table(table)
    if args.uncovered:
        write_text("".join(json.dumps(g) + "\n" for g in gaps), args.uncovered)
    if args.sample:
        write_sample(records, args.sample, args.sample_per_tool)


def write_sample(records: list[dict[str, str]], path: Path, per_tool: int) -> None:
    """Every ``len // per_tool``-th record of each tool (a fixed, spread choice: no randomness)."""
    out = []
    for fam in FAMILIES:
        mine = [r for r in records if r["family"] == fam]
        step = max(1, len(mine) // per_tool)
        out += mine[::step][:per_tool]
    write_text("".join(json.dumps(r) + "\n" for r in out), path)


if __name__ == "__main__":
    main()
