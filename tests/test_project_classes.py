"""Engines and requests a project base class of another module keeps on ``self``, seen by its
subclasses' methods; and the prefilter that lets such a subclass module through."""

from __future__ import annotations

import ast
import json

from fixtures import TESTDATA
from vllm_lint.python import analyze_tree, needs_analysis
from vllm_lint.versions import NEWEST_VERSION

ROLLOUT = TESTDATA / "python" / "rollout_subclasses" / "mypkg" / "rollout"


def _codes(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted((f.span.line, f.code) for f in analyze_tree(tree, NEWEST_VERSION, str(path)))


def test_a_subclass_module_that_names_neither_vllm_nor_a_setting_is_analysed():
    data = (ROLLOUT / "vllm_rollout.py").read_bytes()
    assert b"vllm" not in data and b"LLM(" not in data and b"SamplingParams" not in data
    assert needs_analysis(data, str(ROLLOUT / "vllm_rollout.py"))


def _empty_package(tmp_path):
    """A project (``setup.cfg``) with an empty package ``pkg``: its folder."""
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = pkg\n")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    return package


def test_the_prefilter_needs_a_project_module_with_a_replay_engine(tmp_path):
    package = _empty_package(tmp_path)
    (package / "plain.py").write_text(
        "from vllm import LLM\n\nclass Base:\n    def __init__(self, m):\n        self.llm = LLM(m)\n"
    )
    subclass = (
        "from {module} import Base\n\n"
        "class Rollout(Base):\n"
        "    def run(self, prompts):\n"
        "        return self.llm.generate(prompts, self.params)\n"
    )
    for module, expected in (("pkg.plain", False), ("somelib.base", False)):
        source = subclass.format(module=module).encode()
        assert needs_analysis(source, str(package / "rollout.py")) is expected, module
    # Without a request sent through ``self``, or without a class, nothing needs the base.
    assert not needs_analysis(b"from mypkg.rollout.base import BaseRollout\n", str(ROLLOUT / "x.py"))


def test_the_request_is_reported_where_it_is_sent_and_says_where_its_params_are_built():
    tree = ast.parse((ROLLOUT / "vllm_rollout.py").read_text(encoding="utf-8"))
    findings = analyze_tree(tree, NEWEST_VERSION, str(ROLLOUT / "vllm_rollout.py"))
    assert findings and all(f.code == "VLM202" for f in findings)
    assert all(f.message.endswith("(the SamplingParams is built in base.py, line 17)") for f in findings)


def test_a_base_class_method_does_not_see_what_a_subclass_binds():
    # BaseRollout.validate sends ``self.val_params``, which only EvalRollout binds (greedy).
    assert _codes(ROLLOUT / "base.py") == []


def _project_with_replay_base(tmp_path, parameters="m"):
    """A project package ``pkg`` whose ``base.Base.__init__`` builds a replay engine on self."""
    package = _empty_package(tmp_path)
    (package / "base.py").write_text(
        "from vllm import LLM\n\n"
        "class Base:\n"
        f"    def __init__(self, {parameters}):\n"
        "        self.llm = LLM(m, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    return package


def test_an_init_that_does_not_call_the_base_one_drops_its_bindings(tmp_path):
    package = _project_with_replay_base(tmp_path)
    body = (
        "from vllm import SamplingParams\n"
        "from pkg.base import Base\n\n"
        "class Rollout(Base):\n"
        "    def __init__(self, m):\n"
        "        {init}\n"
        "        self.m = m\n\n"
        "    def run(self, prompts):\n"
        "        return self.llm.generate(prompts, SamplingParams(temperature=0))\n"
    )
    for init, expected in (
        ("super().__init__(m)", [(10, "VLM201")]),
        ("super(Rollout, self).__init__(m)", [(10, "VLM201")]),
        ("Base.__init__(self, m)", [(10, "VLM201")]),
        ("self.ready = False", []),
        ("self.llm.sleep()", []),
    ):
        module = package / "rollout.py"
        module.write_text(body.format(init=init))
        from vllm_lint.python import forget_project_modules

        forget_project_modules()
        assert _codes(module) == expected, init


def test_explain_shows_the_base_class_engine_in_its_file_with_the_requests_sent_here(capsys, monkeypatch):
    import json

    from vllm_lint.cli import main

    monkeypatch.chdir(ROLLOUT)
    assert main(["explain", "vllm_rollout.py", "--output-format", "json"]) == 0
    (engine,) = json.loads(capsys.readouterr().out)["engines"]
    assert (engine["path"], engine["line"], engine["findings"]) == ("base.py", 9, [])
    assert engine["settings"]["return_sampling_mask"]["origin"]["path"] == "base.py"
    assert [(r["path"], r["line"], r["findings"]) for r in engine["requests"]] == [
        ("vllm_rollout.py", 8, ["VLM202"]),
        ("vllm_rollout.py", 21, ["VLM202"]),
        ("vllm_rollout.py", 34, ["VLM202"]),
    ]
    assert engine["requests"][0]["settings"]["temperature"]["origin"]["path"] == "base.py"
    # A line of this file: only the requests written on it, never the construction's lines elsewhere.
    assert main(["explain", "vllm_rollout.py:21", "--output-format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["engines"]) == 1
    main(["explain", "vllm_rollout.py:9", "--output-format", "json"])
    assert json.loads(capsys.readouterr().out)["engines"] == []


def test_a_dataclass_subclass_runs_its_generated_init_not_the_bases(tmp_path):
    package = _project_with_replay_base(tmp_path, "m='Qwen/Qwen3-8B'")
    body = (
        "from dataclasses import dataclass\n"
        "from vllm import SamplingParams\n"
        "from pkg.base import Base\n\n"
        "{decorator}\n"
        "class Rollout(Base):\n"
        "    model: str = 'Qwen/Qwen3-8B'\n"
        "{post_init}\n"
        "    def run(self, prompts):\n"
        "        return self.llm.generate(prompts, SamplingParams(temperature=0))\n"
    )
    post = "    def __post_init__(self):\n        super().__init__(self.model)\n"
    for decorator, post_init, expected in (
        ("@dataclass", "", []),
        ("@dataclass(frozen=True)", "", []),
        ("@dataclass", post, [(12, "VLM201")]),
        ("@dataclass(init=False)", "", [(10, "VLM201")]),
        ("", "", [(10, "VLM201")]),
    ):
        module = package / "rollout.py"
        module.write_text(body.format(decorator=decorator, post_init=post_init))
        from vllm_lint.python import forget_project_modules

        forget_project_modules()
        assert _codes(module) == expected, (decorator, post_init)


def test_constructions_run_the_branches_their_literal_arguments_take(capsys, monkeypatch):
    """A scalar the constructor stores on self decides the methods' branches for that object: the
    single-replica construction builds its one engine and starts no Ray replica, the refused one
    builds nothing."""
    from vllm_lint.cli import main

    monkeypatch.chdir(TESTDATA.parent)
    harness = "testdata/python/callers/inference/evaluation/harness.py"
    main(["explain", "testdata/python/callers/inference/evaluation/test_harness.py", "--output-format", "json"])
    engines = json.loads(capsys.readouterr().out)["engines"]
    built = sorted((engine["line"], engine["built_at"]["line"]) for engine in engines if engine["built_at"]["path"] == harness)
    assert (8, 25) in built
    assert not [line for line, at in built if line in (8, 13) and at != 25]
