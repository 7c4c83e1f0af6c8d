"""``vllm-lint check -j N``: lint files in worker processes.

Most files cost next to nothing: the byte prefilter skips them before any
parse.  So the parent process reads every Python file and runs the prefilter
itself, and only the files that may hold a finding (and files of the other
front ends) go to the workers, largest first.  When that work is small the
pool is not started at all: starting it would cost more than it saves.
Results come back in the order of the input.
"""

from __future__ import annotations

import os
import sys

from vllm_lint.findings import FileError
from vllm_lint.lint import lint_file, lint_python_bytes
from vllm_lint.sources import FileResult, read_file

# Below this much source to parse and analyse, one process is faster than a pool
# (starting workers and sending results back costs tens of milliseconds).
MIN_PARALLEL_BYTES = 256 * 1024
# Size we assume for a file of another front end (read by the worker itself).
OTHER_KIND_COST = 4 * 1024

_resolver = None


def _init_worker(resolver) -> None:
    global _resolver
    _resolver = resolver


def _work(item: tuple) -> FileResult:
    path, kind, data = item
    if data is not None:
        return lint_python_bytes(path, data, _resolver.for_path)
    return lint_file(path, _resolver.for_path, kind)


def _context():
    import multiprocessing

    if sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")  # workers inherit the loaded modules
    return multiprocessing.get_context()


def lint_parallel(files: list[tuple[str, str]], resolver, jobs: int) -> list[FileResult]:
    """Lint ``(path, kind)`` pairs with up to ``jobs`` processes; results in input order."""
    from vllm_lint.python import needs_analysis

    results: list[FileResult | None] = [None] * len(files)
    work: list[tuple[int, int, tuple]] = []  # (cost, index, item)
    for index, (path, kind) in enumerate(files):
        if kind != "python" or path == "-":
            work.append((OTHER_KIND_COST, index, (path, kind, None)))
            continue
        try:
            data = read_file(path)
        except (OSError, MemoryError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            results[index] = FileResult(path, error=FileError(path, f"cannot read: {reason}"))
            continue
        if not needs_analysis(data, path):
            results[index] = FileResult(path, kind="python")
            continue
        work.append((len(data), index, (path, kind, data)))

    total = sum(cost for cost, _, _ in work)
    workers = min(jobs, len(work), os.cpu_count() or 1)
    if workers > 1 and total >= MIN_PARALLEL_BYTES:
        # Imported only here: on a tree the prefilter skips, -j N costs nothing.
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        work.sort(key=lambda entry: -entry[0])  # largest first: the pool ends together
        try:
            with ProcessPoolExecutor(workers, mp_context=_context(), initializer=_init_worker, initargs=(resolver,)) as pool:
                futures = [(index, pool.submit(_work, item)) for _, index, item in work]
                for index, future in futures:
                    results[index] = future.result()
            work = []
        except (BrokenProcessPool, OSError):
            # A worker died (or none could be started): lint what is left here.
            work = [entry for entry in work if results[entry[1]] is None]
    if work:
        _init_worker(resolver)
        for _, index, item in work:
            results[index] = _work(item)
    return results  # type: ignore[return-value]
