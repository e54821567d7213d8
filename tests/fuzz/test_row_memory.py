"""Memory per row on a manifest of missing files (issue 13: the 100k-entry manifest's peak RSS).

Budgets in Python bytes per entry, traced with ``tracemalloc`` (no timing, no RSS: the
same on any machine): a regression that keeps a Python object per row more than needed
(a set of every listed path, a dict per frame row, a name index nobody uses) shows as
hundreds of bytes per entry.  The 20k-entry manifest is the corpus' 100k case, smaller.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from tests.fuzz.corpus import _many_manifest, make_outside

ENTRIES = 20_000
#: What a row of a manifest of missing files needs: its TensorInfo and TensorRef, its name,
#: source path and message (~450 B today); before issue 13's last round the reader peaked at
#: ~770 B (every listed path kept in a set while reading).
READER_PEAK_BYTES = 600
#: The diagnosis works on the comparison's columns: a few bytes per row (~10 today; a Python
#: dict per frame row, or a name index over every row, is 50 to 500).
DIAGNOSE_PEAK_BYTES = 25


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("missing20k")
    make_outside(folder)
    return _many_manifest(folder, ENTRIES)


def traced_peak(run: Callable[[], object]) -> tuple[object, int]:
    """``run()``'s result and the peak of Python memory it allocated (bytes)."""
    gc.collect()
    tracemalloc.start()
    try:
        result = run()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


#: Run in a fresh interpreter that imports the reader only: pathlib interns every path part it parses, and
#: the interpreter's table of interned strings grows by doubling, in whichever measure crosses its
#: threshold; in the test process that depends on every module the suite collected (a few MB at once:
#: +150 B an entry), in a fresh one only on the reader's own imports, the same on every machine.
_READER_PEAK = """
import gc, sys, tracemalloc
from pathlib import Path
from dumpscope.core.formats import npy_dir
target = Path(sys.argv[1])
npy_dir.open(target)  # imports and first-use caches out of the measure
gc.collect()
tracemalloc.start()
dump = npy_dir.open(target)
print(len(dump.tensors), tracemalloc.get_traced_memory()[1])
"""


def test_the_reader_keeps_no_more_than_its_rows(dumps: tuple[Path, Path]) -> None:
    import subprocess
    import sys

    _golden, target = dumps
    done = subprocess.run(
        [sys.executable, "-c", _READER_PEAK, str(target)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows, peak = map(int, done.stdout.split())
    assert rows == ENTRIES + 3
    assert peak / ENTRIES <= READER_PEAK_BYTES, f"{peak / ENTRIES:.0f} B per manifest entry"


def test_diagnose_makes_no_python_object_per_row(dumps: tuple[Path, Path]) -> None:
    cmp = compare(*dumps)
    assert cmp.frame.height == ENTRIES + 3
    diagnose(cmp)  # imports out of the measure
    diag, peak = traced_peak(lambda: diagnose(cmp))
    assert diag.counts["unmatched"] == ENTRIES  # type: ignore[attr-defined]
    assert peak / ENTRIES <= DIAGNOSE_PEAK_BYTES, f"{peak / ENTRIES:.0f} B per row"
