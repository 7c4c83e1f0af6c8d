"""vLLM's own tests as a second oracle for the argument checks (VLM301-VLM406).

    python tests/oracle/vllm_tests_oracle.py [--release 0.34] [--source DIR] [--record] [--show N]

The argument sets in ``vllm_test_cases.json`` were taken from vLLM's own tests (each with
the test file, the test and the commit it was read at).  Unlike ``startup_oracle.py``, whose
configurations are drawn from the checks' own data, these come from vLLM's authors, so a
rejection they show and vllm-lint misses is a blind spot of the generators.  Each case is
judged by the real engine of the release, in the same environment as the start-up oracle
(``tox -e startup-oracle`` builds it; the same patches, a tiny local Llama as the model):

* form ``cli``: the arguments after the model of ``vllm serve``: vLLM's own serve parser
  (``ServeSubcommand().subparser_init``), ``validate_parsed_serve_args``, then
  ``AsyncEngineArgs.from_cli_args(...).create_engine_config()``;
* form ``python``: the keyword arguments of ``LLM(model, ...)``: ``LLM``'s own checks, then
  ``EngineArgs(model, ...).create_engine_config()`` (as the start-up oracle does).

vllm-lint lints the same launch written as a file (``vllm serve tiny-llama ...`` in a shell
script, ``LLM("tiny-llama", ...)`` in a Python file).  A rejection counts as decidable from
the arguments under the start-up oracle's rule (its message names neither the model nor the
hardware).  Reported: rejected, decidable, flagged (recall) and the findings on accepted
cases (false positives).  ``--record`` writes each verdict into the case file under the
release, which ``tests/test_vllm_tests_cases.py`` replays in the default test run
without vLLM.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import startup_oracle  # noqa: E402  (the environment's patches, the tiny Llama, the verdict on LLM)

CASES = HERE / "vllm_test_cases.json"
MODEL_NAME = "tiny-llama"


def load_cases(path: Path = CASES) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def python_kwargs(text: str) -> dict:
    """The keyword arguments a case writes (``float('nan')`` and the like evaluate)."""
    return eval(f"dict({text})", {"__builtins__": {"dict": dict, "float": float}})  # noqa: S307 - the committed cases


def cli_verdict(model: str, args: list[str]) -> tuple[str, str]:
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.entrypoints.cli.serve import ServeSubcommand
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    validate_parsed_serve_args = None
    for module in ("common", "launchers", "openai"):  # where it lives moved between releases
        try:
            validate_parsed_serve_args = importlib.import_module(f"vllm.entrypoints.{module}.cli_args").validate_parsed_serve_args
            break
        except ImportError:
            continue

    subparsers = FlexibleArgumentParser(prog="vllm").add_subparsers(dest="subparser")
    parser = ServeSubcommand().subparser_init(subparsers)
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            namespace = parser.parse_args([model, *args])
    except SystemExit:
        lines = [line for line in errors.getvalue().splitlines() if line.strip()]
        return "rejected", lines[-1] if lines else "argparse error"
    except Exception as error:  # noqa: BLE001 - a type= that raises outside argparse's handling
        return "rejected", f"{type(error).__name__}: {error}"
    if namespace.model_tag is not None:
        namespace.model = namespace.model_tag
    try:
        validate_parsed_serve_args(namespace)
        AsyncEngineArgs.from_cli_args(namespace).create_engine_config()
    except Exception as error:  # noqa: BLE001
        return "rejected", f"{type(error).__name__}: {error}"
    return "ok", ""


def launch_source(case: dict) -> tuple[str, bytes]:
    """The launch vllm-lint reads: its file name and text."""
    if case["form"] == "cli":
        return "launch.sh", f"vllm serve {MODEL_NAME} {shlex.join(case['arguments'])}\n".encode()
    return "launch.py", f'from vllm import LLM\n\nllm = LLM("{MODEL_NAME}", {case["arguments"]})\n'.encode()


def lint_case(case: dict, release: str) -> list:
    from vllm_lint.lint import file_kind, lint_bytes
    from vllm_lint.versions import Version

    name, data = launch_source(case)
    return lint_bytes(name, data, lambda _p: (Version.parse(release), "oracle"), file_kind(name, data)).findings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", default="0.34")
    parser.add_argument("--source", default=None, help="a folder holding that release's vllm package")
    parser.add_argument("--record", action="store_true", help="write the verdicts into the case file")
    parser.add_argument("--show", type=int, default=100)
    args = parser.parse_args(argv)
    startup_oracle.prepare_vllm(args.source)
    import vllm

    if ".".join(vllm.__version__.split(".")[:2]) != args.release:
        print(f"vLLM {vllm.__version__} is imported, not {args.release}: pass --source", file=sys.stderr)
        return 2
    data = load_cases()
    model = str(startup_oracle.tiny_llama(Path(tempfile.mkdtemp(prefix="vllm-lint-tests-oracle-")) / MODEL_NAME))
    rejected = decidable = flagged = 0
    false_positives, missed = [], []
    for case in data["cases"]:
        if case["form"] == "cli":
            verdict, message = cli_verdict(model, case["arguments"])
        else:
            verdict, message = startup_oracle.vllm_verdict(model, python_kwargs(case["arguments"]))
        headline = startup_oracle._headline(message)
        is_decidable = verdict == "rejected" and startup_oracle.decidable(message)
        if args.record:
            entry = {"verdict": "rejected" if verdict == "rejected" else "accepted"}
            if verdict == "rejected":
                entry.update(message=headline, decidable=is_decidable)
            case.setdefault("verdicts", {})[args.release] = entry
        findings = lint_case(case, args.release)
        if verdict == "ok":
            if findings:
                false_positives.append((case, [f"{f.code} {f.message}" for f in findings]))
            continue
        rejected += 1
        if not is_decidable:
            continue
        decidable += 1
        if findings:
            flagged += 1
        else:
            missed.append((case, headline))
    if args.record:
        CASES.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    total = len(data["cases"])
    print(f"vLLM {vllm.__version__}: {total} argument sets from vLLM's tests, {rejected} rejected, {decidable} decidable from the arguments")
    recall = flagged / decidable if decidable else 1.0
    print(f"vllm-lint flags {flagged} of {decidable} ({recall:.1%}); false positives on accepted ones: {len(false_positives)}")
    for case, errors in false_positives[: args.show]:
        print(f"FALSE POSITIVE #{case['id']} {case['source']['test']}: {case['arguments']}\n    {errors}")
    for case, headline in missed[: args.show]:
        print(f"MISSED #{case['id']} {case['source']['test']}: {case['arguments']}\n    {headline}")
    return 1 if false_positives else 0


if __name__ == "__main__":
    sys.exit(main())
