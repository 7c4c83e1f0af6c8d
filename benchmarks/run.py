"""vllm-lint's benchmark: CPU time and peak memory as ratios to ``ast.parse``.

    pip install -e '.[bench]'
    python benchmarks/run.py                 # every corpus, 3 runs each
    python benchmarks/run.py --corpus stdlib --runs 5 --no-fixit

Every tool runs as its own process on the same files, and the process is
measured from outside: CPU seconds are user + system time of the process and
of the child processes it waited for (``os.wait4``), peak memory is its
``ru_maxrss``.  The yardstick is a process that reads and ``ast.parse``-s every
file of the corpus (``parse_all.py``), measured the same way in the same run;
each tool's figure is divided by the yardstick's, so the ratios hold across
machines.  Each command runs once unmeasured (to warm the page cache and write
bytecode caches), then ``--runs`` times, interleaved; medians are reported.

The flake8 plugin's cost is measured inside flake8 (``flake8_driver.py``): the
same flake8 command runs with and without the plugin registered, and the
plugin's own CPU time inside the process is also accounted directly (its
import plus its ``run`` calls).  Both are reported as a share of flake8's time
without the plugin.

Results go to ``benchmarks/results/``: ``results.md`` (tables), ``ratios.png``
(bar chart) and ``results.json`` (raw measurements).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402

RESULTS = HERE / "results"
BIN = Path(sys.executable).parent


@dataclass
class Tool:
    name: str
    argv: list[str]
    corpus_scope: str = "full"  # "full" or "sample": which yardstick it is divided by
    note: str = ""
    # Set when the tool reports its own accounting on stderr (the flake8 driver).
    accounting: bool = False


@dataclass
class Measurement:
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    plugin_cpu: list[float] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)

    def median(self, name: str) -> float:
        values = getattr(self, name)
        return statistics.median(values) if values else float("nan")


def measure(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, int, str]:
    """Run ``argv``; (cpu seconds, wall seconds, peak RSS KiB, exit code, stderr)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss, process.returncode, stderr


def executable(name: str) -> str | None:
    candidate = BIN / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


def sample_tree(root: Path, every: int) -> Path:
    """Every ``every``-th file of ``root`` (sorted by path), copied into a sibling folder
    (into the cache for a corpus outside it: a local repository is never written to)."""
    parent = root.parent if corpora.CACHE in root.parents else corpora.CACHE / f"local-{root.name}"

    def copy_sample(files_dir: Path) -> None:
        for path in corpora.python_files(root)[::every]:
            destination = files_dir / path.relative_to(root)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)

    return corpora.made_once(parent / f"sample-every-{every}", "files", copy_sample)


def fix_available() -> bool:
    return importlib.util.find_spec("vllm_lint.fix") is not None and importlib.util.find_spec("vllm_lint.fix.apply") is not None


def tools_for(root: Path, sample: Path | None, args) -> tuple[list[Tool], list[str]]:
    python = sys.executable
    lint = [executable("vllm-lint") or python, *([] if executable("vllm-lint") else ["-m", "vllm_lint"])]
    driver = [python, str(HERE / "flake8_driver.py")]
    notes: list[str] = []
    tools = [
        Tool("ast.parse (yardstick)", [python, str(HERE / "parse_all.py"), str(root)]),
        Tool("vllm-lint check", [*lint, "check", "--quiet", str(root)]),
        Tool(f"vllm-lint check -j{args.jobs}", [*lint, "check", "--quiet", "-j", str(args.jobs), str(root)]),
    ]
    if os.environ.get("VLLM_LINT_BENCH_FRAMEWORK_REPO") and root == corpora.framework():
        notes.append("`vllm-lint check --fix` not measured on a local repository: it would change its files.")
    elif fix_available():
        tools.append(Tool("vllm-lint check --fix", [*lint, "check", "--quiet", "--fix", str(root)]))
    else:
        notes.append("`vllm-lint check --fix` not measured: the fixer (`vllm_lint.fix`) is not installed in this build.")
    flake8_args = ["-j1", "--isolated", str(root)]
    if not args.flake8:
        notes.append("flake8 not measured (`--no-flake8`).")
    tools += [] if not args.flake8 else [
        Tool("flake8 --select F", [*driver, "--without-vllm-lint", "--select", "F", *flake8_args]),
        Tool(
            "flake8 --select F,VLM (with the plugin)",
            [*driver, "--with-vllm-lint", "--select", "F,VLM", *flake8_args],
            accounting=True,
        ),
    ]
    ruff = executable("ruff")
    if ruff:
        tools.append(Tool("ruff check --select F", [ruff, "check", "--select", "F", "--no-cache", "--isolated", "--no-respect-gitignore", "--quiet", str(root)]))
    else:
        notes.append("ruff not installed: not measured.")
    fixit = executable("fixit")
    if sample is not None and fixit:
        tools.append(Tool("ast.parse (yardstick, sample)", [python, str(HERE / "parse_all.py"), str(sample)], "sample"))
        tools.append(Tool("Fixit (default rules)", [fixit, "lint", str(sample)], "sample"))
    elif sample is not None:
        notes.append("fixit not installed: not measured.")
    return tools, notes


