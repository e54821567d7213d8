"""The execution machinery: rows on every core give the same frame as one worker."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from dumpscope.core import compare
from dumpscope.core.comparison import execution


def _dump_pair(root: Path, layers: int = 60) -> tuple[Path, Path]:
    """A golden/target pair with varied sizes, dtypes, a NaN, a bad file and an unmatched tensor."""
    rng = np.random.default_rng(7)
    g, t = root / "golden", root / "target"
    g.mkdir()
    t.mkdir()
    for i in range(layers):
        a = rng.standard_normal(int(rng.integers(1, 50_000)), dtype=np.float32)
        b = (a + rng.standard_normal(a.size, dtype=np.float32) * 1e-3 * (1 + i)).astype(np.float16)
        if i == 17:
            b[0] = np.nan
        np.save(g / f"layer_{i:03d}.npy", a)
        np.save(t / f"layer_{i:03d}.npy", b)
    (t / "layer_005.npy").write_bytes(b"not an npy file")
    np.save(g / "golden_only.npy", np.zeros(3, np.float32))
    return g, t


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    return _dump_pair(tmp_path)


def test_frame_is_identical_whatever_the_worker_count(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    from dumpscope.core.comparison.pipeline import compare_stream

    def final(n: int) -> pl.DataFrame:  # batch=7: many tasks, finishing out of order
        return list(compare_stream(*pair, workers=n, batch=7, final_only=True))[-1].comparison.frame

    frames = [final(n) for n in (1, 2, 3)]
    assert frames[0].height == 61
    assert (frames[0]["health"] == "error").sum() == 1
    for other in frames[1:]:
        assert_frame_equal(frames[0], other)


@pytest.mark.parametrize("streamed", [False, True], ids=["final", "streamed"])
def test_tasks_sending_number_arrays_give_the_frame_of_tasks_sending_lists(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    """Forked tasks that send their number columns as arrays (every task, ARRAY_ROWS=1) and tasks
    that send lists (none) give the same frame, whole (the late run) or streamed (partial flushes)."""
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    from dumpscope.core.comparison.pipeline import compare_stream

    def final(array_rows: int) -> pl.DataFrame:
        monkeypatch.setattr(execution, "ARRAY_ROWS", array_rows)
        run = compare_stream(*pair, workers=2, batch=9, final_only=not streamed, interval=0)
        return list(run)[-1].comparison.frame

    arrays, lists = final(1), final(10**9)
    assert arrays.height == 61 and (arrays["health"] == "error").sum() == 1
    assert_frame_equal(arrays, lists)


def test_thread_fallback_gives_the_same_frame(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    monkeypatch.setenv("DUMPSCOPE_WORKERS", "threads")
    assert_frame_equal(compare(*pair, workers=1).frame, compare(*pair, workers=2).frame)


def test_tasks_cover_every_row_once_and_respect_the_budget() -> None:
    todo = list(range(1000))
    sizes = [(i % 13) << 20 for i in todo]
    parts = execution.tasks(todo, sizes, 40)
    assert [i for part in parts for i in part] == todo
    for part in parts[:-1]:
        weight = sum(sizes[i] for i in part)
        assert weight >= execution.TASK_BYTES or len(part) == 40
        assert weight - sizes[part[-1]] < execution.TASK_BYTES


def test_small_runs_stay_in_process() -> None:
    calls: list[int] = []
    rows = [
        r
        for part in execution.run_rows(lambda i: calls.append(i) or {"i": i}, [0, 1, 2], [1, 1, 1], 8)
        for r in part
    ]
    assert rows == [(0, {"i": 0}), (1, {"i": 1}), (2, {"i": 2})]
    assert calls == [0, 1, 2]  # computed here: a pool for three rows costs more than it saves


def test_a_worker_crash_is_not_a_silent_gap(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every computed row comes back: no row stays pending after a parallel run."""
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    frame = compare(*pair, workers=2).frame
    assert not frame.filter(pl.col("health") == "pending").height


