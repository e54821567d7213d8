"""Compiled forms of the knowledge base's regular expressions, stored so that a look-up does not compile them.

Python's ``re`` parses and compiles a pattern in Python code (``re._parser``, ``re._compiler``): 0.1-0.6 ms
a pattern, and a pasted traceback reaches 15-25 of the KB's patterns, half of what its look-up costs.  What
``re`` hands to the regex engine at the end is data: a list of opcodes (numbers), the flags, the group count
and the group names (``_sre.compile``).  ``kb_forms.bin`` (package data, written by
``python -m dumpscope.core.knowledge`` beside ``kb_index.json``) holds that data for every pattern of
``kb.jsonl`` and every code extractor of :mod:`.codes`; :func:`compile` builds the pattern from it, else
compiles it with ``re`` as before.  The same pattern object either way (``re.Pattern`` equality compares the
pattern text, flags and opcodes; a test checks every stored form against ``re.compile``), so the same answers.

The opcodes are the engine's own format, which may change between Python versions: the file names the
interpreter that wrote it (implementation, ``sys.hexversion``, ``_sre.MAGIC``, code size, byte order) and
any other interpreter compiles every pattern with ``re``.  Nothing in the file is executed: the numbers go to
the engine, which checks them (``_sre.compile`` refuses invalid code with RuntimeError), each form carries a
CRC-32 of its numbers and names, and a form is used only for the exact pattern text and flags it was made
from.  A missing, old, foreign or damaged file, or a damaged form, means ``re.compile`` (slower, same
answers).

Layout (native byte order, every number an unsigned 32-bit integer, blocks aligned to 4 bytes)::

    b"DSRE" | header length | header JSON (padded) | n | n CRC-32s of the patterns (sorted) | n offsets
    block: flags given, flags compiled, groups, opcode count, pattern bytes, names bytes, CRC-32 of
           names + opcodes | pattern UTF-8 (padded) | names JSON (padded) | opcodes
"""

from __future__ import annotations

import sys
import zlib
from bisect import bisect_left

from dumpscope.core.knowledge.package_data import package_buffer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable
    from mmap import mmap
    from pathlib import Path
    from typing import Any

FORMS_FILE = "kb_forms.bin"
MAGIC = b"DSRE"
FORMAT = 1
_BLOCK_HEAD = 7
"""Numbers at the start of a block: flags given, flags compiled, groups, opcodes, pattern bytes, names bytes,
CRC-32."""


def interpreter() -> dict[str, Any]:
    """What a stored form is valid for: this interpreter's regex engine, exactly."""
    import _sre  # type: ignore[import-not-found]  # the regex engine, no stubs

    return {
        "format": FORMAT,
        "implementation": sys.implementation.name,
        "hexversion": sys.hexversion,
        "sre_magic": _sre.MAGIC,
        "codesize": _sre.CODESIZE,
        "maxgroups": _sre.MAXGROUPS,
        "maxrepeat": _sre.MAXREPEAT,
        "byteorder": sys.byteorder,
    }


def _key(pattern: str) -> tuple[bytes, int]:
    data = pattern.encode("utf-8", "surrogatepass")
    return data, zlib.crc32(data)


def _pad(data: bytes, fill: bytes = b"\0") -> bytes:
    return data + fill * (-len(data) % 4)


def _words(numbers: Iterable[int]) -> bytes:
    from array import array

    words = array("I", numbers)
    if words.itemsize != 4:  # pragma: no cover - every platform CPython builds on has a 4-byte 'I'
        raise ValueError("no 4-byte unsigned integer type")
    return words.tobytes()


def form_of(pattern: str, flags: int = 0) -> tuple[int, int, list[tuple[str, int]], list[int]]:
    """What ``re.compile(pattern, flags)`` hands to the engine: the compiled flags, the group count less one,
    the group names with their numbers (in ``re``'s order) and the opcodes (``re._compiler.compile``'s
    steps, on this interpreter)."""
    if sys.version_info >= (3, 11):
        from re import _compiler, _parser
    else:  # pragma: no cover - Python 3.10
        import sre_compile as _compiler
        import sre_parse as _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)  # type: ignore[attr-defined]  # re.compile's own step
    state = parsed.state
    return flags | state.flags, state.groups - 1, list(state.groupdict.items()), list(code)


def build_forms(patterns: Iterable[tuple[str, int]]) -> bytes:
    """The file of the stored forms of ``patterns`` (pattern text, flags), each pattern once."""
    import json

    blocks: list[tuple[int, bytes]] = []
    for pattern, flags in dict.fromkeys(patterns):
        compiled_flags, groups, names, code = form_of(pattern, flags)
        data, crc = _key(pattern)
        names_json = json.dumps(names, separators=(",", ":"), ensure_ascii=False).encode() if names else b""
        opcodes = _words(code)
        head = _words([flags, compiled_flags, groups, len(code), len(data), len(names_json)])
        check = zlib.crc32(names_json + opcodes)
        blocks.append((crc, head + _words([check]) + _pad(data) + _pad(names_json) + opcodes))
    blocks.sort(key=lambda b: b[0])
    header = _pad(json.dumps(interpreter(), sort_keys=True).encode(), b" ")
    start = 4 + 4 + len(header) + 4 + 8 * len(blocks)
    offsets = []
    for _, block in blocks:
        offsets.append(start)
        start += len(block)
    return b"".join(
        [
            MAGIC,
            _words([len(header)]),
            header,
            _words([len(blocks)]),
            _words(crc for crc, _ in blocks),
            _words(offsets),
            *(block for _, block in blocks),
        ]
    )