def run_corpus(name: str, args) -> dict:
    root = corpora.CORPORA[name]()
    files = corpora.python_files(root)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    every = args.fixit_every.get(name)
    sample = sample_tree(root, every) if args.fixit and every else None
    tools, notes = tools_for(root, sample, args)
    if sample is not None:
        sample_files = corpora.python_files(sample)
        notes.append(
            f"Fixit runs on every {every}th file ({len(sample_files)} files) and is divided by `ast.parse` of that "
            "same sample; the ratio is assumed to hold for the whole corpus (per-file costs dominate both)."
        )
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with bytecode caches, as installed tools run
    env["VLLM_LINT_BENCH_ACCOUNTING"] = "1"
    results: dict[str, Measurement] = {tool.name: Measurement() for tool in tools}
    cwd = root.parent
    all_files = sum(len(names) for _, _, names in os.walk(root))
    load_before = os.getloadavg()[0]
    print(f"\n{name}: {all_files} files, {len(files)} Python files, {lines} lines; load average {load_before:.2f}", file=sys.stderr)
    # Warm-up, not measured: the yardstick reads the whole corpus (page cache);
    # every other tool runs once on a small sample (bytecode caches).
    warm = sample_tree(root, 50)
    for tool in tools:
        argv = tool.argv if tool is tools[0] or tool.corpus_scope == "sample" else [str(warm) if a == str(root) else a for a in tool.argv]
        cpu, wall, rss, code, stderr = measure(argv, cwd, env)
        if "Traceback" in stderr:
            raise SystemExit(f"{tool.name} failed:\n{stderr[-3000:]}")
        print(f"  warm-up {tool.name}: {cpu:.2f}s CPU, exit {code}", file=sys.stderr)
    for run in range(args.runs):
        for tool in tools:
            cpu, wall, rss, code, stderr = measure(tool.argv, cwd, env)
            m = results[tool.name]
            m.cpu.append(cpu)
            m.wall.append(wall)
            m.rss_kib.append(rss)
            m.exit_codes.append(code)
            if tool.accounting:
                m.plugin_cpu.append(_plugin_cpu(stderr))
            print(f"  run {run + 1}/{args.runs} {tool.name}: {cpu:.2f}s CPU, {wall:.2f}s wall, {rss / 1024:.0f} MiB", file=sys.stderr)
    packs = subprocess.run(
        [sys.executable, str(HERE / "framework_packs.py"), str(root)], capture_output=True, text=True, check=True
    ).stdout.strip()
    return {
        "corpus": name,
        "framework_packs": packs,
        "root": str(root),
        "files": len(files),
        "all_files": all_files,
        "lines": lines,
        # 1-minute load average before and after the measured runs (the machine may be shared).
        "load": [load_before, os.getloadavg()[0]],
        "sample_files": len(corpora.python_files(sample)) if sample is not None else None,
        "tools": [asdict(tool) for tool in tools],
        "measurements": {key: asdict(value) for key, value in results.items()},
        "notes": notes,
    }


