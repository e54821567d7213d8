"""The kind of reason a line states, read with the values the line itself carries.

A reason line (:func:`.reasons.reason_line`) or a code's own reason (``Error Code 4: Internal Error
(<reason>)``) often says what kind of failure it is and carries its values: two shapes that differ, two
data types, an opset pair, a library or file it could not use, an op with no implementation, a size of
zero, a value over a limit, a size of memory, a name the model lacks; and (:data:`LATE_KINDS`) a Python name
not defined, a method called on a null object, a target not built, a library refused for its executable
stack, a crash inside a named library, an op not registered at an opset or in a plugin's registry, an object
of another type, a count of inputs, the only case a step supports, a value an option refuses.
:data:`REASON_KINDS` is the one table of those kinds; :func:`reason_kind` reads a line with it,
:func:`reason_hint` gives a code card's fix its first words.  A kind speaks only where it read every value it
names; nothing is inferred that the line does not say.

Imported only when an answer quotes a reason (:func:`.clauses.reason_line_answered`,
:func:`.clauses.code_reason_answered`): a lookup answered otherwise never loads this table.
"""

from __future__ import annotations

import re

from dumpscope.core.knowledge.reasons import FILE_LINE
from dumpscope.core.lazyre import LazyPattern


class ReasonKind:
    """One kind of reason a line can state (two shapes that differ, two data types, a version pair, a path
    it could not use...): ``pattern`` reads the kind *and* the values the line carries for it (its named
    groups); ``cause`` and ``fix`` say what that kind means and what to do, with ``{group}`` fills of those
    values.  A kind with groups speaks only where every group read a value; one without groups (``hint``
    rows: an assertion, a parameter check) gives only the first words of a code card's fix
    (:data:`.clauses.CODE_REASON`), never a cause of its own."""

    __slots__ = ("name", "pattern", "cause", "fix", "valid", "path")

    def __init__(
        self, name: str, pattern: str, cause: str, fix: str, valid: str = "", path: str = ""
    ) -> None:
        self.name = name
        self.pattern = LazyPattern(pattern, 0)
        self.cause = cause
        self.fix = fix
        self.valid = valid
        """The name of a check on the values read (:data:`_VALID`): the kind speaks only where it holds."""
        self.path = path
        """``library`` or ``file``: the kind reads also a ``path``, the token of the line nearest to what
        its pattern matched (the wording that says it could not be used) that is such a path
        (:func:`path_near`); a token scan, not a regex that tries a path at every character."""

    def reads(self) -> frozenset[str]:
        """The names of the values this kind reads (its pattern's groups, and ``path``)."""
        return frozenset(self.pattern.groupindex) | ({"path"} if self.path else frozenset())

    def read(self, line: str) -> tuple[tuple[str, str], ...] | None:
        """The values this kind reads in ``line`` (``()`` for a kind without values that fits it), or
        ``None`` when the line is not of this kind or a value is missing or fails :attr:`valid`."""
        found = self.pattern.search(line)
        if found is None:
            return None
        values = tuple((k, (v or "").strip().rstrip(".,;:").strip()) for k, v in found.groupdict().items())
        if any(not v for _, v in values):
            return None
        if self.path:
            path = path_near(line, found.start(), found.end(), self.path)
            if not path:
                return None
            values = (*values, ("path", path))
        if self.valid and not _VALID[self.valid](dict(values), line):
            return None
        return values


_NUM = r"-?\d{1,12}(?:\.\d{1,6})?"
_DIMS = r"[\[(]\s{0,2}-?\d{1,9}(?:\s{0,2}[,x×]\s{0,2}-?\d{1,9}){0,7}\s{0,2},?\s{0,2}[\])]"
"""A shape as printed: ``(1, 3, 640, 640)``, ``[1,3,224,224]``, ``(3x224)``."""
_SHAPE_OR_NUM = rf"(?:{_DIMS}|-?\d{{1,9}}\b)"
_DTYPE = (
    r"(?i:tensor\()?(?:b?float(?:16|32|64)?|double|half|bfloat16|u?int(?:4|8|16|32|64)|bool|string"
    r"|fp(?:16|32|64)|bf16|Float(?:16|32|64)?|Double|Half|U?Int(?:8|16|32|64)|Bool|String"
    r"|(?i:FLOAT(?:16|32|64)|INT(?:8|16|32|64)|UINT8|BF16|FP(?:16|32))"
    r"|DT_[A-Z0-9]{2,12}|kFLOAT|kHALF|kINT(?:8|32|64)|kBOOL|kUINT8)\)?"
)
"""A data type as tools print it: ``float16``, ``tensor(int64)``, ``Int64``, ``DT_FLOAT``, ``kHALF``."""
_TOKEN = LazyPattern(r"[^\s'\"`“”‘’(),;\[\]<>{}|]{2,400}", 0)
"""A token of a line that may be a path (no spaces, quotes or brackets)."""
_LIBRARY_NAME = LazyPattern(r"(?:[A-Za-z]:)?[^\s]*?[\w@+~-]\.(?:so(?:\.\d{1,4}){0,4}|dll|dylib)", 0)
"""A shared library's name or path (``libnvinfer.so.10``, ``C:\\x\\onnxruntime.dll``)."""
_FILE_NAME = LazyPattern(
    r"(?:[A-Za-z]:)?[^\s]*?[\w@+~-]\.(?:onnx|rknn|rkllm|mlmodelc?|mlpackage|om|engine|trt|plan|xml|bin"
    r"|tflite|pb|pbtxt|param|mnn|dlc|txt|json|cache|pt|pth|ckpt|safetensors|yaml|yml|npy|npz|jpe?g|png|cfg"
    r"|weights|caffemodel|prototxt|h5|gguf|zip|tar|gz|csv|mil|nb|xmodel|serialized|espresso\.net)"
    r"|/[^/\s]{1,120}(?:/[^/\s]{1,120}){1,40}/?",
    0,
)
"""A file's path as a line prints it: a name with a model, data or config extension, or an absolute path of
two parts or more."""
NEAR = 60
"""How far (in characters) from the wording that says it could not be used a path is read."""


def _plain_file(value: str) -> bool:
    """A file that is neither a source file (where a line was printed) nor a shared library (the library
    kind's, whose advice is the loader's search path)."""
    return FILE_LINE.search(value + ":1") is None and _LIBRARY_NAME.fullmatch(value) is None


