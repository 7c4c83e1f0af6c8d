"""The precheck (``python/precheck.py``): what it lets through before and after parsing.

Its trigger set is derived from the analyzer's own tables, and these tests check that it
covers every shape the analyzer recognises: every vLLM class and engine function, imported
every way the analyzer resolves, every process-starting call, the class methods the analyzer
follows, and imports of project modules.  A shape added to those tables without the precheck
learning it fails here.  Every fixture of ``testdata/`` the analysis reports something for
passes the precheck (and its byte test); the modules it skips are look-alikes.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

import vllm_lint.python.symbols as symbols
from vllm_lint.lint import lint_python_bytes
from vllm_lint.python import precheck
from vllm_lint.python.analyzer import analyze_module
from vllm_lint.python.engines import EnginesMixin
from vllm_lint.python.project import ProjectModules
from vllm_lint.python.state import STD_MODULES
from vllm_lint.python.subprocesses import SHELL_TEXT_CALLS, SUBPROCESS_CALLS
from vllm_lint.sources import decode_python
from vllm_lint.versions import NEWEST_VERSION

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


def _could_find(source: str, path: str | None = None, project=None) -> bool:
    source = textwrap.dedent(source)
    tree = ast.parse(source)
    with_text = precheck.could_find(tree, source, path, project)
    # Without the text every statement is looked at, and a type test may be rebound: it lets
    # through at least what it lets through with the text.
    assert precheck.could_find(tree, None, path, project) or not with_text
    if with_text:  # the bytes of a module it lets through pass the byte test too
        assert precheck.byte_triggers(source.encode(), path, project)
    return with_text


def _reports(source: str) -> bool:
    analysis = analyze_module(ast.parse(textwrap.dedent(source)))
    return bool(analysis.engines or analysis.requests or analysis.framework_launches)


# ------------------------------------------------------- derived from the tables


def test_trigger_names_are_the_analyzers_tables():
    assert precheck.ENGINE_NAMES == symbols.KNOWN_CLASSES | symbols.ENGINE_ARGS_FUNCTIONS
    for call in SUBPROCESS_CALLS:
        module, _, name = call.rpartition(".")
        assert module in STD_MODULES, call  # ``import module`` binds what the analyzer resolves
        assert name in precheck.PROCESS_ATTRIBUTES[module], call


def test_class_methods_cover_what_the_analyzer_follows():
    """Every method name ``_class_method`` compares against is one the precheck treats as a use."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(EnginesMixin._class_method)))
    compared = {
        comparator.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "name"
        for comparator in node.comparators
        if isinstance(comparator, ast.Constant)
    }
    assert compared and compared <= precheck.CLASS_METHODS


CALL_SHAPES = [
    "from vllm import {name}\n{name}('m')\n",
    "from vllm import {name} as Alias\nAlias('m')\n",
    "from vllm.entrypoints import {name}\nx = {name}\nx('m')\n",
    "import vllm\nvllm.{name}('m')\n",
    "import vllm.entrypoints as entry\nentry.{name}('m')\n",
    "from vllm import entrypoints\nentrypoints.{name}('m')\n",
    "from vllm import {name}\ndef build(cls={name}):\n    return cls('m')\n",
    "from vllm import {name}\nimport functools\nmake = functools.partial({name}, 'm')\n",
    "from vllm import {name}\n@decorate({name})\ndef f():\n    pass\n",
    "from vllm import {name}\nclass Engine({name}):\n    pass\n",
    "from vllm import {name}\nisinstance(x, ({name}, int)) or {name}('m')\n",
    "def isinstance(a, b):\n    return b()\nfrom vllm import {name}\nisinstance(x, {name})\n",
    "from vllm import {name}\nengine = {name}.from_engine_args(args)\n",
    "from vllm import {name}\nengine = {name}.from_vllm_config(config)\n",
    "from vllm import {name}\nargs = {name}.from_cli_args(ns)\n",
    "if TYPE_CHECKING:\n    from vllm import {name}\n\ndef f():\n    return [{name}][0]('m')\n",
    "from vllm import {name}\r\nx = 1\r\n{name}('m')\r\n",
    "from vllm import {name}\rx = 1\r{name}('m')\r",
]


@pytest.mark.parametrize("shape", CALL_SHAPES)
@pytest.mark.parametrize("name", sorted(precheck.ENGINE_NAMES))
def test_every_vllm_name_in_every_shape_is_let_through(name, shape):
    assert _could_find(shape.format(name=name))


