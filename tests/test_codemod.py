"""The fixes as a libcst codemod: ``CodemodTest`` for each fix, and libcst's own runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from libcst.codemod import CodemodTest, parallel_exec_transform_with_prettyprint

from vllm_lint.fix.codemod import FixReplayConfig

FIXES = Path(__file__).resolve().parent.parent / "testdata" / "fixes"


class TestFixReplayConfig(CodemodTest):
    TRANSFORM = FixReplayConfig

    def test_vlm105_adds_logprobs_mode(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)
        """
        after = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        """
        self.assertCodemod(before, after)

    def test_vlm105_replaces_the_value_in_a_dict(self) -> None:
        before = """
            from vllm import LLM

            kwargs = {
                "model": "Qwen/Qwen3-4B",
                "return_sampling_mask": True,
                "logprobs_mode": "raw_logprobs",  # was the default
            }
            llm = LLM(**kwargs)
        """
        after = """
            from vllm import LLM

            kwargs = {
                "model": "Qwen/Qwen3-4B",
                "return_sampling_mask": True,
                "logprobs_mode": "processed_logprobs",  # was the default
            }
            llm = LLM(**kwargs)
        """
        self.assertCodemod(before, after)

    def test_vlm302_renames_safely_and_removes_unsafely(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-4B",
                enable_return_sampling_mask=True,
                return_sampling_mask_logprobs=True,
                logprobs_mode="processed_logprobs",
            )
        """
        renamed = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-4B",
                return_sampling_mask=True,
                return_sampling_mask_logprobs=True,
                logprobs_mode="processed_logprobs",
            )
        """
        removed = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-4B",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
        """
        self.assertCodemod(before, renamed)
        self.assertCodemod(before, removed, unsafe_fixes=True)

    def test_vlm104_removes_logits_processors(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-4B",
                return_sampling_mask=True,
                logits_processors=["my_pkg.processors:NoRepeat"],  # custom
                logprobs_mode="processed_logprobs",
            )
        """
        after = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-4B",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
        """
        self.assertCodemod(before, before)  # unsafe: not without the switch
        self.assertCodemod(before, after, unsafe_fixes=True)

    def test_vlm102_removes_adaptive_verification(self) -> None:
        before = """
            from vllm import LLM

            spec = {"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True}
            llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", speculative_config=spec)
        """
        after = """
            from vllm import LLM

            spec = {"method": "dspark", "num_speculative_tokens": 4}
            llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", speculative_config=spec)
        """
        self.assertCodemod(before, after, unsafe_fixes=True, target_version="0.32")

    def test_vlm102_removes_the_speculative_config_before_0_32(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-8B",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
                speculative_config={"method": "eagle3", "num_speculative_tokens": 3},
            )
        """
        after = """
            from vllm import LLM

            llm = LLM(
                "Qwen/Qwen3-8B",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
        """
        self.assertCodemod(before, after, unsafe_fixes=True, target_version="0.31")

    def test_vlm106_removes_batch_sharded_sampling(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-32B", return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_batch_sharded_sampling=True)
        """
        after = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-32B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        """
        self.assertCodemod(before, after, unsafe_fixes=True)

    def test_disable_replay_removes_the_mask(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logits_processors=["my_pkg.processors:NoRepeat"])
        """
        after = """
            from vllm import LLM

            llm = LLM("Qwen/Qwen3-4B", logits_processors=["my_pkg.processors:NoRepeat"])
        """
        self.assertCodemod(before, after, unsafe_fixes=True, fix_mode="disable-replay")

    def test_no_fix_for_other_rules(self) -> None:
        before = """
            from vllm import LLM

            llm = LLM("google/diffusiongemma-2b", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        """
        self.assertCodemod(before, before, unsafe_fixes=True, expected_warnings=["line 3: VLM103 not fixed"])


def test_runs_through_libcsts_runner(tmp_path):
    """``parallel_exec_transform_with_prettyprint`` is what ``python -m libcst.tool codemod`` calls."""
    for name in ("logprobs_mode_missing.py", "logprobs_mode_wrong.py", "crlf.py"):
        shutil.copyfile(FIXES / "safe" / name, tmp_path / name)
    (tmp_path / "plain.py").write_text("x = 1\n")
    result = parallel_exec_transform_with_prettyprint(
        FixReplayConfig,
        sorted(str(p) for p in tmp_path.iterdir()),
        codemod_args={"unsafe_fixes": False},
        jobs=1,
        format_code=False,
        hide_progress=True,
        repo_root=str(tmp_path),
    )
    assert (result.successes, result.failures) == (3, 0)
    for name in ("logprobs_mode_missing.py", "logprobs_mode_wrong.py", "crlf.py"):
        assert (tmp_path / name).read_bytes() == (FIXES / "safe" / f"{name}.fixed").read_bytes(), name
    assert (tmp_path / "plain.py").read_text() == "x = 1\n"


def test_documented_command(tmp_path):
    """The exact command docs/fixes.md shows, run as a user would."""
    target = tmp_path / "src"
    target.mkdir()
    shutil.copyfile(FIXES / "unsafe" / "logits_processors.py", target / "engines.py")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    command = [
        sys.executable, "-m", "libcst.tool", "codemod", "-x", "vllm_lint.fix.codemod.FixReplayConfig",
        "--no-format", "--hide-progress", "-j", "1", "--unsafe-fixes", "src/",
    ]  # fmt: skip
    completed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert "Transformed 1 files successfully." in completed.stderr
    expected = (FIXES / "unsafe" / "logits_processors.py.fixed").read_bytes()
    assert (target / "engines.py").read_bytes() == expected


def test_fixes_only_the_file_it_transforms(tmp_path):
    """libcst's runner hands the codemod one file at a time: a value written in another
    project file is left to ``vllm-lint check --fix``; the file's own fixes still apply."""
    project = Path(__file__).resolve().parent.parent / "testdata" / "fixes-project" / "safe"
    tree = tmp_path / "safe"
    shutil.copytree(project, tree, ignore=shutil.ignore_patterns("*.fixed", "__pycache__"))
    settings = tree / "serving" / "settings.py"
    before = settings.read_bytes()
    result = parallel_exec_transform_with_prettyprint(
        FixReplayConfig,
        [str(tree / "serving" / "worker.py")],
        codemod_args={"unsafe_fixes": False},
        jobs=1,
        format_code=False,
        hide_progress=True,
        repo_root=str(tree),
    )
    assert (result.successes, result.failures) == (1, 0)
    assert settings.read_bytes() == before
    assert 'value = LLM(**VALUE_KWARGS, logprobs_mode="processed_logprobs")' in (tree / "serving" / "worker.py").read_text()
