"""``check -j N``: the same results as one process, and a pool only where it pays."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from vllm_lint import parallel
from vllm_lint.cli import discover
from vllm_lint.config import VersionResolver
from vllm_lint.lint import lint_file

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
fork_only = pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux")


def _summary(results) -> list:
    return [
        (r.path, r.kind, r.error and (r.error.reason, r.error.line), [(f.code, f.span.line, f.span.col, f.message) for f in r.findings])
        for r in results
    ]


def _serial(files, resolver) -> list:
    return [lint_file(path, resolver.for_path, kind) for path, kind in files]


def _files(*folders: str) -> list[tuple[str, str]]:
    return discover([str(TESTDATA / folder) for folder in folders], [], False, [])


@fork_only
def test_the_pool_gives_what_one_process_gives(monkeypatch):
    files = _files("python", "commandline", "frameworks")
    resolver = VersionResolver()
    started = []
    run_pool = parallel._run_pool
    monkeypatch.setattr(parallel, "pays", lambda costs, workers: True)
    monkeypatch.setattr(parallel, "_run_pool", lambda *args: started.append(1) or run_pool(*args))
    results = parallel.lint_parallel(files, resolver, 2)
    assert started, "the pool did not start"
    assert _summary(results) == _summary(_serial(files, VersionResolver()))
    assert any(r.findings for r in results) and any(r.kind == "yaml" for r in results)


def _die(indices):
    os._exit(3)


@fork_only
def test_a_worker_that_dies_leaves_its_files_to_the_parent(monkeypatch):
    files = _files("python")
    monkeypatch.setattr(parallel, "pays", lambda costs, workers: True)
    monkeypatch.setattr(parallel, "_work_indices", _die)
    results = parallel.lint_parallel(files, VersionResolver(), 2)
    assert _summary(results) == _summary(_serial(files, VersionResolver()))


def test_files_handed_over_whole_give_the_same_results():
    """Where workers are not forked, they are handed the files themselves."""
    files = _files("commandline")[:20]
    resolver = VersionResolver()
    parallel._init_worker(resolver)
    items = [(path, kind, Path(path).read_bytes()) for path, kind in files]
    assert _summary(parallel._work_items(items)) == _summary(_serial(files, resolver))


def test_files_the_prefilter_skips_never_start_a_pool(tmp_path, monkeypatch):
    for number in range(300):
        folder = tmp_path / f"task{number // 30}"
        folder.mkdir(exist_ok=True)
        (folder / f"t{number}.yaml").write_text(f"task: t{number}\nmetric_list:\n  - metric: acc\n")
        (folder / f"u{number}.py").write_text(f"def score_{number}(doc):\n    return len(doc)\n")
    monkeypatch.setattr(parallel, "_run_pool", lambda *args: pytest.fail("the pool started"))
    files = discover([str(tmp_path)], [], False, [])
    results = parallel.lint_parallel(files, VersionResolver(), 2)
    assert [r.path for r in results] == [path for path, _ in files]
    assert all(not r.findings and r.error is None and r.kind == kind for r, (_, kind) in zip(results, files))


def test_the_pool_pays_only_for_enough_analysis():
    python = parallel.cost("python", 1)
    assert not parallel.pays([], 2)
    assert not parallel.pays([python * 1_000_000], 1)
    # A few small files: starting workers costs more than it saves.
    assert not parallel.pays([python * 4_000] * 10, 2)
    # Thousands of tiny files: handing each over costs more than analysing it.
    assert not parallel.pays([python * 50] * 20_000, 2)
    # One file far larger than the rest: the pool cannot split it.
    assert not parallel.pays([python * 2_000_000, python * 1_000], 2)
    # A source tree with a few megabytes to analyse.
    assert parallel.pays([python * 40_000] * 100, 2)
    assert parallel.cost("yaml", 1000) > parallel.cost("python", 1000)


def test_batches_cover_the_work_once_in_order():
    work = [(float(cost), number) for number, cost in enumerate([50, 40, 30, 5, 5, 4, 3, 2, 1, 1])]
    batches = parallel._batches(work, 2)
    assert [number for batch in batches for number in batch] == list(range(10))
    assert len(batches) <= 2 * parallel.BATCHES_PER_WORKER + 1


def test_workers_only_on_idle_cores(monkeypatch):
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    assert parallel.idle_cores() == 2
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert parallel.idle_cores() == 1
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (5.2, 5.0, 4.0))
    assert parallel.idle_cores() == 1
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 8)
    assert parallel.idle_cores() == 3


def test_no_pool_when_no_core_is_idle(tmp_path, monkeypatch):
    """Files that would pay for a pool on idle cores are linted in one process on busy ones."""
    monkeypatch.setattr(parallel, "idle_cores", lambda: 1)
    monkeypatch.setattr(parallel, "_run_pool", lambda *args: pytest.fail("the pool started"))
    files = []
    for number in range(4):
        path = tmp_path / f"engine{number}.py"
        path.write_text("from vllm import LLM\n" + "x = 1\n" * 60_000 + "LLM('m', return_sampling_mask=True)\n")
        files.append((str(path), "python"))
    results = parallel.lint_parallel(files, VersionResolver(), 2)
    assert [[f.code for f in result.findings] for result in results] == [["VLM105"]] * 4