def path_near(line: str, start: int, end: int, kind: str) -> str:
    """The token of ``line`` nearest to ``line[start:end]`` (before it or after it, at most :data:`NEAR`
    characters away) that is a library's name (``kind`` ``library``) or a file's path (``file``: not a
    source file, which is where the line was printed), without trailing punctuation; "" when none is."""
    best = ""
    best_gap = NEAR + 1
    test = _LIBRARY_NAME if kind == "library" else _FILE_NAME
    for token in _TOKEN.finditer(line, max(0, start - NEAR - 400), min(len(line), end + NEAR + 400)):
        gap = start - token.end() if token.end() <= start else token.start() - end
        if gap < 0 or gap >= best_gap:
            continue
        value = token.group().rstrip(".,:;!?")
        if test.fullmatch(value) and (kind == "library" or _plain_file(value)):
            best, best_gap = value, gap
    return best


_OPEN_FAILED = (
    r"(?P<problem>[Nn]o such file(?: or directory)?|does not exist|doesn'?t exist|not found|cannot open"
    r"|can'?t open|could(?:n['’]t| not) (?:be )?open(?:ed)?|unable to (?:open|read|load|find)|[Ff]ailed to "
    r"(?:open|load|read|find)|[Uu]nable to load|[Cc]annot (?:load|read|find)|[Cc]ould not (?:load|read|find)"
    r"|[Pp]ermission denied|[Ii]s a directory|[Nn]ot a directory|[Aa]ccess is denied)"
)
"""Wording that says a library or file could not be used (opened, read, found, loaded)."""
_OPEN_FAILED_FILE = (
    r"(?P<problem>[Nn]o such file(?: or directory)?|does not exist|doesn'?t exist|not found|cannot open"
    r"|can'?t open|could(?:n['’]t| not) (?:be )?open(?:ed)?|unable to (?:open|read|find)|[Ff]ailed to "
    r"(?:open|read|find)|[Cc]annot (?:read|find)|[Cc]ould not (?:read|find)"
    r"|[Pp]ermission denied|[Ii]s a directory|[Nn]ot a directory|[Aa]ccess is denied)"
)
"""The same for a file, without 'load': a model that 'failed to load' may be there and unreadable to this
release (a format or version), which no check of its path finds."""
_LIBRARY_OTHER = LazyPattern(
    r"executable stack|ELF|wrong architecture|incompatible architecture|undefined symbol|symbol not found"
    r"|version `|GLIBC|mach-o|not a valid Win32",
    0,
)
"""A loader's own reason after the library's name (an executable stack refused, an ELF of another class, a
symbol missing): the library was found, so the library kind's advice (its search path) does not fit."""


def _zero_or_below(values: dict[str, str], line: str) -> bool:
    """A size, dimension or index read as zero or negative (a shape with such a dimension counts)."""
    return any(float(n) <= 0 for n in re.findall(r"-?\d+(?:\.\d+)?", values["value"]))


def _not_all_zero(values: dict[str, str], line: str) -> bool:
    """A size with a digit other than zero (``0.00 MB`` is a size of zero: that kind, not memory)."""
    return re.search(r"[1-9]", values["size"]) is not None


def _two_differ(values: dict[str, str], line: str) -> bool:
    """Two values that are not the same text (``a != b`` over one value says nothing of two)."""
    keys = [k for k in values if k not in ("what", "problem")]
    return len(keys) >= 2 and values[keys[0]].replace(" ", "") != values[keys[1]].replace(" ", "")


_UNNAMED = frozenset({"value", "it", "this", "that", "which", "data", "number", "field", "parameter"})
"""Words that stand where a limit's subject would be named but name nothing (``field value exceeds``)."""


def _names_what(values: dict[str, str], line: str) -> bool:
    """A subject that names what is over the limit (``K``, ``seq_len``), not a word of no name
    (:data:`_UNNAMED`): the fix says to bring it under the limit."""
    return values["what"].lower() not in _UNNAMED


def _library_not_found(values: dict[str, str], line: str) -> bool:
    """A library the line says could not be loaded, with no other reason of the loader's after its name
    (:data:`_LIBRARY_OTHER`)."""
    return _LIBRARY_OTHER.search(line) is None


_TYPE_NAME = re.compile(r"[A-Z.]")


def _type_names(values: dict[str, str], line: str) -> bool:
    """Two different names of which at least one is written as a type or class is (a capital or a
    dotted path: ``relay.Expr``, ``NoneType``), not two plain words of a sentence."""
    return _two_differ(values, line) and any(_TYPE_NAME.search(v) for v in values.values())


def _opset_set(values: dict[str, str], line: str) -> bool:
    """An opset of 1 or more: opset 0 is a domain the model imports no opset of, which no release's operator
    list fixes."""
    return int(values["version"]) > 0


_VALID = {
    "opset": _opset_set,
    "types": _type_names,
    "zero": _zero_or_below,
    "size": _not_all_zero,
    "differ": _two_differ,
    "library": _library_not_found,
    "named": _names_what,
}

_LIBRARY_CAUSE = (
    'The line says a library could not be used ("{problem}"): {path}. The loader did not find it on its '
    "search path, or "
    "found it but not a library it needs in turn, or found one built for another architecture or release."
)
_LIBRARY_FIX = (
    "Check that {path} is installed and on the loader's search path (LD_LIBRARY_PATH on Linux, PATH on "
    "Windows, the app bundle or DYLD_LIBRARY_PATH on macOS), then that its own dependencies load (ldd on "
    "Linux, Dependencies on Windows, otool -L on macOS): a CUDA, cuDNN, TensorRT or driver library of "
    "another major version than the tool was built against is the usual missing piece."
)
_FILE_CAUSE = 'The line says a file the step needs could not be used ("{problem}"): {path}.'
_FILE_FIX = (
    "Check {path} as the process sees it: that it exists there (a relative path is read from the "
    "process's working directory, not the script's folder), that it is a file and not a folder (or the "
    "folder a compiled model such as .mlmodelc is), that the user running the step may read it (ls -l; "
    "an app's sandbox on Android, iOS or macOS limits what it may open), and that the name is spelled as "
    "on disk, case included."
)

