"""What ``check -j N``'s pool costs and saves, for the constants in ``vllm_lint/parallel.py``.

    python benchmarks/parallel_costs.py [ROOT ...]     # default: the benchmark corpora

Prints, for each folder, the CPU seconds per byte the front ends spend on the
files that pass the prefilter (per kind); then the wall time to start a pool of
two forked workers and have each run one task, and the parent's CPU time per
file handed over in batches (a result with a 2 KB source coming back).  Each
figure is the median of five measurements.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def analysis_costs(root: str) -> dict[str, tuple[int, int, float]]:
    """kind -> (files analysed, bytes, CPU seconds per byte) over the files that pass the prefilter."""
    from vllm_lint.cli import discover
    from vllm_lint.config import VersionResolver
    from vllm_lint.lint import lint_bytes
    from vllm_lint.parallel import _prefilter
    from vllm_lint.sources import read_file

    resolver = VersionResolver()
    found = defaultdict(list)
    for path, kind in discover([root], [], False, []):
        data = read_file(path)
        if _prefilter(path, kind, data):
            found[kind].append((path, data))
    costs = {}
    for kind, files in sorted(found.items()):
        for path, data in files[:3]:  # imports and caches loaded before measuring
            lint_bytes(path, data, resolver.for_path, kind)
        spent = []
        for _ in range(3):
            start = time.process_time()
            for path, data in files:
                lint_bytes(path, data, resolver.for_path, kind)
            spent.append(time.process_time() - start)
        size = sum(len(data) for _, data in files)
        costs[kind] = (len(files), size, statistics.median(spent) / size)
    return costs


def _noop(_index):
    return None


def _result(indices):
    from vllm_lint.sources import FileResult

    return [FileResult(f"file{index}.py", kind="python", source="x = 1\n" * 340) for index in indices]


def pool_costs(files: int = 4000, batch: int = 100) -> tuple[float, float]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import vllm_lint.checker  # noqa: F401 - a parent of realistic size
    import vllm_lint.python.analyzer  # noqa: F401

    context = multiprocessing.get_context("fork")
    starts, per_file = [], []
    for _ in range(5):
        start = time.perf_counter()
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            list(pool.map(_noop, range(2)))
        starts.append(time.perf_counter() - start)
        cpu = time.process_time()
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            futures = [pool.submit(_result, list(range(i, i + batch))) for i in range(0, files, batch)]
            for future in futures:
                future.result()
        per_file.append((time.process_time() - cpu) / files)
    return statistics.median(starts), statistics.median(per_file)


def main(roots: list[str]) -> int:
    if not roots:
        import corpora

        roots = [str(corpora.CORPORA[name]()) for name in ("vllm", "framework")]
    for root in roots:
        for kind, (count, size, per_byte) in analysis_costs(root).items():
            print(f"{root}: {kind}: {count} files, {size} bytes analysed, {per_byte * 1e6:.2f} us CPU per byte")
    start, per_file = pool_costs()
    print(f"pool of 2 forked workers: {start * 1000:.0f} ms wall to start and run a task each; "
          f"{per_file * 1e6:.0f} us parent CPU per file handed over in batches")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
