"""Differential test of the argument schema (VLM301/303/304) against a real vLLM's own parser.

    tox -e vllm-parser-oracle                                   # the installed vllm release
    tox -e vllm-parser-oracle -- 0.33.0 0.32.0                  # other releases' Python code, from their wheels
    python tests/oracle/real_parser_oracle.py --python /path/to/venv/bin/python 0.34.0

Unlike ``schema_oracle.py``, which reads the wheel's source a second way, this oracle
runs vLLM: ``real_parser_worker.py`` imports the release (patches listed in
``real_vllm.py``: compiled op libraries stubbed, the platform set to CUDA; none changes
a validation rule), builds ``vllm serve``'s parser with ``make_arg_parser(FlexibleArgumentParser())``,
generates argument lists (every option with valid and invalid values, choices, numbers at
and past the bounds, JSON values with unknown keys, every option string of other releases,
``--enable-x``/``--disable-x`` inverses, near misses, ``-O`` spellings) and records whether
vLLM rejects each one: at parse time, or when the config field the value is given to
validates it at start-up.

Values are of the option's own type: a word given to an int option, or an object to a
string field, is a type error, which the schema rules do not judge; an option with a custom
argparse action (``--lora-modules name=path``) gets no values.  JSON objects go to options
that parse JSON and whose field takes an object with keys (a config: its unknown keys).

Each list is then written as ``vllm serve my-model ARGS`` and linted for that release;
a finding of VLM301/VLM303/VLM304 is the linter's "reject".  Reported per release:
agreement (target: at least 99 %), false positives (a finding on a list vLLM accepts:
must be 0) and misses.  ``--show N`` prints disagreements.

A release other than the installed one is imported from its wheel's Python files
(unpacked to a cache folder, ``VLLM_REAL_SOURCE``), with the installed dependencies;
a release whose code does not import with them is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from vllm_schema import SCHEMA, find_wheel  # noqa: E402

from vllm_lint.lint import lint_file  # noqa: E402
from vllm_lint.versions import Version  # noqa: E402

RULES = {"VLM301", "VLM303", "VLM304"}
WORKER = Path(__file__).resolve().parent / "real_parser_worker.py"


def installed_release(python: str) -> str | None:
    probe = "import importlib.metadata as m; print(m.version('vllm'))"
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    return done.stdout.strip() or None


def unpacked(version: str) -> Path:
    """The release's Python files, unpacked once from its wheel."""
    cache = Path(os.environ.get("VLLM_LINT_CACHE", Path.home() / ".cache" / "vllm-lint")) / "sources" / version
    if not (cache / "vllm" / "__init__.py").exists():
        with zipfile.ZipFile(find_wheel(version)) as archive:
            for name in archive.namelist():
                if name.startswith("vllm/") and name.endswith((".py", ".json", ".jinja", ".txt")):
                    archive.extract(name, cache)
    return cache


def real_verdicts(python: str, version: str, installed: str | None) -> dict:
    env = dict(os.environ)
    if version != installed:
        env["VLLM_REAL_SOURCE"] = str(unpacked(version))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "verdicts.json"
        done = subprocess.run([python, str(WORKER), str(SCHEMA), str(out)], env=env, capture_output=True, text=True)
        if done.returncode != 0 or not out.exists():
            tail = [line for line in done.stderr.splitlines() if line.strip()][-3:]
            raise RuntimeError("vLLM %s does not import here: %s" % (version, " | ".join(tail)))
        return json.loads(out.read_text(encoding="utf-8"))


def linter_verdicts(version: str, cases: list[dict]) -> list[list[str]]:
    """The schema findings on each case, as ``vllm serve my-model ARGS`` on a line of its own."""
    release = Version(*(int(part) for part in version.split(".")[:2]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "serve.sh"
        lines = ["#!/bin/sh"] + ["vllm serve my-model " + shlex.join(case["args"]) for case in cases]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        result = lint_file(str(path), lambda _path: (release, "oracle"))
    if result.error is not None:
        raise RuntimeError(result.error)
    found: list[list[str]] = [[] for _ in cases]
    for finding in result.findings:
        index = finding.span.line - 2
        if finding.code in RULES and 0 <= index < len(cases):
            found[index].append(f"{finding.code} {finding.message}")
    return found


def compare(version: str, data: dict, show: int) -> tuple[int, int, int, int]:
    cases = data["cases"]
    found = linter_verdicts(version, cases)
    false_positives, misses = [], []
    for case, findings in zip(cases, found):
        rejected = case["verdict"] == "reject"
        if findings and not rejected:
            false_positives.append((case, findings))
        elif rejected and not findings:
            misses.append((case, findings))
    total = len(cases)
    agree = total - len(false_positives) - len(misses)
    print(
        f"vLLM {data['vllm']}: {total} argument lists, {sum(c['verdict'] == 'reject' for c in cases)} rejected by vLLM; "
        f"agreement {agree}/{total} = {100.0 * agree / total:.2f} %, false positives {len(false_positives)}, misses {len(misses)}"
    )
    for label, items in (("false positive", false_positives), ("miss", misses)):
        for case, findings in items[:show]:
            print(f"  {label}: {shlex.join(case['args'])}  vLLM: {case['verdict']} {case['why'][:150]}  linter: {findings[:1]}")
    return total, agree, len(false_positives), len(misses)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", help="releases (default: the installed one)")
    parser.add_argument("--python", default=os.environ.get("VLLM_REAL_PYTHON", sys.executable), help="an interpreter that imports vllm")
    parser.add_argument("--show", type=int, default=int(os.environ.get("VLLM_ORACLE_SHOW", "0")), help="disagreements to print per kind")
    parser.add_argument("--min-agreement", type=float, default=99.0)
    parser.add_argument("--keep", metavar="DIR", help="save vLLM's verdicts there and reuse them (the linter side is rerun)")
    args = parser.parse_args(argv)
    installed = installed_release(args.python)
    versions = args.versions or ([installed] if installed else [])
    if not versions:
        print("no vllm installed for " + args.python, file=sys.stderr)
        return 2
    status = 0
    for version in versions:
        kept = Path(args.keep) / f"{version}.json" if args.keep else None
        try:
            if kept is not None and kept.exists():
                data = json.loads(kept.read_text(encoding="utf-8"))
            else:
                data = real_verdicts(args.python, version, installed)
                if kept is not None:
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    kept.write_text(json.dumps(data), encoding="utf-8")
        except RuntimeError as error:
            print(error)
            status = 1
            continue
        total, agree, false_positives, _misses = compare(version, data, args.show)
        if false_positives or 100.0 * agree / total < args.min_agreement:
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