_OP_WORD = r"(?i:\b(?:op(?:erator)?s?|op[ _]?type|layer(?: type)?|node type|primitive)\b)"
_OP_NAME = r"(?!(?i:is|are|was|were|not|the|this|that|type|with|in|of|for)\b)(?P<op>[A-Za-z_][\w.:/-]{0,60}?)"
_NOT_SUPPORTED = (
    r"(?i:not supported|unsupported|not implemented|not registered|not found in \w{0,30}registry"
    r"|has no (?:kernel|implementation))"
)
_OP_CAUSE = (
    "The line names an operation this tool or build has no implementation for: {op}. Nothing in the graph "
    "need be wrong as such; {op} is not among the operations (or not in the form, opset or data type) "
    "that this release converts or runs."
)
_OP_FIX = (
    "Replace {op} before this step: export the model so that {op} becomes operations the tool has (an "
    "older or newer opset, a decomposition the exporter offers, or that layer rewritten in the source "
    "model), run {op} outside the tool (split the model there, or leave it to a CPU fallback or a custom "
    "op), or use a release of the tool whose operator list has {op}."
)

_DTYPE_REFUSED_CAUSE = (
    "The line says data type {dtype} is refused at this point: the op, layer or input it names has no "
    "implementation for {dtype} in this tool or on this target."
)
_DTYPE_REFUSED_FIX = (
    "Give that place another type: cast to a type the tool takes there before the op (float32 is taken "
    "almost everywhere; int32 in place of int64 indices and shapes, float32 or float16 in place of "
    "float64), in the source model before export or with the exporter's or converter's type options, and "
    "feed data of the type the model then declares."
)

_QUOTE = "['\"`‘“]"
_UNQUOTE = "['\"`’”]"