def _plugin_cpu(stderr: str) -> float:
    for line in stderr.splitlines():
        if line.startswith("vllm-lint plugin CPU seconds: "):
            return float(line.rsplit(" ", 1)[1])
    return float("nan")


# ------------------------------------------------------------------ reporting


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB RAM"
    except (ValueError, OSError):
        pass
    return (
        f"{model}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def versions() -> str:
    from importlib import metadata

    parts = []
    for package in ("vllm-lint", "flake8", "pyflakes", "pycodestyle", "ruff", "fixit"):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            pass
    return ", ".join(parts)


def derived(corpus: dict) -> list[dict]:
    """One row per tool: medians and ratios to the matching yardstick."""
    m = corpus["measurements"]
    scopes = {tool["name"]: tool["corpus_scope"] for tool in corpus["tools"]}
    base = {"full": m["ast.parse (yardstick)"]}
    if "ast.parse (yardstick, sample)" in m:
        base["sample"] = m["ast.parse (yardstick, sample)"]

    def med(entry, key):
        return statistics.median(entry[key]) if entry[key] else float("nan")

    rows = []
    for name, entry in m.items():
        if name.startswith("ast.parse (yardstick, sample)"):
            continue
        yard = base[scopes[name]]
        rows.append(
            {
                "tool": name,
                "cpu": med(entry, "cpu"),
                "wall": med(entry, "wall"),
                "rss_mib": med(entry, "rss_kib") / 1024,
                "cpu_ratio": med(entry, "cpu") / med(yard, "cpu"),
                "rss_ratio": med(entry, "rss_kib") / med(yard, "rss_kib"),
                "scope": scopes[name],
                "plugin_cpu": med(entry, "plugin_cpu") if entry["plugin_cpu"] else None,
            }
        )
        if entry["plugin_cpu"]:
            own = med(entry, "plugin_cpu")
            rows.append(
                {
                    "tool": "vllm-lint flake8 plugin (its own CPU inside flake8)",
                    "cpu": own,
                    "wall": float("nan"),
                    "rss_mib": float("nan"),
                    "cpu_ratio": own / med(yard, "cpu"),
                    "rss_ratio": float("nan"),
                    "scope": "full",
                    "plugin_cpu": None,
                }
            )
    return rows


def plugin_cost(corpus: dict) -> dict | None:
    m = corpus["measurements"]
    with_plugin = m.get("flake8 --select F,VLM (with the plugin)")
    without = m.get("flake8 --select F")
    if not with_plugin or not without:
        return None
    base = statistics.median(without["cpu"])
    difference = statistics.median(a - b for a, b in zip(with_plugin["cpu"], without["cpu"]))
    accounted = statistics.median(with_plugin["plugin_cpu"])
    return {
        "flake8_cpu": base,
        "difference": difference,
        "difference_share": difference / base,
        "accounted": accounted,
        "accounted_share": accounted / base,
    }


BUDGETS = {
    "stdlib": {"check": 0.15, "plugin": 0.02},
    "vllm": {"check": 0.12, "plugin": 0.10},
    # A framework repository: its configs and launch scripts are read too, not only its Python.
    "framework": {"check": 3.0},
    # An evaluation harness: ~15,000 small files, nearly all YAML; only -j is budgeted.
    "harness": {},
}
# -jN may not be slower than one process; medians of a few runs on a busy machine differ by this much.
PARALLEL_TOLERANCE = 0.05
TITLES = {
    "stdlib": "standard library",
    "harness": "generated evaluation harness (YAML task configs, no vLLM)",
    "framework": "RL framework repository (NeMo-RL's shape)",
}


def title(name: str, root: str = "") -> str:
    if name == "framework" and root and corpora.CACHE.resolve() not in Path(root).resolve().parents:
        return f"RL framework repository (local copy: {Path(root).name})"
    return TITLES.get(name) or f"vLLM {corpora.VLLM_VERSION} source tree"
MEMORY_BUDGET_MIB = 150


def budget_rows(corpus: dict, rows: list[dict], jobs: int) -> list[tuple[str, str, str]]:
    name = corpus["corpus"]
    by_tool = {row["tool"]: row for row in rows}
    check = by_tool["vllm-lint check"]
    out = []
    limit = BUDGETS.get(name, {}).get("check")
    if limit is not None:
        out.append((f"`vllm-lint check` CPU <= {limit}x ast.parse", f"{check['cpu_ratio']:.3f}x", _ok(check["cpu_ratio"] <= limit)))
    ruff = by_tool.get("ruff check --select F")
    if name == "stdlib" and ruff:
        out.append(("`vllm-lint check` CPU below `ruff check --select F`", f"{check['cpu']:.2f}s vs {ruff['cpu']:.2f}s", _ok(check["cpu"] < ruff["cpu"])))
    cost = plugin_cost(corpus)
    if cost and "plugin" in BUDGETS.get(name, {}):
        limit = BUDGETS[name]["plugin"]
        out.append(
            (
                f"flake8 plugin adds <= {limit:.0%} to flake8's CPU",
                f"{cost['accounted_share']:.2%} accounted in-process ({cost['difference_share']:+.1%} by difference)",
                _ok(cost["accounted_share"] <= limit),
            )
        )
    fix = by_tool.get("vllm-lint check --fix")
    if fix:
        out.append(("`--fix` on a tree without findings <= 1.1x `check`", f"{fix['cpu'] / check['cpu']:.2f}x", _ok(fix["cpu"] <= 1.1 * check["cpu"])))
    elif not fix_available():
        out.append(("`--fix` on a tree without findings <= 1.1x `check`", "not measured (no fixer in this build)", "n/a"))
    if name == "vllm":
        out.append((f"peak memory < {MEMORY_BUDGET_MIB} MB", f"{check['rss_mib']:.0f} MiB", _ok(check["rss_mib"] < MEMORY_BUDGET_MIB)))
    packs = corpus.get("framework_packs")
    if packs and name != "framework":
        # The packs only ever see config and command files; none are loaded on a tree without framework configs.
        out.append(("framework packs on a tree without framework configs: nothing loaded", packs, _ok("packs loaded: 0" in packs)))
    parallel = by_tool.get(f"vllm-lint check -j{jobs}")
    if parallel:
        out.append(
            (
                f"`-j{jobs}` not slower than `-j1` (wall time, {PARALLEL_TOLERANCE:.0%} tolerance)",
                f"{parallel['wall']:.2f}s vs {check['wall']:.2f}s ({check['wall'] / parallel['wall']:.2f}x faster); "
                f"CPU {parallel['cpu']:.2f}s vs {check['cpu']:.2f}s",
                _ok(parallel["wall"] <= check["wall"] * (1 + PARALLEL_TOLERANCE)),
            )
        )
    return out


def check_imports() -> dict:
    """What ``check`` loads (``check_imports.py``): never the language server, ``explain`` or
    their dependencies; on a clean file not libcst or astroid either."""
    completed = subprocess.run([sys.executable, str(HERE / "check_imports.py")], capture_output=True, text=True)
    return {"summary": completed.stdout.strip() or completed.stderr.strip()[-500:], "ok": completed.returncode == 0}


def _ok(flag: bool) -> str:
    return "met" if flag else "**not met**"


def markdown(report: dict) -> str:
    lines = [
        f"Measured {report['date']} on {report['machine']}.",
        f"Tools: {report['versions']}. Medians of {report['runs']} runs.",
        "",
    ]
    imports = report.get("imports")
    if imports:  # earlier results.json files have no such entry
        lines += [f"Import check: {imports['summary']} ({_ok(imports['ok'])}).", ""]
    for corpus in report["corpora"]:
        rows = derived(corpus)
        lines += [
            f"#### {title(corpus['corpus'], corpus.get('root', ''))} ({corpus.get('all_files', corpus['files'])} files; "
            f"{corpus['files']} Python files, {corpus['lines']:,} lines)",
            "",
            *([f"Load average (1 min) before and after the runs: {corpus['load'][0]:.2f}, {corpus['load'][1]:.2f}.", ""] if "load" in corpus else []),
            "| tool | CPU, x ast.parse | peak memory, x ast.parse | CPU s | wall s | peak MiB |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in rows:
            label = row["tool"] + (" ¹" if row["scope"] == "sample" else "")
            def num(value: float, digits: int) -> str:
                return "—" if value != value else f"{value:.{digits}f}"

            lines.append(
                f"| {label} | {row['cpu_ratio']:.3f} | {num(row['rss_ratio'], 2)} | {row['cpu']:.2f} | "
                f"{num(row['wall'], 2)} | {num(row['rss_mib'], 0)} |"
            )
        cost = plugin_cost(corpus)
        if cost:
            lines += [
                "",
                f"flake8 plugin's own cost: {cost['accounted']:.3f}s CPU accounted inside flake8 = "
                f"{cost['accounted_share']:.2%} of flake8's {cost['flake8_cpu']:.1f}s "
                f"(difference of the two flake8 runs: {cost['difference']:+.2f}s, {cost['difference_share']:+.1%}, "
                "which carries the run-to-run noise of two long runs).",
            ]
        lines += ["", "| budget | measured | |", "|---|---|---|"]
        for budget, value, verdict in budget_rows(corpus, rows, report["jobs"]):
            lines.append(f"| {budget} | {value} | {verdict} |")
        for note in corpus["notes"]:
            lines.append(f"\n¹ {note}" if "Fixit" in note else f"\n{note}")
        lines.append("")
    return "\n".join(lines)


def chart(report: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    corpora_rows = [(corpus["corpus"], derived(corpus)) for corpus in report["corpora"]]
    figure, axes = plt.subplots(1, len(corpora_rows), figsize=(6.5 * len(corpora_rows), 4.2), squeeze=False)
    for axis, (name, rows) in zip(axes[0], corpora_rows):
        rows = sorted(rows, key=lambda row: row["cpu_ratio"])
        labels = [row["tool"].replace(" (", "\n(") for row in rows]
        values = [row["cpu_ratio"] for row in rows]
        colors = ["#d1495b" if row["tool"].startswith("vllm-lint") else "#8d99ae" for row in rows]
        bars = axis.barh(labels, values, color=colors)
        axis.set_xscale("log")
        axis.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
        axis.set_xlabel("CPU time, x ast.parse of the same files (log scale)")
        axis.set_title(title(name), fontsize=9)
        for bar, value in zip(bars, values):
            axis.text(value * 1.08, bar.get_y() + bar.get_height() / 2, f"{value:.3g}x", va="center", fontsize=8)
        axis.set_xlim(min(values) / 2, max(values) * 4)
        axis.tick_params(axis="y", labelsize=8)
    figure.suptitle(f"vllm-lint benchmark, {report['date']}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", choices=sorted(corpora.CORPORA), help="default: all")
    parser.add_argument("--runs", type=int, default=3, help="measured runs per command (default 3)")
    parser.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2), help="N for the `check -jN` row")
    parser.add_argument("--no-fixit", dest="fixit", action="store_false", help="skip Fixit (slow)")
    parser.add_argument("--no-flake8", dest="flake8", action="store_false", help="skip the flake8 rows (slow)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for results.md, ratios.png, results.json")
    parser.add_argument("--from-json", type=Path, metavar="RESULTS_JSON", help="only rewrite the table and chart from earlier measurements")
    args = parser.parse_args(argv)
    if args.from_json:
        report = json.loads(args.from_json.read_text())
        return write_report(report, args.out)
    args.fixit_every = {"stdlib": 20, "vllm": 50}
    names = args.corpus or ["stdlib", "vllm", "framework", "harness"]
    report = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "versions": versions(),
        "runs": args.runs,
        "jobs": args.jobs,
        "corpora": [run_corpus(name, args) for name in names],
        "imports": check_imports(),
    }
    return write_report(report, args.out)


def write_report(report: dict, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(report, indent=1) + "\n")
    text = markdown(report)
    (out / "results.md").write_text(text)
    try:
        chart(report, out / "ratios.png")
    except ImportError:
        print("matplotlib not installed: no chart (pip install -e '.[bench]')", file=sys.stderr)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
