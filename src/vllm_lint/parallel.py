"""``vllm-lint check -j N``: lint files in worker processes.

Most files cost next to nothing: the byte prefilter of their kind skips them
before any parse.  So the parent process reads every file and runs the
prefilter itself, as one process would, and only the files that are analysed
go to the workers, in batches, largest first.  The pool starts only when the
bytes analysed pay for it (see ``pays``): a repository of thousands of small
files that mention no vLLM is linted in one process, with or without ``-j``.
It starts no more workers than there are cores other work leaves idle
(``idle_cores``).  Results come back in the order of the input.
"""

from __future__ import annotations

import ast
import math
import os
import sys

from vllm_lint.findings import FileError
from vllm_lint.lint import lint_bytes
from vllm_lint.sources import FileResult, read_file

# What a pool costs and saves, measured with benchmarks/parallel_costs.py on a busy 2-core
# machine and rounded towards one process: analysing a file costs about this much CPU per byte
# (Python 0.59 us on vLLM's own tree, re-measured with the precheck after parse, where parsing
# is most of it; shell scripts 5 us and Hydra configs 11 us on a framework repository, whose
# configs compose other files), ...
ANALYSIS_SECONDS_PER_BYTE = {"python": 0.6e-6}
OTHER_KINDS_SECONDS_PER_BYTE = 3e-6
# ... starting two forked workers and having each run a task costs about this much wall time, ...
POOL_START_SECONDS = 0.15
# ... and handing a file over and its result back costs the parent this much (10 us measured).
HANDOVER_SECONDS_PER_FILE = 20e-6
# Batches per worker: few round trips, and still balanced at the end.
BATCHES_PER_WORKER = 4

_resolver = None
# The files to analyse: forked workers inherit the list and are handed indices into it.
_pending: list[tuple[str, str, bytes | None]] = []


def cost(kind: str, size: int) -> float:
    """The CPU seconds a file of ``size`` bytes is expected to take to analyse."""
    return size * ANALYSIS_SECONDS_PER_BYTE.get(kind, OTHER_KINDS_SECONDS_PER_BYTE)


def idle_cores() -> int:
    """The cores other work leaves free (``os.cpu_count()`` less the 1-minute load average,
    rounded up), at least one.  A worker started where every core is taken only queues behind
    the others: on a 2-core machine under a load of 5, two workers took longer than one process."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows): every core counts
        return cores
    return max(1, min(cores, math.ceil(cores - load)))


def pays(costs: list[float], workers: int) -> bool:
    """Whether ``workers`` processes analyse files of these ``costs`` sooner than one."""
    if workers < 2 or not costs:
        return False
    serial = sum(costs)
    parallel = POOL_START_SECONDS + max(serial / workers, max(costs)) + len(costs) * HANDOVER_SECONDS_PER_FILE
    return parallel < serial


def _init_worker(resolver) -> None:
    global _resolver
    _resolver = resolver


def _work(item: tuple) -> FileResult:
    path, kind, data = item
    return lint_bytes(path, data, _resolver.for_path, kind)


def _work_indices(indices: list[int]) -> list[FileResult]:
    return [_work(_pending[index]) for index in indices]


def _work_items(items: list[tuple]) -> list[FileResult]:
    return [_work(item) for item in items]


def _context():
    import multiprocessing

    if sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")  # workers inherit the loaded modules and the files read
    return multiprocessing.get_context()


def _prefilter(path: str, kind: str, data: bytes, server_images: tuple[str, ...] = ()) -> bool:
    """Whether the file is analysed at all: the test its front end starts with."""
    if kind == "python":
        from vllm_lint.python import needs_analysis

        return needs_analysis(data, path)
    if kind == "notebook":
        return True  # the Python prefilter runs on the cells' joined text, once the JSON is read
    from vllm_lint.commandline import needs_analysis

    return needs_analysis(data, kind, path, server_images)


def lint_parallel(files: list[tuple[str, str]], resolver, jobs: int) -> list[FileResult]:
    """Lint ``(path, kind)`` pairs with up to ``jobs`` processes; results in input order."""
    results: list[FileResult | None] = [None] * len(files)
    work: list[tuple[float, int]] = []  # (expected cost, index into _pending)
    pending: list[tuple[str, str, bytes | None]] = []
    positions: list[int] = []  # the input position of each pending file
    for index, (path, kind) in enumerate(files):
        try:
            data = read_file(path)
        except (OSError, MemoryError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            results[index] = FileResult(path, error=FileError(path, f"cannot read: {reason}"))
            continue
        if not _prefilter(path, kind, data, getattr(resolver, "server_images", ())):
            results[index] = FileResult(path, kind=kind)
            continue
        work.append((cost(kind, len(data)), len(pending)))
        pending.append((path, kind, data))
        positions.append(index)

    _init_worker(resolver)
    workers = min(jobs, len(work), idle_cores())
    if pays([expected for expected, _ in work], workers):
        work.sort(key=lambda entry: -entry[0])  # largest first: the pool ends together
        # One file of each kind linted here first: its modules (and caches) are loaded once,
        # in the parent, instead of once per worker.
        seen_kinds: set[str] = set()
        for _, number in reversed(work):
            kind = pending[number][1]
            if kind not in seen_kinds:
                seen_kinds.add(kind)
                results[positions[number]] = _work(pending[number])
                if kind == "python":
                    _load_python_analysis()
        work = [entry for entry in work if results[positions[entry[1]]] is None]
        _run_pool(work, pending, positions, results, workers, resolver)
        work = [entry for entry in work if results[positions[entry[1]]] is None]
    for _, number in work:
        results[positions[number]] = _work(pending[number])
    return results  # type: ignore[return-value]


# A module with an engine: analysing it loads what every analysis needs (the analyzer, the
# rules, the release's schema).  The smallest file linted first may be skipped by the precheck
# after parse and load none of it; then each worker would load it again.
_WARM_UP = b'from vllm import LLM\nLLM("model")\n'


def _load_python_analysis() -> None:
    from vllm_lint.python import analyze_tree
    from vllm_lint.versions import NEWEST_VERSION

    analyze_tree(ast.parse(_WARM_UP), NEWEST_VERSION)


def _batches(work: list[tuple[float, int]], workers: int) -> list[list[int]]:
    """Consecutive runs of the (largest first) work of about equal cost."""
    target = sum(expected for expected, _ in work) / (workers * BATCHES_PER_WORKER)
    batches: list[list[int]] = []
    current: list[int] = []
    filled = 0.0
    for expected, number in work:
        current.append(number)
        filled += expected
        if filled >= target:
            batches.append(current)
            current, filled = [], 0
    if current:
        batches.append(current)
    return batches


def _run_pool(work, pending, positions, results, workers: int, resolver) -> None:
    # Imported only here: on a tree the prefilter skips, -j N costs nothing.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    global _pending
    context = _context()
    inherited = context.get_start_method() == "fork"
    _pending = pending
    try:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(resolver,)) as pool:
            futures = []
            for batch in _batches(work, workers):
                if inherited:
                    futures.append((batch, pool.submit(_work_indices, batch)))
                else:
                    futures.append((batch, pool.submit(_work_items, [pending[number] for number in batch])))
            for batch, future in futures:
                for number, result in zip(batch, future.result()):
                    results[positions[number]] = result
    except (BrokenProcessPool, OSError):
        pass  # a worker died (or none could be started): the caller lints what is left here
    finally:
        _pending = []