def test_star_import_binds_every_class():
    for name in sorted(symbols.KNOWN_CLASSES):
        assert _could_find(f"from vllm import *\n{name}('m')\n")


PROCESS_SHAPES = [
    "import {module}\n{module}.{name}(argv)\n",
    "import {module} as alias\nalias.{name}(argv)\n",
    "from {module} import {name}\n{name}(argv)\n",
    "from {module} import {name} as start\nstart(argv)\n",
    "import {module}\nrun = {module}.{name}\nrun(argv)\n",
]


@pytest.mark.parametrize("shape", PROCESS_SHAPES)
@pytest.mark.parametrize("call", sorted(SUBPROCESS_CALLS))
def test_every_process_call_is_let_through(call, shape):
    module, _, name = call.rpartition(".")
    assert _could_find(shape.format(module=module, name=name))


def _launch(call: str) -> str:
    """A module that starts ``vllm serve`` with a replay flag through ``call``."""
    module, _, name = call.rpartition(".")
    words = '"vllm", "serve", "m", "--return-sampling-mask"'
    if name in ("create_subprocess_exec",) or name.startswith("execl"):
        arguments = f'"vllm", {words}' if name.startswith("execl") else words
        if name.endswith("e") and name.startswith("execl"):
            arguments += ", {}"
    elif call in SHELL_TEXT_CALLS:
        arguments = '"vllm serve m --return-sampling-mask"'
    elif name.startswith("execv"):
        arguments = f'"vllm", [{words}]' + (", {}" if name.endswith("e") else "")
    else:
        arguments = f"[{words}]"
    return f"import {module}\n{module}.{name}({arguments})\n"


@pytest.mark.parametrize("call", sorted(SUBPROCESS_CALLS))
def test_a_launch_the_analyzer_reports_is_let_through(call):
    source = _launch(call)
    assert _reports(source), source
    assert _could_find(source), source


COMMAND_HOOK = """
    import bentoml

    @bentoml.service(resources={"gpu": 1})
    class Server:
        def __command__(self):
            return ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask"]
"""

COMMAND_HOOK_FROM_IMPORT = """
    from bentoml import service

    @service()
    class Server:
        def __command__(self) -> list[str]:
            command = ["vllm", "serve", "Qwen/Qwen3-8B"]
            command.append("--return-sampling-mask")
            return command
"""

COMMAND_HOOK_ELSEWHERE = """
    class RestartCommand:
        def __command__(self):
            return ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask"]
"""


@pytest.mark.parametrize("source", [COMMAND_HOOK, COMMAND_HOOK_FROM_IMPORT])
def test_a_command_hook_the_analyzer_reports_is_let_through(source):
    """BentoML runs the argv a service's ``__command__`` returns: a launch with no process call."""
    assert _reports(source)
    assert _could_find(source)


def test_a_command_hook_without_its_framework_is_skipped():
    assert not _reports(COMMAND_HOOK_ELSEWHERE)
    assert not _could_find(COMMAND_HOOK_ELSEWHERE)


# ------------------------------------------------------------- what it skips


INERT = {
    "annotations": """
        from vllm import SamplingParams
        from vllm.config import VllmConfig

        def run(config: VllmConfig, params: "SamplingParams") -> VllmConfig:
            value: SamplingParams = make()
            return config
    """,
    "type tests": """
        from vllm import SamplingParams, LLM
        import vllm

        def check(x):
            return isinstance(x, (SamplingParams, vllm.LLM)) or issubclass(type(x), LLM)
    """,
    "class attributes": """
        from vllm import SamplingParams
        from vllm.engine.arg_utils import EngineArgs

        warmup = SamplingParams.for_sampler_warmup()
        parser = EngineArgs.add_cli_args(parser)
        default = EngineArgs.model
    """,
    "vllm modules only": """
        import vllm.envs as envs
        from vllm.logger import init_logger

        logger = init_logger(__name__)
        if envs.VLLM_USE_V2_MODEL_RUNNER:
            logger.info("LLM(model) and EngineArgs( in prose")
    """,
    "os without exec": """
        import os
        import asyncio

        os.environ["X"] = "1"
        asyncio.run(main())
    """,
    "look-alike names": """
        from transformers import LLM
        from mylib import EngineArgs

        engine = LLM("m", return_sampling_mask=True)
        args = EngineArgs(model="m")
    """,
}


@pytest.mark.parametrize("name", sorted(INERT))
def test_modules_that_reach_no_engine_are_skipped(name):
    source = INERT[name]
    assert not _reports(source)
    assert not _could_find(source)