LATE_KINDS: tuple[ReasonKind, ...] = (
    ReasonKind(
        "name-not-defined",
        r"\bNameError: name '(?P<name>[A-Za-z_]\w{0,80})' is not defined",
        "Python code of the tool or its caller uses the name '{name}', which is defined neither in its "
        "module nor among the builtins of the interpreter that runs it: an import missing or removed in this "
        "release, or a name such as exit or quit that only the site module adds (absent with python -S, in "
        "embedded or frozen interpreters and some notebooks).",
        "Find where '{name}' should come from: for a module's own name, the release of the package that "
        "still defines it (match the versions its requirements name); for exit or quit, an interpreter that "
        "loads the site module (no -S, a standard CPython rather than an embedded one) or a release of the "
        "tool that calls sys.exit, and the lines printed before this one, which say why the tool meant to "
        "stop; for your own code, the import of '{name}' above the call.",
    ),
    ReasonKind(
        "null-object",
        r"(?i:attempt to invoke (?:virtual |interface |static )?method) '(?:[\w.$<>\[\]]{1,120} )?"
        r"(?P<owner>[\w.$]{1,160})\.(?P<method>[\w$]{1,80})\([^)'\n]{0,200}\)' on a null object reference",
        "The app called {method} on a {owner} that is null: the step that should have made that object (a "
        "model or network load, a session or runtime build) returned null or failed earlier, and the code "
        "went on with its result.",
        "Check the call that creates the {owner} whose {method} failed: test its result for null right after "
        "it and log the exception or error it gave (the model file or asset path, the runtime or target "
        "chosen, the native libraries packaged with the app); the first error before this one in the log is "
        "the reason it is null.",
    ),
    ReasonKind(
        "not-enabled",
        r"(?P<what>(?i:\b(?:target|backend|device|codegen|provider|extension|feature|runtime))\s{1,2}"
        r"['\"`]?(?!(?i:is|was|not)\b)[\w.-]{1,40}['\"`]?) "
        r"(?i:(?:is |was )?not (?:enabled|built|compiled))\b",
        "The line says {what} is not enabled in this build: the tool was compiled without it, so nothing "
        "that needs it can run, whatever the model.",
        "Use a build that has {what}: rebuild with its option on (for TVM, set(USE_LLVM ON) or the path of "
        "llvm-config in config.cmake for the llvm target, USE_CUDA, USE_VULKAN and the like for the others), "
        "or install a package built with it; or choose a target, backend or provider this build has.",
    ),
    ReasonKind(
        "executable-stack",
        r"(?P<problem>(?i:cannot enable executable stack))",
        'The loader found {path} but refused it ("{problem}"): the library is marked as needing an '
        "executable stack, which this system does not allow (glibc 2.41 and later refuse it, as do hardened "
        "kernels and SELinux policies).",
        "Clear that mark on {path} (patchelf --clear-execstack {path}, or execstack -c {path}), or install "
        "a release of the package whose {path} is built without it; a system with an older glibc loads it "
        "as it is.",
        path="library",
    ),
    ReasonKind(
        "access-violation",
        r"\((?P<module>[\w.+-]{1,80}\.(?i:dll|so|dylib))\)[^\n]{0,120}?(?i:0xC0000005|access violation)",
        "The process crashed inside {module}: native code there read or wrote memory it does not own (an "
        "access violation). The model and the call reached {module}; what failed is that library's own code "
        "or a version of it that does not match its caller.",
        "Check which {module} the process loads (a debugger's module list, or Process Explorer): a copy of "
        "another version earlier on the search path (System32, another package's folder) is the usual case, "
        "so put the copy the tool ships with next to the executable or update the one found; then run once "
        "with {module}'s provider or backend disabled (the CPU provider) to confirm it is the one failing, "
        "and report it with the native stack if the matching version still crashes.",
    ),
    ReasonKind(
        "op-at-opset-not-registered",
        r"(?i:\b(?:no op registered for|invalid))\s{0,2}(?P<op>[A-Za-z_][\w.]{0,60}) with domain_version of "
        r"(?P<version>\d{1,3})\b",
        "The line says no schema or kernel of {op} is registered at opset (domain_version) {version} in this "
        "build: the model was exported at an opset, or in a domain, that this release does not know for "
        "{op}.",
        "Make the opset and the runtime meet: install a release of the runtime whose operator list has {op} "
        "at opset {version}, or export the model at an opset this release reads for {op} (torch.onnx.export "
        "opset_version, onnx.version_converter); a custom or contrib domain needs the build or the library "
        "that registers it.",
        "opset",
    ),
    ReasonKind(
        "op-unsupported",
        r"(?i:\b(?:description|op_?type|type))\s{0,2}[=:]\s{0,2}(?P<op>[A-Za-z_][\w.:/-]{0,60})\s{0,2}[;,]"
        r"\s{0,2}(?i:is )?(?i:not found in) \w{0,30}(?i:registry)",
        _OP_CAUSE,
        _OP_FIX,
    ),
    ReasonKind(
        "object-type-pair",
        r"\b(?i:expect(?:ed|s)?)\s{1,2}(?:an? )?(?P<want>[A-Za-z_][\w.]{1,60}),?\s{1,2}(?:but )?"
        r"(?i:get|got|received|found)\s{1,2}(?:an? )?(?P<got>[A-Za-z_][\w.]{1,60})\b",
        "The line says an API received {got} where it takes {want}: the object passed (an argument, or "
        "what an earlier step returned) is of another type than the call expects at this point.",
        "Pass a {want}: take it from the {got} or convert it (a module's main function from a module, an "
        "array from a tensor, a loaded model rather than its path), and check that the calling code follows "
        "the API of the installed release: a {want} for {got} mix-up often follows an API change between "
        "releases, so the example or script may be written for another one.",
        "types",
    ),
    ReasonKind(
        "count-unexpected",
        r"(?i:\bunexpected number of) (?P<what>inputs|outputs|arguments|attributes|parameters) "
        r"(?i:for|of|in) (?i:node|op|layer) (?P<node>[^\s:]{1,120}(?: \([\w:.]{1,80}\))?)\s{0,2}:\s{0,2}"
        r"(?P<count>\d{1,4})\b",
        "The line says {node} has {count} {what}, a number this converter's handler for that op was not "
        "written for: the framework release that made the graph gives the op another signature than the "
        "one this converter release knows.",
        "Use releases that match: a converter release that knows this form of the op (a newer one for a "
        "newer framework), or the framework release the converter's notes list as supported, then convert "
        "again; failing that, rewrite the op that {node} comes from so that it is traced with the {what} "
        "the converter expects.",
    ),
    ReasonKind(
        "only-supported",
        r"(?i:\bonly (?:supports?|supported|support for|accepts?|allows?))\s{1,2}(?P<what>[^\n,;.!]{3,80}?)"
        r"\s{1,2}(?i:when|if)\s{1,2}(?P<when>[^\n,;.!]{2,60}?)\s{0,2}(?:[,;.!]|$)",
        "The line states the only case this step supports: {what} when {when}. The model or the call is "
        "outside that case, so the tool refuses it rather than convert or run it wrongly.",
        "Bring the model or call within it: make {what} hold or leave the case the line ties it to ({when}) "
        "(re-export or reshape the model, or change the input, the batch or the option the line names), or "
        "keep that part out of this tool (split the model there and run the part on another backend or the "
        "CPU).",
    ),
    ReasonKind(
        "value-unsupported",
        r"(?P<what>\b[A-Za-z_][\w.\[\]]{1,60}) (?:is |are )?(?i:unsupported|not supported)\s{0,2}:\s{0,2}"
        rf"{_QUOTE}(?P<value>[^'\"`’”\n]{{1,60}}){_UNQUOTE}",
        "The line says the value '{value}' of {what} is not supported here: this build or release of the "
        "tool takes other values for {what}.",
        "Give {what} a value this build takes in place of '{value}' (its documentation, or its own list of "
        "the ones it has, names them), or use the build or package of the tool that has '{value}' (a web, "
        "GPU or mobile build has values another build lacks).",
    ),
    ReasonKind(
        "ops-need-kernels",
        r"(?i:\bsome (?:of the )?(?:operators|ops) (?:in the model )?are not supported by (?:the )?)"
        r"(?P<runtime>(?i:(?:standard|native) (?:TensorFlow Lite|TFLite) runtime))[^\n]{0,600}?"
        r"(?i:\boperators for which\s{1,3}you will need custom implementations)\s{0,2}:\s{0,2}"
        r"(?P<ops>[A-Za-z_]\w{0,80}(?:,\s{0,2}[A-Za-z_]\w{0,80}){0,80})",
        "The line says the model holds operations the {runtime} has no kernel for: {ops}. TensorFlow Lite's "
        "builtin operator set is smaller than TensorFlow's, and the converter refuses an op outside it "
        "unless told how that op will run.",
        "Tell the converter how those ops run: keep them as TensorFlow ops (converter.target_spec."
        "supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS], or "
        "--enable_select_tf_ops with tflite_convert) and ship the app with the select-TF-ops (Flex) library, "
        "or set allow_custom_ops=True only for ops you give your own kernels; otherwise rewrite the listed "
        "ops into ones the {runtime} has, or leave them out of the graph you convert (an input pipeline's "
        "dataset ops; TensorFlow 1 control flow such as Switch, Merge, Enter and Exit, which control flow v2 "
        "replaces with While and If).",
    ),
    ReasonKind(
        "control-flow-v1",
        r"(?i:\bsupport(?:ed)? control flow ops)\s{0,2}:\s{0,2}"
        r"(?P<ops>[A-Z]\w{1,40}(?:,\s{0,2}[A-Z]\w{1,40}){0,12})",
        "The line names TensorFlow 1 control flow ops ({ops}): Switch, Merge, Enter, Exit, NextIteration and "
        "LoopCond are what tf.cond and tf.while_loop build in a TensorFlow 1 graph, and TensorFlow Lite has "
        "no kernel for them; it converts control flow only in its v2 form (While and If ops, their branches "
        "as functions).",
        "Give the converter control flow v2: call tf.compat.v1.enable_control_flow_v2() (or "
        "tf.compat.v1.enable_v2_behavior()) before the graph is built and export it again, or export from "
        "TensorFlow 2 (a SavedModel or a concrete function) and convert with the current (MLIR) converter; "
        "a graph that cannot be rebuilt must leave the branch or loop that makes {ops} to the calling code.",
    ),
    ReasonKind(
        "ir-version-opset-import",
        r"(?i:\bmodel with IR version)\s{1,2}(?P<bound>[<>]=?\s{0,2}\d{1,2})\s{1,2}"
        r"(?P<rule>(?i:cannot have opset_import specified|must specify opset_import(?: for ONNX)?))",
        "The ONNX checker says the model's ir_version and its opset_import disagree: a model with IR version "
        "{bound} {rule}. opset_import came with IR version 3, so an ir_version below 3 beside an opset list "
        "(most often an ir_version never set, left at 0, in a ModelProto built by hand) or one of 3 or more "
        "without an opset for the ONNX domain is a model no release reads.",
        "Make the two agree where the model is written: build it with onnx.helper.make_model, which sets "
        "ir_version to the installed onnx's and imports an opset of the ONNX domain, or set model.ir_version "
        "to the IR version that goes with the opset it imports (onnx's docs/Versioning.md pairs them) and "
        "give it an opset_import entry for the ONNX domain (domain ''); then run onnx.checker.check_model "
        "again.",
    ),
    ReasonKind(
        "weights-invalid",
        r"(?i:\binvalid)\s{1,2}`(?P<weights>[A-Za-z_]\w{0,40})`\s{1,2}(?i:weights)\b",
        "TensorRT refused the `{weights}` weights of a layer: their count is not what the layer's kind and "
        "its input need (a scale layer's shift, scale and power take one value in all, one per channel of "
        "its input or one per element, by its mode; a convolution's kernel and bias follow its channels). "
        "TensorRT's line before this one ('{weights} weights has count N but M was expected') gives both "
        "counts.",
        "Compare that layer's {weights} parameter with the tensor it receives: a normalisation or scale "
        "sized for another number of channels than its input has, or weights that the converter reshaped "
        "or read for another layout; fix the model or its export so the counts agree, and where the source "
        "model runs as it is in its framework, try the converter's latest release (Torch-TensorRT, the ONNX "
        "parser), since the count it passes is then its own.",
    ),
    ReasonKind(
        "target-platform-mismatch",
        r"(?P<what>(?i:\btarget[_ ]platform))\s{1,2}(?i:does not match|doesn'?t match|mismatch(?:es|ed)?)\b",
        "The line says the model's {what} does not match the device that loads it: the model was converted "
        "for another chip or platform (for RKNN and RKLLM, the target_platform given to rknn.config or "
        "rkllm.build names one Rockchip SoC), and the runtime refuses it on any other.",
        "Convert the model again with {what} set to the chip of the device that runs it (for Rockchip, its "
        "SoC: rk3588, rk3576, rk3568, rk3566, rk3562...; the board's /proc/device-tree/compatible names it), "
        "using the converter release that matches the runtime library on the device, and load that file.",
    ),
    ReasonKind(
        "adaptive-pool-uneven",
        r"(?i:\badaptive[ _]?\w{0,8}pool\w{0,6})\b[^\n]{0,40}?(?i:input[_ ]size)\s{0,2}[:=]\s{0,2}"
        rf"(?P<input>{_DIMS}|\d{{1,6}}(?: \d{{1,6}}){{0,3}})\s{{0,2}}[,;]?\s{{0,2}}"
        rf"(?i:output[_ ]size)\s{{0,2}}[:=]\s{{0,2}}(?P<output>{_DIMS}|-?\d{{1,6}}(?: -?\d{{1,6}}){{0,3}})",
        "An adaptive pool goes from input size {input} to output size {output}. ONNX has no adaptive "
        "pooling, so the converter writes it as a plain pool whose kernel and stride come from input over "
        "output, which is exact only where each spatial input size is a whole multiple of the output size "
        "(and both are known when converting); here one is not.",
        "Make the sizes fit: export with a fixed input shape whose size at this pool is a multiple of its "
        "output size (resize or pad the input, or change the export's input shape), set the pool's "
        "output_size to sizes that divide those it receives, or replace the adaptive pool in the model with "
        "a plain pool of fixed kernel and stride; {input} and {output} are the sizes to compare.",
    ),
    ReasonKind(
        "attribute-type-mismatch",
        r"(?i:\bmismatched attribute type in)\s{1,2}'[^'\n]{0,120}?:\s{0,2}(?P<attr>[A-Za-z_]\w{0,60})'",
        "The ONNX checker found a node's attribute '{attr}' written with another type than the op's schema "
        "declares for it at the model's opset (its AttributeProto.type differs, or was left unset): the "
        "exporter or the code that built the node gave '{attr}' a value of another kind than the op takes.",
        "Find that node (the checker's 'Bad node spec' context shows its op and attributes) and give "
        "'{attr}' the type the op's schema lists for the model's opset (onnx's Operators.md): build the "
        "attribute with onnx.helper.make_attribute or make_node, which set the type from the value, or "
        "change the source-model code that the exporter traced into it (a Python value that is not a tensor "
        "where the op takes one); then check the model again.",
    ),
    ReasonKind(
        "nhwc-node-not-selected",
        r"\bOpType:\s{0,2}(?P<op>[A-Za-z]\w{0,60}) with domain:\s{0,2}com\.ms\.internal\.nhwc was inserted "
        r"using the NHWC format as requested by (?P<ep>\w{1,80})",
        "{ep} asked onnxruntime for {op} in the NHWC layout, and onnxruntime's layout transformer rewrote "
        "that node into its internal NHWC domain for it; {ep} then did not take the rewritten node, so no "
        "provider can run it and the session is refused (onnxruntime's own text calls this a bug of the "
        "layout transformer or of the provider's GetCapability).",
        "Find why {ep} declined {op}: run with the session's log severity at verbose (0) to see its reason, "
        "and check that the provider's own libraries and SDK release are the ones this onnxruntime release "
        "was built with (a backend that cannot compile the node declines it after asking for its layout); "
        "pin the onnxruntime and provider releases the model was verified with, or try the newest, and "
        "report it to onnxruntime with the model if it stays.",
    ),
    ReasonKind(
        "special-piece-undefined",
        r"\bid for `(?P<piece>[^`\s]{1,40})` is not defined",
        "SentencePiece was asked to add the special piece `{piece}` to each encoding (its 'bos' or 'eos' "
        "extra option), but the tokenizer model defines no id for `{piece}`: it was trained without that "
        "piece (its bos_id or eos_id set to -1) or calls it by another name.",
        "Stop asking for `{piece}` where the model has none: encode, or convert the tokenizer, without "
        "adding that special token (no 'bos' or 'eos' extra option; add_bos_token or add_special_tokens off "
        "in the converter), and add the token's id yourself only where the model's vocabulary has it under "
        "another name; or use the tokenizer model that belongs to the model, which defines `{piece}`.",
    ),
    ReasonKind(
        "trt-ep-engine-not-built",
        r"\bTensorRT EP could not build [Ee]ngine for fused node:?\s{0,2}(?P<node>[A-Za-z_][\w.-]{0,120})",
        "onnxruntime's TensorRT provider handed the subgraph {node} to TensorRT, and TensorRT's builder "
        "returned no engine for it: TensorRT refused a layer, shape or data type in it, or had too little "
        "workspace. TensorRT's own error lines, printed just before this one (through the provider's log), "
        "say which.",
        "Read TensorRT's error above this line (log severity 0 shows all of it) and change what it names in "
        "the model: static shapes, or shape ranges for dynamic inputs (trt_profile_min_shapes, "
        "trt_profile_opt_shapes, trt_profile_max_shapes), and an op TensorRT refuses exported in another "
        "form (onnx-simplifier folds shape computations); or keep {node}'s ops off TensorRT "
        "(trt_op_types_to_exclude in recent releases) or run the model on the CUDA provider alone.",
    ),
    # s36o: an uncaught C++ exception as Windows reports it (Visual Studio's debugger, Microsoft's docs
    # 'Unhandled exception ... Microsoft C++ exception: <type> at memory location')
    ReasonKind(
        "uncaught-cpp-exception",
        r"(?i:\bunhandled exception at)\s{1,2}0x[0-9A-Fa-f]{1,16}\s{0,2}\(?(?i:in)\s{1,2}"
        r"(?P<module>[^\s()]{1,120}?)\)?\s{0,2}:\s{0,2}(?i:Microsoft C\+\+ exception)\s{0,2}:\s{0,2}"
        r"(?P<type>[A-Za-z_][\w:]{0,120})",
        "{module} stopped on a C++ exception that no catch block handled (Windows reports it this way, "
        "naming the exception's type: {type}): the library that threw it used the exception to report "
        "an error (a model or file it could not read, a device or plugin it could not load, an argument it "
        "refused), and the error's own message is inside the exception object, not in this line.",
        "Catch the exception around the calls into the library in {module} and print its message (a try "
        "block with catch (const std::exception& e) that prints e.what(): the exception classes of OpenVINO, "
        "onnxruntime and OpenCV derive from std::exception, and catch (...) holds any other); in Visual "
        "Studio, Exception Settings can break where {type} is thrown, and the call stack at that point names "
        "the call that failed; then act on the message the exception carries.",
    ),
    ReasonKind(
        "native-result-with-exception-set",
        r"\bSystemError: <built-in method (?P<method>\w{1,80}) of (?P<owner>[\w.]{1,80}) object at "
        r"0x[0-9a-fA-F]{1,16}> returned a result with an exception set",
        "The native method {method} (of a {owner} object: a function of a C or C++ extension module) set a "
        "Python exception and still returned a value; CPython reports that as this SystemError and chains "
        "the exception the method set to it, so the real error is printed just above this one (followed by "
        "'The above exception was the direct cause of the following exception:').",
        "Read the exception printed before this SystemError and act on it: that is what {method} failed on "
        "(for a method that builds an interpreter or a session from a model, most often a model file or "
        "buffer it could not read or an op it does not have); where the log was cut before it, call {method} "
        "again in a fresh interpreter with the same arguments and print the exception's __cause__.",
    ),
)
"""Kinds tried after the value kinds and before the hint rows (written by s32a), each from a reason line that
a GENERIC dev answer (full KB or leave-source-out) only quoted: a Python name not defined (round30.jsonl:32),
a method called on a null object (round12.jsonl:5), a target not enabled in the build (round36.jsonl:15), a
library refused for its executable stack (round24.jsonl:40), a crash inside a named library
(round13.jsonl:18), an op not registered at an opset (round13.jsonl:17), an op not in a plugin's registry
(round28.jsonl:36), an object of another type than the call takes (messages.jsonl:156), a node's count of
inputs a converter does not expect (round20.jsonl:41), the only case a step supports with the case it is tied
to (round33.jsonl:9), a value an option refuses (round24.jsonl:6).  Then (s35a), each from a vendor's own
source or docs: ops TensorFlow Lite's builtin runtime has no kernel for (toco's tflite/export.cc; the select
TF ops guide, lite/g3doc/guide/ops_select.md), TensorFlow 1 control flow ops (the converter's control-flow
check; TensorFlow's "Control Flow in TensorFlow Lite" RFC: While and If of control flow v2), an IR version
against opset_import (onnx/checker.cc check_model), TensorRT's invalid weights of a layer (its IScaleLayer
and ScaleMode docs: one value, one per channel, one per element), a model converted for another target
platform (rknn-toolkit2's and rknn-llm's target_platform), an adaptive pool whose sizes do not divide
(Paddle2ONNX's op_mapper/nn.py and mapper/nn/pool2d.cc, is_same_span), an attribute of another type than its
schema's (onnx/defs/schema.cc OpSchema::Verify), a node onnxruntime rewrote to NHWC for a provider that then
did not take it (onnxruntime/core/framework/graph_partitioner.cc), a special piece SentencePiece was asked to
add that its model lacks (sentencepiece_processor.cc, extra options bos/eos), and no TensorRT engine for a
fused node (onnxruntime's tensorrt_execution_provider.cc, buildEngineWithConfig returning null).  The older
kinds keep every line they read."""

