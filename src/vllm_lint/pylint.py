"""pylint plugin entry point: ``load-plugins=vllm_lint.pylint``."""

from vllm_lint.integrations.pylint_checker import VllmLintChecker, register

__all__ = ["VllmLintChecker", "register"]