def test_rebinding_a_type_test_makes_it_a_use():
    for binding in ("isinstance = check\n", "def isinstance(a, b):\n    return b()\n", "from helpers import isinstance\n"):
        source = binding + "from vllm import LLM\nisinstance(x, LLM)\n"
        assert _could_find(source), source


# ------------------------------------------------------------------ projects


def test_project_imports_are_let_through(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text("from vllm import LLM\ndef build(**kw):\n    return LLM('m', **kw)\n")
    (package / "settings.py").write_text("KW = {'return_sampling_mask': True}\n")
    main = package / "main.py"
    project = ProjectModules()
    for text in (
        "from .engine import build\nbuild(return_sampling_mask=True)\n",
        "from . import engine\nengine.build(return_sampling_mask=True)\n",
        "from app.engine import build\nbuild(return_sampling_mask=True)\n",
        "import app.engine\napp.engine.build(return_sampling_mask=True)\n",
        "if True:\n    from app.settings import KW\n",
    ):
        assert _could_find(text, str(main), project), text
    # Without a path (stdin) nothing is followed: the same import is unknown code.
    assert not _could_find("from app.engine import build\nbuild(return_sampling_mask=True)\n")
    # Imports of installed packages are not the project's.
    assert not _could_find("import numpy\nfrom json import loads\n", str(main), project)


def test_project_import_through_lint(tmp_path):
    """The file builds nothing itself and mentions no vLLM name: a helper of the project does."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "engine.py").write_text("from vllm import LLM\ndef build(**kw):\n    return LLM('m', **kw)\n")
    main = tmp_path / "main.py"
    data = b"# uses vllm\nfrom engine import build\nllm = build(return_sampling_mask=True)\n"
    main.write_bytes(data)
    result = lint_python_bytes(str(main), data, lambda path: (NEWEST_VERSION, ""))
    assert [finding.code for finding in result.findings] == ["VLM105"]


# ------------------------------------------------------------------ fixtures


def _fixture_files() -> list[Path]:
    return sorted(path for path in TESTDATA.rglob("*.py") if path.is_file())


def test_every_fixture_with_a_finding_passes_the_precheck():
    """The analysis of each fixture (the prefilter bypassed) reports something only where the
    precheck, and its test of the bytes, let the file through."""
    project = ProjectModules()
    let_through = skipped = 0
    for path in _fixture_files():
        data = path.read_bytes()
        try:
            source = decode_python(data)
            tree = ast.parse(source)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        with project.analysing(str(path)):
            analysis = analyze_module(tree, str(path), project)
        found = bool(analysis.engines or analysis.requests or analysis.framework_launches)
        could = precheck.could_find(tree, source, str(path), project)
        if found:
            assert could, path
        if could:
            assert precheck.byte_triggers(data, str(path), project), path
            let_through += 1
        else:
            skipped += 1
    assert let_through > 50 and skipped > 0


def test_syntax_errors_are_reported_for_files_that_may_hold_a_finding(tmp_path):
    """A file the byte test lets through is parsed, and its syntax error reported; a file
    whose bytes name nothing the analysis starts from is skipped unparsed, like a file without
    vLLM (``docs/usage.md``)."""
    version_for = lambda path: (NEWEST_VERSION, "")  # noqa: E731
    named = tmp_path / "named.py"
    data = b"from vllm import LLM\nKWARGS = {'return_sampling_mask': True\n"
    assert "syntax error" in lint_python_bytes(str(named), data, version_for).error.reason
    settings_only = tmp_path / "settings_only.py"
    data = b"# vllm settings\nKWARGS = {'return_sampling_mask': True\n"
    result = lint_python_bytes(str(settings_only), data, version_for)
    assert result.error is None and result.findings == []


def test_binary_and_oversized_files_keep_their_diagnostic(tmp_path):
    """Bytes no front end reads are reported whatever names they hold: the byte test does not
    drop a file the first prefilter lets through."""
    from vllm_lint.sources import MAX_ANALYSED_BYTES

    version_for = lambda path: (NEWEST_VERSION, "")  # noqa: E731
    settings = b"# vllm settings\nKWARGS = {'return_sampling_mask': True}\n"
    binary = lint_python_bytes(str(tmp_path / "blob.py"), settings + b"\0\x01", version_for)
    assert "binary file" in binary.error.reason
    padding = b"# padding ........................................................\n"
    big = settings + padding * (MAX_ANALYSED_BYTES // len(padding) + 1)
    assert "too large to analyse" in lint_python_bytes(str(tmp_path / "big.py"), big, version_for).error.reason