_SHAPE_WORD = r"(?P<what>shapes?|dimensions?|dims?|rank|n_dims|ndims?|sizes?|batch(?:[ _]size)?|channels?)"
_I = "(?i:{})"

REASON_KINDS: tuple[ReasonKind, ...] = (
    ReasonKind(
        "zero-or-negative-size",
        rf"(?i:\b(?:invalid|illegal|negative|wrong|bad|unsupported)\b)[^\n]{{0,60}}?"
        r"\b(?P<what>(?:input_)?shape|size|dims?|dimension|index|bindingIndex|length|count|num_\w{1,20})"
        rf"\s{{0,2}}[=:]?\s{{0,2}}(?P<value>{_DIMS}|-\d{{1,12}}\b|0(?![\w.x]))",
        "The line gives {what} = {value}: a size, dimension or index of zero or below, which no real "
        "tensor has. Such a value most often stands for a dimension nobody fixed (a dynamic axis exported "
        "as -1, 0 or a name, read here as is) or an index looked up by a name the model does not have "
        "(-1 means 'not found').",
        "Give every dynamic input of the model a fixed, positive shape before this step (the converter's or "
        "session's input-shape option, or re-export with a static shape), and check which {what} the call "
        "passes: print the model's input and output shapes and names (Netron, or the tool's query API) and "
        "pass names and indices that exist.",
        "zero",
    ),
    ReasonKind(
        "index-out-of-range",
        r"(?i:\bindex\b)\s{0,2}[=:]?\s{0,2}(?P<value>-?\d{1,12})\b[^\n]{0,40}?(?i:out of (?:range|bounds))"
        r"[^\n]{0,30}?(?:(?i:size|range|bound|of|for)\s{0,2}[=:]?\s{0,2}\[?(?:0\s{0,2},\s{0,2})?)"
        r"(?P<limit>-?\d{1,12})\b",
        "The line reads index {value} where only {limit} entries are valid: the code or the graph asks for "
        "an element, input, output or axis the thing it indexes does not have.",
        "Find what produced index {value}: an input or output index counted on another model (a model with "
        "fewer inputs or outputs than the calling code expects), a negative axis that was not normalised, or "
        "a Gather or Slice whose indices come from a shape computed for another input size; count the "
        "model's inputs and outputs and their dimensions and use an index below {limit}.",
    ),
    ReasonKind(
        "shape-expected-got",
        rf"(?i:\bexpect(?:ed|s|ing)?\b)[^\n]{{0,40}}?{_I.format(_SHAPE_WORD)}[^\n]{{0,30}}?"
        rf"(?:(?i:of|to be|is|=|:)\s{{0,2}})?(?P<want>{_SHAPE_OR_NUM})[^\n]{{0,40}}?"
        r"(?i:\b(?:but )?(?:got|get|received|found|was|is|actual(?:ly)?|instead)\b)[:=]?\s{0,2}"
        r"(?:[^\n\d(\[]{0,20})?"
        rf"(?P<got>{_SHAPE_OR_NUM})",
        "The line compares two {what} values: it expected {want} and was given {got}. A tensor's shape "
        "reached this step with a size or number of dimensions other than the one it was built or exported "
        "for.",
        "Make the two agree: feed input of {what} {want} (resize, pad or reshape the data before the call), "
        "or re-export or rebuild the model for {got} (the export's input shape, a dynamic axis for the "
        "dimension that changes, or the converter's input-shape option); a constant reshape or view in the "
        "model that fixed {want} at export time is the usual source when the input size changed.",
        "differ",
    ),
    ReasonKind(
        "shape-differ",
        rf"{_I.format(_SHAPE_WORD)}[^\n]{{0,60}}?(?P<value>{_DIMS}|\b\d{{1,9}}\b)\s{{0,3}}"
        r"(?:vs\.?|!=|versus|and|does not match|doesn't match|mismatch(?:es)?(?: with)?|is not equal to|<>)"
        rf"\s{{0,3}}(?P<value2>{_DIMS}|\b\d{{1,9}}\b)",
        "The line sets two {what} values side by side that should agree and do not: {value} and {value2}. "
        "Two tensors that meet here (the inputs of one op, or the data fed and the model's input) carry "
        "different sizes.",
        "Find where {value} and {value2} come from: most often the model was exported or built for one input "
        "size and is given another (feed the export size, or re-export with a dynamic axis for that "
        "dimension), or a reshape or view in the model keeps a constant from the export; print the model's "
        "input shapes and the data's shape just before the call and make them match.",
        "differ",
    ),
    ReasonKind(
        "dtype-pair",
        rf"(?i:\b(?:type|dtype|data ?type|element)\w{{0,6}}\b)[^\n]{{0,40}}?(?P<dtype>\b{_DTYPE})(?![\w(])"
        r"[^\n]{0,40}?(?:\bvs\.?|!=|\bexpected\b|\bbut\b|\binstead of\b|\bdoes not match\b"
        r"|\bmismatch\w{0,3}\b"
        rf"|\bto\b|\bwith\b|\band\b)[^\n\w]{{0,4}}(?:\w{{1,12}}[^\n\w]{{1,4}}){{0,2}}?(?P<dtype2>\b{_DTYPE})(?![\w(])",
        "The line names two data types where one was required: {dtype} and {dtype2}. A tensor of one type "
        "reached a place (a model input, an op's input, a binding) declared for the other.",
        "Make the types agree: cast the data fed to that input to the type the model declares (for "
        "example numpy's astype, or tensor.to(dtype)), or re-export the model in the other type (an "
        "explicit cast in the exported graph, fp16 or int64 export options); when the two types meet "
        "inside the graph, a cast the exporter left out (int64 indices into a float op, fp16 against fp32) "
        "is the usual source.",
        "differ",
    ),
    *(
        ReasonKind("dtype-refused", pattern, _DTYPE_REFUSED_CAUSE, _DTYPE_REFUSED_FIX)
        for pattern in (
            r"(?i:\b(?:must not be|cannot be|can't be|is not supported for|does not support|doesn't support"
            r"|unsupported (?:data ?|element ?|input ?)?type"
            r"|(?:data ?|element ?)?type (?:is )?not supported)\b)"
            rf":?\s{{0,2}}['\"`“]?(?P<dtype>\b{_DTYPE})(?![\w(])",
            rf"(?i:\b(?:data ?|element ?)?type)\s{{0,2}}[:=]?\s{{0,2}}['\"`“]?(?P<dtype>\b{_DTYPE})['\"`”]?"
            r"\s{0,2}(?i:(?:is |are )?(?:not supported|unsupported|not implemented))",
        )
    ),
    ReasonKind(
        "version-pair",
        r"(?P<what>(?i:\bopset(?: version)?|\bIR version|\bir_version))"
        r"\s{0,2}[=:]?\s{0,2}[\"'“]?(?P<version>\d{1,4}(?:\.\d{1,4}){0,3})[\"'”]?"
        r"[^\n]{0,60}?(?:(?i:\bneed|\brequire\w{0,2}|\bsupport\w{0,4}|\bmax(?:imum)?\b|\bup to|\bat most"
        r"|\bexpected(?: one of)?|\bonly|\bmust be|\bshould be|\b(?:higher|newer|greater|lower|older) than)"
        r"|<=|>=|<|>)[^\n\d]{0,30}?"
        r"(?P<version2>\d{1,4}(?:\.\d{1,4}){0,3}(?:(?:,\s{0,2}|\s{1,2}or\s{1,2})\d{1,4}(?:\.\d{1,4}){0,3}){0,8})",
        "The line gives {what} {version} where this tool release reads {version2}: the model or file "
        "was written by a newer (or older) exporter or toolchain than the one reading it.",
        "Make the two versions meet: re-export or convert the model at {what} {version2} (torch.onnx.export "
        "opset_version, onnx.version_converter, the toolchain release that wrote it), or use a release of "
        "this tool that reads {what} {version}; the release notes of the tool list the versions each "
        "release reads.",
        "differ",
    ),
    ReasonKind("library-not-loaded", _OPEN_FAILED, _LIBRARY_CAUSE, _LIBRARY_FIX, "library", "library"),
    ReasonKind("file-not-opened", _OPEN_FAILED_FILE, _FILE_CAUSE, _FILE_FIX, path="file"),
    *(
        ReasonKind("op-unsupported", pattern, _OP_CAUSE, _OP_FIX)
        for pattern in (
            rf"{_OP_WORD}\s{{0,2}}[=:]?\s{{0,2}}['\"`“]?{_OP_NAME}['\"`”]?\s{{0,2}}(?:\([^)\n]{{0,60}}\)\s{{0,2}})?"
            rf"(?:is |are )?{_NOT_SUPPORTED}",
            r"(?i:\b(?:unsupported|unknown|unregistered|no (?:kernel|converter|implementation) for)\s{1,2}"
            r"(?:onnx\s{1,2})?(?:op(?:erator)?|layer|op[ _]?type|node)(?: type)?s?\b)"
            r"\s{0,2}[=:]?\s{0,2}"
            rf"['\"`“]?{_OP_NAME.replace('}?)', '})')}",
            rf"{_OP_WORD}\s{{0,2}}['\"`“](?P<op>[^'\"`”\n]{{1,80}})['\"`”][^\n]{{0,60}}?{_NOT_SUPPORTED}",
        )
    ),
    ReasonKind(
        "over-limit",
        r"\b(?P<what>[A-Za-z_][\w.]{0,40}) (?i:exceed(?:s|ed|ing)?)\b[^\n]{0,80}?"
        r"(?i:\b(?:limit|allowed|maximum|max)\b)\s{0,2}[:=(]?\s{0,2}(?P<limit>0x[0-9a-fA-F]{1,16}|\d[\d.,]{0,14})",
        "The line says {what} exceeds a limit of this tool or target, {limit}: the model or the call asks "
        "for more than the implementation or the hardware takes at this point.",
        "Bring {what} under {limit}: a smaller dimension, K, batch, sequence length or input size, the op "
        "split into parts that each fit (a TopK over chunks, a large convolution or matmul tiled), or that "
        "op moved to another device or a CPU fallback.",
        "named",
    ),
    ReasonKind(
        "out-of-memory",
        r"(?i:\b(?:out of (?:device |host )?memory|OOM|fail(?:ed)? to alloc\w{0,5}|could not alloc\w{0,5}"
        r"|cannot alloc\w{0,5}|unable to alloc\w{0,5}|tried to allocate|insufficient memory|not enough memory"
        r"|allocation (?:of|failed))\b)[^\n]{0,60}?"
        r"(?P<size>\d[\d.,]{0,14}\s{0,2}(?:[KMGT]i?B|bytes?|[KMGT]B)\b)",
        "The step asked for {size} of memory and the device or host could not give it: the model, its "
        "activations at this batch and input size, or the build's scratch space need more than is free.",
        "Lower what the step needs: a smaller batch or input size, a lower precision (fp16 or int8 weights "
        "and activations), a smaller workspace or memory-pool limit in the build options, or fewer models "
        "and processes sharing the device; check what else holds memory on it (nvidia-smi, npu-smi, free) "
        "before retrying.",
        "size",
    ),
    ReasonKind(
        "name-not-found",
        r"(?P<what>(?i:\b(?:input|output|tensor|node|layer|blob)))s?(?: (?i:name))?\s{0,2}[=:]?\s{0,2}"
        r"['\"`“](?P<name>[^'\"`”\n]{1,120})['\"`”]\s{0,2}(?i:(?:is |was )?(?:not found|does not exist"
        r"|doesn't exist|not exist|unknown|cannot be found|could not be found"
        r"|is not (?:an? )?(?:input|output)|not in))",
        "The line names the {what} '{name}', which the model as loaded does not have: the code asks for it "
        "by a name the exported or converted graph no longer carries.",
        "List the model's own {what} names (Netron, onnx's graph.input and graph.output, the session's "
        "get_inputs() and get_outputs(), or the tool's query API) and use the exact one; exporters and "
        "optimizers rename ('{name}' may have become a numbered name after simplification, gained a ':0' "
        "suffix in TensorFlow, or a '_dq' or '_quantized' suffix after quantisation), so take names from "
        "the final model, not the source code.",
    ),
    *LATE_KINDS,
    ReasonKind(
        "assertion",
        r"(?i:\bassert(?:ion)?\b)",
        "",
        "an assertion is a check inside the tool's own code that this graph or call broke (the condition "
        "says which value was wrong), not a misuse it can name: find the layer it was handling (a verbose "
        "log names it), fold constants and simplify the model, and try the tool's latest patch release, "
        "where such checks are often fixed",
    ),
    ReasonKind(
        "parameter-check",
        r"(?i:\bparameter check failed\b)",
        "",
        "the condition after 'Parameter check failed' is an argument check of the API call it names: the "
        "argument it tests (a null pointer, a dimension below one, a name or index the network does not "
        "have) is the one to fix in the calling code",
    ),
    ReasonKind(
        "limit",
        r"(?i:\bexceed|\b(?:maximum|max)\b[^\n]{0,40}\ballowed\b|\bgreater than\b|\blarger than\b)",
        "",
        "it names a value over a limit of the tool: make that value fit under the limit it states (a smaller "
        "dimension, K, batch or sequence length, or the op split in parts), or move that op elsewhere",
    ),
    ReasonKind(
        "not-supported",
        r"(?i:\bnot supported\b|\bunsupported\b|\bno implementation\b|\bnot implemented\b)",
        "",
        "nothing in this build implements what it names: change the op, data type or shape it names to one "
        "the tool supports, or use a release that supports it",
    ),
)
"""The kinds of reason a line states, tried in order: a kind with a cause speaks (cause and fix, filled)
only where it reads every value it names (:meth:`ReasonKind.read`); a kind without one (a hint row) only
starts a code card's fix, where no kind with values reads the line (:func:`reason_hint`)."""
OTHER_REASON_HINT = (
    "the layer, check, value, shape or file it names is what to change (in the model, its shapes, or the "
    "build or session options)"
)
"""The first words of a code card's fix for a reason of no kind :data:`REASON_KINDS` knows."""


def reason_kind(line: str) -> tuple[ReasonKind, tuple[tuple[str, str], ...]] | None:
    """The first kind of :data:`REASON_KINDS` with a cause that reads all its values in ``line``, with
    those values; ``None`` when none does (the line is then only quoted)."""
    for kind in REASON_KINDS:
        if kind.cause:
            values = kind.read(line)
            if values:
                return kind, values
    return None


def reason_hint(line: str) -> str:
    """The first words of a code card's fix for the reason ``line`` states: the fix of the kind that reads
    it with its values (:func:`reason_kind`, placeholders left for the answer's captures to fill), else of
    the first hint row whose wording it has, else :data:`OTHER_REASON_HINT`."""
    read = reason_kind(line)
    if read is not None:
        fix = read[0].fix.rstrip(".")
        return fix[:1].lower() + fix[1:]
    for kind in REASON_KINDS:
        if not kind.cause and kind.read(line) is not None:
            return kind.fix
    return OTHER_REASON_HINT
