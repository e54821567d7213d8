"""Wording of a message without its variable parts, for ranking and for grouping.

Messages change between versions and carry op names, shapes, paths, timestamps and PIDs.
:func:`normalise` blanks those variable parts so two occurrences of one problem compare
equal; :func:`tokens` turns what is left into the word set used by the ranking.
"""

from __future__ import annotations

import re

from dumpscope.core.lazyre import LazyPattern

_VARIABLE = re.compile(
    r"""
      '[^'\n]{0,200}'                                  # quoted names
    | "[^"\n]{0,200}"
    | `[^`\n]{0,200}`
    | (?:[A-Za-z]:)?(?:[./~]{0,2}[/\\][\w.@%+=:,~-]{1,200}){2,}   # paths
    | \b\d{4}-\d{2}-\d{2}[-T ]\d{1,2}[:.]\d{2}[:.]\d{2}(?:[.,]\d{1,9}){0,2}  # timestamps
    | \b\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?
    | \b0x[0-9a-fA-F]{1,16}\b                         # addresses, registers
    | \[\s{0,2}-?\d{1,9}(?:\s{0,2}[,x]\s{0,2}-?\d{1,9}){1,12}\s{0,2}\]   # shapes
    | \(\s{0,2}-?\d{1,9}(?:\s{0,2},\s{0,2}-?\d{1,9}){1,12}\s{0,2}\)
    | \b[A-Za-z_]{1,40}\d[\w./:-]{0,120}              # op and tensor names with digits
    | -?\b\d{1,30}(?:\.\d{1,30})?(?:[eE][-+]?\d{1,3})?\b   # numbers
    """,
    re.VERBOSE,
)
_WORD = re.compile(r"[a-z][a-z_]{1,40}")
_SPACES = re.compile(r"\s+")

STOP_WORDS = frozenset(
    """
    the a an and or of to in on for is are be by with as at it this that from not no was were
    has have had but if then than into its can cannot may must should will which when where
    please check see more info information log detail details other some any all do does
    pid tid
    """.split()
)


def normalise(text: str) -> str:
    """``text`` with quoted names, paths, times, numbers, shapes and hex values blanked."""
    return _SPACES.sub(" ", _VARIABLE.sub("#", text)).strip()


_BRACKETED = LazyPattern(r"\[(?!(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|TRT|[EWIV])\])[^\]\n]{1,200}\]")


def group_key(text: str) -> str:
    """What two occurrences of one problem share: :func:`normalise` plus bracketed values blanked.

    (Bracketed words stay in :func:`tokens`: ``[aicore exception]`` is wording, not a value.)
    """
    return normalise(_BRACKETED.sub("[#]", text))


def tokens(text: str) -> frozenset[str]:
    """Content words of ``text`` (lower-case, variable parts and stop words removed)."""
    return frozenset(w for w in _WORD.findall(normalise(text).lower()) if w not in STOP_WORDS)


def pattern_words(pattern: str) -> frozenset[str]:
    """Content words of a regular expression's literal text (escapes and classes removed)."""
    text = re.sub(r"\(\?P<\w+>|\(\?[:>=!]|\(\?<[=!]", " ", pattern)
    text = re.sub(r"\\[^A-Za-z0-9]", " ", text)  # escaped punctuation: \[ \. \(
    text = re.sub(r"\\[A-Za-z]", " ", text)  # \s \d \b \n
    text = re.sub(r"\[[^\]]*\]|\{\d*,?\d*\}|[(){}?*+|^$]", " ", text)
    return tokens(text)


NAMING_PARTS = frozenset({"op", "ops", "op_name", "op_type", "optype", "node", "node_name", "layer"})
"""Parts that name an operator, node or layer: a common English word there is no name (a ``call`` part may
be C++'s ``operator()``, a name)."""
COMMON_WORDS = frozenset(
    "the this that these those its some all any each every several multiple following listed below above are"
    " was were been not and for from with node nodes ops operator operators operation operations layer"
    " layers".split()
)
"""Words a pattern's group may take from the message's own prose (``the following operators``, ``operators
listed below``) where it expects a name: said as a missing part, never as the name.  Words of one or two
letters are not on it: ``a`` or ``x`` may well name a tensor or node."""


def is_common_word(name: str, value: str) -> bool:
    """Whether the part ``name`` (:data:`NAMING_PARTS`) took a common English word (:data:`COMMON_WORDS`)
    rather than a name: ``'listed' is an operation this tool cannot convert`` must not be said."""
    return name.rstrip("0123456789") in NAMING_PARTS and value.strip(" '\"`:,.").lower() in COMMON_WORDS
