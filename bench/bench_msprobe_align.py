"""Time the alignment of two msprobe call lists of 100k calls per rank (target: under 2 s).

    python bench/bench_msprobe_align.py [--calls 100000] [--layers 400] [--extra 60] [--repeat 3]

Builds two ranks' entries in memory, as :func:`dumpscope.core.formats.msprobe.read_rank`
returns them, for a transformer-like network: ``--layers`` repeated blocks of the same calls
(same APIs, shapes and code lines in every block; modules ``Module.layers.{k}...``) up to
``--calls`` calls.  Every call's first input gets its own Norm, the NPU's differing from the
bench's by a relative 1e-4 (another device's rounding).  ``--extra`` calls are added on each
side at seeded places (same API and shapes as their neighbours, other data), so counters
shift all along.  Timed, best of ``--repeat``, in this process:

* ``align``: :func:`align.features` of both sides and :func:`align.align`;
* ``pair_ranks``: the whole pairing (keys, mapping, alignment, reasons);
* the same with no construct.json, no stack.json and no statistics (the worst case: only the
  call order, keys and shapes are left).

Prints wall and CPU seconds (on a shared machine the CPU time is the steadier figure; NumPy
runs on one thread here) and the pairs right against the known truth.  In the second case an
extra call is an exact twin of the call next to it (nothing in the dump tells which of the two
is the extra one), so a few pairs there go to the twin: the "right" count measures that
ambiguity, not a drift of the alignment.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from dumpscope.core.comparison.msprobe import align as al
from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.formats.msprobe import Entry, MsprobeRank, Record

#: One block's calls: (api, input width, output width), as a decoder layer makes them.
BLOCK = [
    ("Functional.rms_norm", 4096, 4096),
    ("Functional.linear", 4096, 4096),
    ("Functional.linear", 4096, 1024),
    ("Functional.linear", 4096, 1024),
    ("Tensor.view", 4096, 4096),
    ("Torch.matmul", 128, 128),
    ("Tensor.__mul__", 128, 128),
    ("Functional.softmax", 128, 128),
    ("Torch.matmul", 128, 128),
    ("Functional.linear", 4096, 4096),
    ("Tensor.__add__", 4096, 4096),
    ("Functional.rms_norm", 4096, 4096),
    ("Functional.linear", 4096, 11008),
    ("Functional.silu", 11008, 11008),
    ("Functional.linear", 4096, 11008),
    ("Tensor.__mul__", 11008, 11008),
    ("Functional.linear", 11008, 4096),
    ("Tensor.__add__", 4096, 4096),
]
_HOOK = "File /usr/lib/python3/site-packages/msprobe/pytorch/hook_module/wrap_functional.py, line 97, in op"


def _calls(n: int, layers: int) -> list[tuple[str, int, int, str, int, float]]:
    """(api, in, out, module, code line, Norm) of every call of the network, in call order."""
    rng = random.Random(7)
    per = max(1, n // layers)
    out = []
    for k in range(n):
        layer, slot = divmod(k, per)
        api, width_in, width_out = BLOCK[slot % len(BLOCK)]
        out.append(
            (
                api,
                width_in,
                width_out,
                f"Module.layers.{layer}.DecoderLayer.forward.0",
                100 + slot,
                rng.uniform(1.0, 1e4),
            )
        )
    return out


def _side(calls: list[tuple], noise: float, structure: bool) -> MsprobeRank:
    """A rank whose entries are ``calls``, named with msprobe's counters."""
    rank = MsprobeRank(Path("."), 0, "rank0", "statistics", "mix", "pytorch")
    counters: dict[str, int] = {}
    for order, (api, w_in, w_out, module, line, norm) in enumerate(calls):
        c = counters[api] = counters.get(api, -1) + 1
        name = f"{api}.{c}.forward"
        stats = (1.0, -1.0, 0.0, norm * (1 + noise) if structure else None)
        recs = [
            Record(f"{name}.input.0", name, "input", "input.0", True, "bfloat16", (1, 128, w_in), stats),
            Record(
                f"{name}.output.0",
                name,
                "output",
                "output.0",
                True,
                "bfloat16",
                (1, 128, w_out),
                (1.0, -1.0, 0.0, 1.0),
            ),
        ]
        stack = f"{_HOOK}\nFile /work/llm/model.py, line {line}, in forward" if structure else None
        rank.entries[name] = Entry(name, order, recs, module if structure else None, stack)
    return rank


def _with_extras(calls: list[tuple], count: int, seed: int) -> tuple[list[tuple], list[int]]:
    """``calls`` with ``count`` look-alike extras (a neighbour's API and shapes, other data,
    another code line); returns them and each call's index in ``calls`` (-1: an extra)."""
    rng = random.Random(seed)
    out, ids = list(calls), list(range(len(calls)))
    for at in sorted(rng.sample(range(len(calls)), count), reverse=True):
        api, w_in, w_out, module, _, _ = calls[at]
        out.insert(at, (api, w_in, w_out, module, 900 + seed, rng.uniform(2e4, 3e4)))
        ids.insert(at, -1)
    return out, ids


def run(calls: int, layers: int, extra: int, repeat: int, structure: bool) -> dict[str, float]:
    network = _calls(calls, layers)
    npu_calls, npu_ids = _with_extras(network, extra, 1)
    bench_calls, bench_ids = _with_extras(network, extra, 2)
    npu, bench = _side(npu_calls, 1e-4, structure), _side(bench_calls, 0.0, structure)
    npu_entries, bench_entries = list(npu.entries.values()), list(bench.entries.values())
    npu_keys, bench_keys = [e.parts.key for e in npu_entries], [e.parts.key for e in bench_entries]
    timings = dict.fromkeys(("align", "align cpu", "pair_ranks", "pair_ranks cpu"), float("inf"))
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fa, codes = al.features(npu_entries, npu_keys, [e.parent for e in npu_entries])
        fb, _ = al.features(bench_entries, bench_keys, [e.parent for e in bench_entries], codes)
        pairs = al.align(fa, fb)
        timings["align"] = min(timings["align"], time.perf_counter() - t)
        timings["align cpu"] = min(timings["align cpu"], time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        pairing = pair_ranks(npu, bench)
        timings["pair_ranks"] = min(timings["pair_ranks"], time.perf_counter() - t)
        timings["pair_ranks cpu"] = min(timings["pair_ranks cpu"], time.process_time() - c)
    where = {k: j for j, k in enumerate(bench_ids) if k >= 0}
    truth = {i: where[k] for i, k in enumerate(npu_ids) if k >= 0}
    timings["right"] = sum(truth.get(i) == j for i, j in pairs)
    timings["true"] = len(truth)
    timings["realigned"] = pairing.counts()["aligned"]
    return timings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--layers", type=int, default=400)
    ap.add_argument("--extra", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    for structure, label in ((True, "dump with construct/stack/statistics"), (False, "keys and shapes only")):
        r = run(a.calls, a.layers, a.extra, a.repeat, structure)
        print(
            f"{label}: {a.calls} calls/rank + {a.extra} extra per side: align {r['align']:.3f} s "
            f"(cpu {r['align cpu']:.3f} s), pair_ranks {r['pair_ranks']:.3f} s "
            f"(cpu {r['pair_ranks cpu']:.3f} s), pairs right {int(r['right'])}/{int(r['true'])}, "
            f"re-aligned {int(r['realigned'])}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
