"""pytest parametrisation read as a sweep: each fixture or test run is analysed with its values."""

from __future__ import annotations

import ast
import textwrap

from vllm_lint.python import analyze_tree
from vllm_lint.python.parametrised import MAX_PARAMETRISED_ARMS, parametrisations
from vllm_lint.versions import NEWEST_VERSION


def _codes(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(textwrap.dedent(source))
    return sorted((f.span.line, f.code) for f in analyze_tree(tree, NEWEST_VERSION))


def _function(source: str) -> ast.AST:
    return ast.parse(textwrap.dedent(source)).body[-1]


def test_a_fixture_binds_request_param_and_a_test_its_named_arguments():
    fixture = _function(
        """
        @pytest.fixture(scope="module", params=CONFIGS)
        def server(request):
            return request.param
        """
    )
    (found,) = parametrisations(fixture)
    assert found.names is None and ast.unparse(found.values) == "CONFIGS"
    test = _function(
        """
        @pytest.mark.parametrize("tp", [1, 2])
        @pytest.mark.parametrize(["mode", "eager"], [("a", True)])
        def test_x(tp, mode, eager):
            run(tp, mode, eager)
        """
    )
    assert [p.names for p in parametrisations(test)] == [("tp",), ("mode", "eager")]
    unread = _function(
        """
        @pytest.mark.parametrize("tp", [1, 2])
        def test_x(tp):
            run()
        """
    )
    assert parametrisations(unread) == []  # the same analysis twice


def test_what_pytest_hands_elsewhere_is_not_read():
    indirect = _function(
        """
        @pytest.mark.parametrize("server", ["a"], indirect=True)
        def test_x(server): ...
        """
    )
    unknown_names = _function(
        """
        @pytest.mark.parametrize(NAMES, [1])
        def test_x(tp): ...
        """
    )
    computed = _function(
        """
        @pytest.mark.parametrize("mode", modes_from_environment())
        def test_x(mode): ...
        """
    )
    no_request = _function(
        """
        @pytest.fixture(params=[1, 2])
        def server(): ...
        """
    )
    assert parametrisations(indirect) == parametrisations(unknown_names) == parametrisations(computed) == []
    assert parametrisations(no_request) == []


def test_each_value_is_its_own_engine():
    source = """
        import pytest
        from vllm import LLM

        @pytest.mark.parametrize("mode", ["processed_logprobs", "raw_logprobs"])
        def test_replay(mode):
            LLM(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=mode)
        """
    assert _codes(source) == [(7, "VLM105")]
    assert _codes(source.replace('"raw_logprobs"', '"processed_logprobs"')) == []


def test_more_arms_than_the_cap_leave_the_values_unknown():
    modes = ", ".join(['"processed_logprobs"'] * MAX_PARAMETRISED_ARMS + ['"raw_logprobs"'])
    source = f"""
        import pytest
        from vllm import LLM

        @pytest.fixture(params=[{modes}])
        def llm(request):
            return LLM(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=request.param)
        """
    assert _codes(source) == []
    assert _codes(source.replace('"processed_logprobs", ', "", 1)) == [(7, "VLM105")]


def test_a_renderer_that_asks_for_model_dump_keeps_a_constant():
    source = """
        import subprocess

        def launch(config):
            cmd = ["vllm", "serve", "Qwen/Qwen3-8B"]
            for key, value in config.items():
                if hasattr(value, "model_dump"):
                    cmd.extend([f"--{key}", value.model_dump_json()])
                else:
                    cmd.extend([f"--{key}", str(value)])
            subprocess.run(cmd + ["--return-sampling-mask"])

        launch({"logprobs-mode": "raw_logprobs"})
        """
    assert _codes(source) == [(10, "VLM105")]
