"""Server wrappers: project modules that start vLLM's OpenAI server with vLLM's parser."""

from __future__ import annotations

import textwrap

import pytest

from vllm_lint.launch.wrappers import WrapperFinder, classify
from vllm_lint.lint import lint_file
from vllm_lint.versions import Version

V033 = Version(0, 33)

SERVER = """
import uvloop
from vllm.entrypoints.openai.api_server import run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser, validate_parsed_serve_args
from vllm.utils.argparse_utils import FlexibleArgumentParser

if __name__ == "__main__":
    parser = make_arg_parser(FlexibleArgumentParser())
{body}
"""
PLAIN = "    args = parser.parse_args()\n    validate_parsed_serve_args(args)\n    uvloop.run(run_server(args))\n"


def project(tmp_path, files: dict[str, str]):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def wrapper_of(tmp_path, body: str, prelude: str = ""):
    root = project(tmp_path, {"src/pkg/__init__.py": "", "src/pkg/server.py": prelude + SERVER.format(body=body)})
    return WrapperFinder(str(root / "run.sh")).module("pkg.server")


def test_plain_wrapper_reads_flags_like_the_api_server(tmp_path):
    wrapper = wrapper_of(tmp_path, PLAIN)
    assert wrapper is not None
    assert wrapper.dialect.positional_model is False  # model_tag is parsed, and ignored
    assert wrapper.dialect.config == "parser" and not wrapper.dialect.overridden
    assert wrapper.environment({"X": "1"}, False) == ({"X": "1"}, False)


@pytest.mark.parametrize(
    "body",
    [
        "    args = parser.parse_args(namespace=defaults())\n    uvloop.run(run_server(args))\n",  # values from elsewhere
        "    args = parser.parse_args(['--model', 'm'])\n    uvloop.run(run_server(args))\n",  # its own command line
        "    args = parser.parse_args()\n    tweak(args)\n    uvloop.run(run_server(args))\n",  # handed to unknown code
        "    args = parser.parse_args()\n    uvloop.run(my_server(args))\n",  # not vLLM's runner
        "    args = parser.parse_args()\n",  # parses and stops
        "    sys.argv += ['--enforce-eager']\n    args = parser.parse_args()\n    uvloop.run(run_server(args))\n",
    ],
)
def test_not_a_wrapper_we_read(tmp_path, body):
    assert wrapper_of(tmp_path, body) is None


def test_assignments_after_parsing(tmp_path):
    body = (
        "    args = parser.parse_args()\n"
        "    if args.model_tag is not None:\n"
        "        args.model = args.model_tag\n"
        "    args.logprobs_mode = pick_mode()\n"
        "    logger.info('serving %s', args)\n"
        "    uvloop.run(run_server(args))\n"
    )
    wrapper = wrapper_of(tmp_path, body)
    assert wrapper.dialect.positional_model is True
    assert wrapper.dialect.overridden == {"logprobs_mode"}


@pytest.mark.parametrize(
    "prelude, env, expected, env_open",
    [
        ('import os\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n', {}, {"VLLM_USE_V2_MODEL_RUNNER": "0"}, False),
        ('import os\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n', {"VLLM_USE_V2_MODEL_RUNNER": "1"}, {"VLLM_USE_V2_MODEL_RUNNER": "1"}, False),
        ('import os\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n', {}, {"VLLM_USE_V2_MODEL_RUNNER": "1"}, False),
        ('import os\nif FLAG:\n    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"\n', {}, {}, True),
        ("import os\nos.environ.update(load())\n", {}, {}, True),
        ("from pkg import settings\n", {}, {}, True),  # a project module may write it on import
    ],
)
def test_environment_writes(tmp_path, prelude, env, expected, env_open):
    wrapper = wrapper_of(tmp_path, PLAIN, prelude)
    result, result_open = wrapper.environment(env, False)
    assert {k: str(v) for k, v in result.items()} == expected
    assert result_open is env_open


def test_lookup_stays_in_the_project(tmp_path):
    root = project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": SERVER.format(body=PLAIN),
            "pkg/app/__main__.py": SERVER.format(body=PLAIN),
            "venv/lib/python3.12/site-packages/other/server.py": SERVER.format(body=PLAIN),
            "vllm/__init__.py": "",
            "vllm/server.py": SERVER.format(body=PLAIN),
            "tools/run.sh": "",
        },
    )
    finder = WrapperFinder(str(root / "tools" / "run.sh"))
    assert finder.module("pkg.server") is not None
    assert finder.module("pkg.app") is not None  # python -m package runs its __main__
    assert finder.module("vllm.server") is None
    assert finder.module("other.server") is None
    assert finder.script("pkg/server.py") is not None  # relative to the project root
    assert finder.script("../pkg/server.py") is not None  # relative to the linted file
    assert finder.script("venv/lib/python3.12/site-packages/other/server.py") is None
    assert WrapperFinder("-").module("pkg.server") is None  # standard input: no project


def test_unreadable_modules_are_not_wrappers(tmp_path):
    root = project(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": "from vllm import make_arg_parser\nif __name__ == '__main__':\n  (\n"})
    assert WrapperFinder(str(root / "x.sh")).module("pkg.server") is None
    (root / "run.sh").write_text("python -m pkg.server --return-sampling-mask\n")
    result = lint_file(str(root / "run.sh"), lambda _p: (V033, "test"))
    assert result.error is None and not result.findings


def test_each_module_is_read_once_per_version_of_the_file(tmp_path, monkeypatch):
    import vllm_lint.launch.wrappers as wrappers

    root = project(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": SERVER.format(body=PLAIN)})
    reads = []
    original = wrappers._classify
    monkeypatch.setattr(wrappers, "_classify", lambda *a: reads.append(a) or original(*a))
    path = str(root / "pkg" / "server.py")
    assert classify(path, str(root)) is not None
    assert classify(path, str(root)) is not None
    assert len(reads) == 1


def test_prefilter_lets_wrapper_launches_through():
    from vllm_lint.commandline import may_have_findings

    assert may_have_findings(b"python -m pkg.server --return-sampling-mask\n", "shell")
    assert not may_have_findings(b"python -m pkg.server --port 8000\n", "shell")
    assert not may_have_findings(b"python train.py --config replay.yaml\n", "shell")