class Forms:
    """The stored forms of a ``kb_forms.bin`` (raises ValueError when it is not one for this interpreter)."""

    def __init__(self, buffer: bytes | mmap) -> None:
        import json

        view = memoryview(buffer)
        if bytes(view[:4]) != MAGIC:
            raise ValueError("not a file of stored regex forms")
        (size,) = view[4:8].cast("I")
        if json.loads(bytes(view[8 : 8 + size])) != interpreter():
            raise ValueError("stored regex forms of another interpreter or format")
        at = 8 + size
        (count,) = view[at : at + 4].cast("I")
        self._view = view
        self._crcs = view[at + 4 : at + 4 + 4 * count].cast("I")
        self._offsets = view[at + 4 + 4 * count : at + 4 + 8 * count].cast("I")
        if len(self._offsets) != count:
            raise ValueError("stored regex forms cut short")

    def __len__(self) -> int:
        return len(self._crcs)

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str] | None:
        """The pattern built from its stored form; None when none is stored or the stored one is damaged."""
        data, crc = _key(pattern)
        crcs = self._crcs
        i = bisect_left(crcs, crc)
        while i < len(crcs) and crcs[i] == crc:
            try:
                found = self._built(self._offsets[i], pattern, data, flags)
            except (ValueError, TypeError, IndexError, OverflowError, RuntimeError):
                return None  # a damaged form (a cut file, numbers the engine refuses): re compiles it
            if found is not None:
                return found
            i += 1
        return None

    def _built(self, at: int, pattern: str, data: bytes, flags: int) -> re.Pattern[str] | None:
        view = self._view
        head = view[at : at + 4 * _BLOCK_HEAD].cast("I")
        given, compiled_flags, groups, count, size, names_size, check = head
        at += 4 * _BLOCK_HEAD
        if given != flags or size != len(data) or view[at : at + size] != data:
            return None  # another pattern of the same CRC-32
        at += size + (-size % 4)
        names_end = at + names_size
        code_end = names_end + (-names_size % 4) + 4 * count
        names_bytes = bytes(view[at:names_end])
        opcodes = view[names_end + (-names_size % 4) : code_end]
        if len(opcodes) != 4 * count or zlib.crc32(opcodes, zlib.crc32(names_bytes)) != check:
            raise ValueError("a damaged stored form")
        import _sre

        names: list[list[Any]] = []
        if names_bytes:
            import json

            names = json.loads(names_bytes)
        groupindex = {name: number for name, number in names}
        indexgroup: list[str | None] = [None] * (groups + 1)
        for name, number in names:
            indexgroup[number] = name
        code = opcodes.cast("I").tolist()
        built: re.Pattern[str] = _sre.compile(
            pattern, compiled_flags, code, groups, groupindex, tuple(indexgroup)
        )
        return built


_STORE: list[Forms | None] = []
"""The forms of the package's file, read on the first :func:`compile` (None: none usable here)."""


def stored() -> Forms | None:
    """The package's stored forms, or None when its file is missing or not for this interpreter."""
    if not _STORE:
        try:
            forms: Forms | None = Forms(package_buffer(FORMS_FILE))
        except (OSError, ValueError, TypeError, IndexError):
            forms = None
        _STORE.append(forms)
    return _STORE[0]


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, built from the stored form when there is one (the same pattern)."""
    forms = stored()
    found = forms.compile(pattern, flags) if forms is not None else None
    if found is not None:
        return found
    import re

    return re.compile(pattern, flags)


def patterns_of(kb_text: str, extractors: Iterable[str]) -> list[tuple[str, int]]:
    """The patterns whose forms the package stores: every entry pattern of a ``kb.jsonl`` text, then the code
    extractors' (:func:`.codes.extractor_patterns`), each with the flags it is compiled with (none)."""
    import json

    found: list[tuple[str, int]] = []
    for line in kb_text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            pattern = json.loads(line).get("pattern") or ""
            if pattern:
                found.append((pattern, 0))
    return found + [(p, 0) for p in extractors]


def write_forms(folder: Path, extractors: Iterable[str]) -> Path:
    """Rebuild ``kb_forms.bin`` beside ``kb.jsonl`` in ``folder`` for this interpreter, with the forms of the
    code ``extractors`` too; returns its path."""
    from dumpscope.core.atomic import write_bytes

    text = (folder / "kb.jsonl").read_bytes().decode("utf-8")
    target = folder / FORMS_FILE
    write_bytes(build_forms(patterns_of(text, extractors)), target)
    return target