def test_dask_scheduler_gives_the_identical_frame(pair: tuple[Path, Path]) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask is an optional extra: pip install 'dumpscope[dask]'"
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = compare(*pair, scheduler=cluster.scheduler_address).frame
    assert_frame_equal(compare(*pair, workers=1).frame, remote)


def test_progress_counts_bytes_for_a_gb_per_s_display(pair: tuple[Path, Path]) -> None:
    seen: list[tuple[int, int]] = []
    frame = compare(*pair, workers=1, progress_bytes=lambda d, t: seen.append((d, t))).frame
    done, total = seen[-1]
    readable = frame.filter(pl.col("side") == "both")
    assert done == total > 0
    assert [d for d, _t in seen] == sorted(d for d, _t in seen)
    assert total >= int(readable["size"].sum()) * 2  # float32 + float16 per element, at least


def test_npz_read_in_the_parent_then_by_forked_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ZipFile the parent already opened must not be shared by the workers (one file offset)."""
    from dumpscope.core.formats import open_dump

    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    rng = np.random.default_rng(3)
    arrays = {
        f"t{i:03d}": rng.standard_normal(int(rng.integers(1, 30_000))).astype(np.float32) for i in range(40)
    }
    np.savez(tmp_path / "g.npz", **arrays)
    np.savez(tmp_path / "t.npz", **{k: (v * 1.001).astype(np.float16) for k, v in arrays.items()})
    golden, target = open_dump(tmp_path / "g.npz"), open_dump(tmp_path / "t.npz")
    from dumpscope.core.comparison.pipeline import compare_stream

    serial = compare(golden, target, workers=1).frame  # opens both archives in this process
    forked = list(compare_stream(golden, target, workers=2, batch=3, final_only=True))[-1].comparison.frame
    assert_frame_equal(serial, forked)


def test_a_task_comes_back_packed_by_column_and_merges_like_one_dict_per_row() -> None:
    """Rows that set different columns (an error row sets few) merge exactly as row dicts would."""
    rows = [{"a": 1.0, "b": "x"}, {"status": "error"}, {"a": None, "b": "", "status": "computed"}]
    for indices in ([4, 5, 6], [9, 2, 7]):  # contiguous (slices) and scattered
        packed = execution.TaskResult.pack(indices, rows)
        assert list(packed) == list(zip(indices, rows, strict=False))
        expected: dict[str, list[object]] = {k: ["old"] * 10 for k in ("a", "b", "status")}
        for i, row in zip(indices, rows, strict=False):
            for key, value in row.items():
                expected[key][i] = value
        merged: dict[str, list[object]] = {k: ["old"] * 10 for k in ("a", "b", "status")}
        packed.merge_into(merged)
        assert merged == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from("abcde"), unique=True).map(lambda keys: {k: object() for k in keys}),
        max_size=6,
    )
)
def test_packing_keeps_each_columns_values_order_and_gaps_whatever_keys_the_rows_set(
    rows: list[dict[str, object]],
) -> None:
    """Rows with the same columns in the same order (a task's, nearly always) take a shorter path: the
    columns, their order (first seen), each value (the same object) and the gaps are what one dict per
    row gives, for rows with the same keys in another order, missing keys, or none."""
    packed = execution.TaskResult.pack(list(range(len(rows))), rows)
    order = list(dict.fromkeys(key for row in rows for key in row))
    assert list(packed.values) == order
    for key in order:
        assert all(got is row.get(key) for got, row in zip(packed.values[key], rows, strict=True)), (
            "the row's own value, or None where it is absent"
        )
        gaps = [p for p, row in enumerate(rows) if key not in row]
        assert packed.absent.get(key, []) == gaps
    assert set(packed.absent) <= set(order)
    assert list(packed) == list(enumerate(rows))


def test_number_columns_go_as_arrays_with_the_same_values_and_the_rest_as_they_are() -> None:
    """A task's all-float and all-int columns become float64/int64 arrays holding exactly the
    Python values; columns with a None, a bool, a numpy scalar, text or an int past int64 stay
    lists; through a pipe (pickle) the columns keep their order, types and bits."""
    big = 2**63
    values: dict[str, list[object]] = {
        "f": [0.1, float("nan"), -0.0, float("inf"), 1e308],
        "i": [0, -1, 2**63 - 1, -(2**63), 7],
        "with_none": [1.0, None, 2.0, 3.0, 4.0],
        "bools": [True, False, True, True, False],
        "np_scalars": [np.float64(1.5)] * 5,
        "mixed": [1, 2.0, 3, 4, 5],
        "text": ["a", "", "b", "c", "d"],
        "huge": [big, 1, 2, 3, 4],
        "g": [2.5, 3.5, 4.5, 5.5, 6.5],
    }
    result = execution.TaskResult([3, 1, 4, 0, 2], {k: list(v) for k, v in values.items()}, {"text": [1]})
    result.with_number_arrays()
    arrays = {k for k, v in result.values.items() if isinstance(v, np.ndarray)}
    assert arrays == {"f", "i", "g"}
    assert result.values["f"].dtype == np.float64 and result.values["i"].dtype == np.int64  # type: ignore[attr-defined]
    for key in arrays:
        assert result.values[key].tolist() == values[key] or key == "f"  # type: ignore[attr-defined]  # (f: NaN, by bits below)
    expected_bits = np.array(values["f"], dtype=np.float64).view(np.int64)
    assert (np.asarray(result.values["f"]).view(np.int64) == expected_bits).all()
    import pickle

    back = pickle.loads(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    assert list(back.values) == list(values) and back.rows == result.rows and back.absent == {"text": [1]}
    for key, vals in back.values.items():
        sent = result.values[key]
        assert type(vals) is type(sent)
        if isinstance(sent, np.ndarray):
            assert vals.dtype == sent.dtype and (vals.view(np.int64) == sent.view(np.int64)).all()  # type: ignore[attr-defined]
        else:
            assert vals == sent  # (these lists hold no NaN)


def test_accounting_counts_every_row_and_the_cpu_of_each_worker(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    import os

    from dumpscope.core.comparison.pipeline import compare_stream

    with execution.accounting() as serial:
        compare(*pair, workers=1)
    with execution.accounting() as forked:  # 12 tasks of 5 rows: this process and one forked worker
        list(compare_stream(*pair, workers=2, batch=5, final_only=True))
    with execution.accounting() as many:  # past PARENT_WORKS_UP_TO: forked workers only
        list(compare_stream(*pair, workers=execution.PARENT_WORKS_UP_TO + 1, batch=5, final_only=True))
    assert (
        serial.rows == forked.rows == many.rows == 60
    )  # every readable pair, once (the unmatched one is not read)
    assert list(serial.cpu) == [os.getpid()]
    assert os.getpid() in forked.cpu and len(forked.cpu) == 2  # the parent computed a task before waiting
    assert os.getpid() not in many.cpu and 1 <= len(many.cpu) <= execution.PARENT_WORKS_UP_TO + 1
    assert forked.tasks == many.tasks == 12
    assert all(seconds > 0 for seconds in [*forked.cpu.values(), *many.cpu.values()])


def test_a_cancelled_parallel_run_stops_its_workers(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stop iterating after the first task: every worker is gone, no row is computed twice."""
    import multiprocessing

    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    results = execution.run_rows(lambda i: {"i": i}, list(range(40)), [1] * 40, 2, batch=1)
    first = next(results)
    assert len(first) == 1
    results.close()
    assert not multiprocessing.active_children()


def test_workers_are_told_to_stop_once_every_task_is_handed_out() -> None:
    """A worker exits after its last task, before the pool is closed (its exit overlaps the parent's
    last tasks and merging); every row still comes back once, and closing afterwards is harmless."""
    workers = execution._Forked(lambda i: {"i": i}, 2)
    try:
        results = list(workers.run([[i] for i in range(12)], helper=lambda i: {"i": i}))
        for _conn, worker in workers.links:
            worker.join(timeout=30)  # (a bound for a broken build, not a timing: it has no reason to wait)
            assert worker.exitcode == 0
    finally:
        workers.close()
    assert sorted(i for r in results for i in r.rows) == list(range(12))
    assert len(workers.stopped) == 2


class _Aside:
    """An :class:`~execution.Aside` that records when it was started, and runs until told."""

    def __init__(self, until: int | None = None) -> None:
        self.events: list[str] = []
        self.children = -1
        self.until = until
        """Keep running until this many results were taken (None: for ever)."""
        self.taken = 0

    def start(self) -> None:
        import multiprocessing

        self.events.append("start")
        self.children = len(multiprocessing.active_children())

    def running(self) -> bool:
        return self.until is None or self.taken < self.until


def test_the_work_aside_starts_once_the_workers_run_and_the_parent_leaves_them_the_tasks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers (the parent one of them): the caller's work aside starts after the fork, and while
    it runs the parent computes no task (it hands them out); every row still comes back once."""
    import os

    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    aside = _Aside()
    results = list(execution.run_rows(lambda i: {"i": i}, list(range(40)), [1] * 40, 2, batch=1, aside=aside))
    assert aside.events == ["start"] and aside.children == 1
    assert sorted(i for r in results for i in r.rows) == list(range(40))
    assert {r.pid for r in results} and os.getpid() not in {r.pid for r in results}


def test_once_the_work_aside_is_done_the_parent_computes_tasks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    aside = _Aside(until=2)
    pids = []
    for result in execution.run_rows(lambda i: {"i": i}, list(range(60)), [1] * 60, 2, batch=1, aside=aside):
        aside.taken += 1
        pids.append(result.pid)
    assert len(pids) == 60 and os.getpid() not in pids[:2] and os.getpid() in pids[2:]


def test_in_process_the_work_aside_starts_before_the_first_task() -> None:
    aside = _Aside()
    rows = execution.run_rows(
        lambda i: aside.events.append(f"row {i}") or {"i": i}, [0, 1], [1, 1], 1, aside=aside
    )
    assert [r.rows for r in rows] == [[0, 1]]
    assert aside.events == ["start", "row 0", "row 1"]


def test_rows_that_arrive_while_the_table_is_built_go_in_once_it_is(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row table is built aside (a fresh CLI process imports Polars then): results that arrive
    meanwhile wait, then go in, in order; the frame is the one of a single worker."""
    import threading

    from dumpscope.core.comparison import pipeline, table

    plain = compare(*pair, workers=1).frame
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    arrived, waited = threading.Event(), []
    real_arrived, real_init = pipeline._TableOnTheSide.arrived, table.RowTable.__init__

    def arrived_spy(self, part):  # type: ignore[no-untyped-def]
        ready = real_arrived(self, part)
        waited.append(len(ready) == 0)
        arrived.set()
        return ready

    def slow_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        arrived.wait(20)  # built only once a result has had to wait for it
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(pipeline._TableOnTheSide, "arrived", arrived_spy)
    monkeypatch.setattr(table.RowTable, "__init__", slow_init)
    # every header read first: the table is then built aside (with the headers read by the workers
    # only the table's modules are loaded aside, the table once every header is in: test_late.py)
    monkeypatch.setattr(pipeline, "deferred", lambda *sides: False)
    frame = list(pipeline.compare_stream(*pair, workers=2, batch=3, final_only=True))[-1].comparison.frame
    assert waited[0]  # (the first result waited for the table)
    assert_frame_equal(frame, plain)


def _blas_in_this_process(limited_in: list[int]) -> execution.RowFn:
    """A row function reporting its process, the BLAS thread counts there, and whether threadpoolctl
    set a limit in that process (``limited_in``: the pids where it did)."""
    import os

    from threadpoolctl import threadpool_info

    def row(i: int) -> dict[str, object]:
        threads = sorted({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})
        return {"pid": os.getpid(), "threads": threads, "limited_here": os.getpid() in limited_in}

    return row


@pytest.mark.parametrize("under_the_block", [True, False])
def test_a_forked_worker_runs_one_blas_thread_and_sets_no_limit_its_parent_set(
    under_the_block: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forked under ``single_threaded_blas`` a worker inherits its parent's limit and does not look at
    every library again; forked outside one, it sets the limit itself.  Either way BLAS runs one thread
    in every worker."""
    import contextlib
    import os

    threadpoolctl = pytest.importorskip("threadpoolctl")
    limited_in: list[int] = []
    real = threadpoolctl.threadpool_limits

    def recording(*args: object, **kwargs: object) -> object:
        limited_in.append(os.getpid())
        return real(*args, **kwargs)

    monkeypatch.setattr(threadpoolctl, "threadpool_limits", recording)
    block = execution.single_threaded_blas() if under_the_block else contextlib.nullcontext()
    with block:
        workers = execution._Forked(_blas_in_this_process(limited_in), 2)  # no helper: forked rows only
        try:
            results = list(workers.run([[i] for i in range(6)]))
        finally:
            workers.close()
    rows = [row for result in results for _i, row in result]
    assert len(rows) == 6 and all(row["pid"] != os.getpid() for row in rows)
    if threadpoolctl.threadpool_info():  # (a numpy without a BLAS threadpoolctl knows lists none)
        assert all(row["threads"] in ([1], []) for row in rows)
    assert all(row["limited_here"] is not under_the_block for row in rows)
    assert execution.single_threaded_blas.active == 0


@pytest.mark.parametrize("told", ["1", "4", None])
def test_the_blas_limit_asks_threadpoolctl_unless_openblas_itself_says_one_thread(
    told: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit is in force without threadpoolctl only when ``OPENBLAS_NUM_THREADS=1`` is set and numpy's
    OpenBLAS, asked, runs one thread; any other value, or none, asks threadpoolctl."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    asked: list[object] = []
    real = threadpoolctl.threadpool_limits
    monkeypatch.setattr(threadpoolctl, "threadpool_limits", lambda *a, **k: asked.append(k) or real(*a, **k))
    if told is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", told)
    own = execution._openblas_told_one_thread()
    assert own is False or told == "1"
    with execution.single_threaded_blas():
        assert execution.single_threaded_blas.active == 1
    assert execution.single_threaded_blas.active == 0
    assert asked == ([] if own else [{"limits": 1, "user_api": "blas"}])


@pytest.mark.parametrize("before_numpy", [True, False])
def test_openblas_is_asked_not_the_variable(before_numpy: bool) -> None:
    """Set before numpy loads, ``OPENBLAS_NUM_THREADS=1`` is what OpenBLAS runs (the command's case); set
    after, OpenBLAS never read it and runs its own count: the variable alone must not lift the limit, or a
    threaded BLAS would make a long dot product's rounding follow the core count."""
    import os
    import subprocess
    import sys

    if "openblas" not in str(np.__config__.CONFIG["Build Dependencies"]["blas"]["name"]).lower():
        pytest.skip("numpy is not built on OpenBLAS here")
    set_it = "import os; os.environ['OPENBLAS_NUM_THREADS'] = '1'; "
    code = (set_it + "import numpy; " if before_numpy else "import numpy; " + set_it) + (
        "from dumpscope.core.comparison import execution; print(execution._openblas_told_one_thread()); "
        "import threadpoolctl; print([i['num_threads'] for i in threadpoolctl.threadpool_info() "
        "if i['internal_api'] == 'openblas'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    said, threads = out.stdout.split("\n")[:2]
    assert said == str(threads == "[1]")  # what OpenBLAS runs, told by threadpoolctl independently
    if before_numpy:
        assert threads == "[1]"


def test_a_finished_runs_workers_exit_by_themselves_and_are_joined_before_the_next_fork() -> None:
    """Closing a finished run does not wait for its workers' exit; they leave by themselves (exit code
    0, never terminated) and are joined, at the latest, before the next run forks its own."""
    first = execution._Forked(lambda i: {"i": i}, 2)
    try:
        rows = sorted(i for r in first.run([[i] for i in range(8)]) for i in r.rows)
    finally:
        first.close()
    assert rows == list(range(8))
    second = execution._Forked(lambda i: {"i": -i}, 1)
    try:
        assert not execution._EXITING
        assert [worker.exitcode for _conn, worker in first.links] == [0, 0]
        assert sorted(i for r in second.run([[1], [2]]) for i in r.rows) == [1, 2]
    finally:
        second.close()
    execution._reap()
    assert [worker.exitcode for _conn, worker in second.links] == [0]
