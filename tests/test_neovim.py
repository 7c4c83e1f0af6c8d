"""The documented Neovim set-up, in a real Neovim: its built-in LSP client runs
``vllm-lint server`` with the ``init.lua`` that docs/editors.md gives (the block
for the installed release), opens a Python module and a launch script with
replay mistakes, receives their diagnostics and applies a quick fix the way a
user does, through ``vim.lsp.buf.code_action()`` (its menu answered by the
test).  Neovim must be installed (``.ci/run`` installs Debian's package): a
missing editor fails the test, it is not skipped.  ``pytest -m "not slow"``
leaves it out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITORS = ROOT / "docs" / "editors.md"

TRAIN = '''\
"""GRPO rollouts."""
from vllm import LLM

llm = LLM(
    model="Qwen/Qwen3-4B",
    return_sampling_mask=True,
)
'''

SERVE = """\
#!/usr/bin/env bash
set -euo pipefail
vllm serve Qwen/Qwen3-4B \\
  --port 8000 \\
  --return-sampling-mask
"""

# Drives the editor: open each file, wait for vllm-lint's diagnostics, put the cursor on the
# first one, ask for code actions, pick the rule's fix in the menu, write the file.
DRIVER = r"""
local results = {}
local function wait_for_diagnostics(buf)
  vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == "vllm-lint" then return true end
    end
    return false
  end, 100)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
                          line = d.lnum + 1, col = d.col + 1, message = d.message, source = d.source })
  end
  return found
end

local function fix(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  local before = wait_for_diagnostics(buf)
  local offered = {}
  if #before > 0 then
    vim.api.nvim_win_set_cursor(0, { before[1].line, before[1].col - 1 })
    vim.ui.select = function(items, opts, on_choice)
      local chosen
      for index, item in ipairs(items) do
        local action = item.action or item[2] or item
        table.insert(offered, action.title)
        if chosen == nil and not action.title:match("^Disable") then chosen = index end
      end
      on_choice(chosen and items[chosen] or nil, chosen)
    end
    vim.lsp.buf.code_action()
    vim.wait(20000, function() return #offered > 0 end, 50)
    vim.wait(20000, function()
      return vim.api.nvim_buf_get_option(buf, "modified")
    end, 50)
    vim.cmd("write")
  end
  results[path] = { diagnostics = before, offered = offered,
                    filetype = vim.api.nvim_buf_get_option(buf, "filetype"),
                    clients = #vim.tbl_keys(vim.lsp.buf_get_clients(buf)) }
end

local ok, err = pcall(function()
  fix(vim.fn.getcwd() .. "/train.py")
  fix(vim.fn.getcwd() .. "/serve.sh")
end)
results.error = ok and vim.NIL or tostring(err)
local out = io.open(vim.fn.getcwd() .. "/results.json", "w")
out:write(vim.fn.json_encode(results))
out:close()
vim.cmd("qall!")
"""


def _version(nvim: str) -> tuple[int, int]:
    text = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


def documented_config(version: tuple[int, int]) -> str:
    """The init.lua docs/editors.md gives for this Neovim release."""
    blocks = re.findall(r"```lua\n(.*?)```", EDITORS.read_text(encoding="utf-8"), flags=re.S)
    modern = next(block for block in blocks if "vim.lsp.config(" in block)
    legacy = next(block for block in blocks if "vim.lsp.start_client(" in block)
    return modern if version >= (0, 11) else legacy


@pytest.mark.slow
def test_neovim_gets_diagnostics_and_applies_a_quick_fix(tmp_path):
    nvim = shutil.which("nvim")
    assert nvim is not None, "Neovim is not installed (apt-get install neovim); .ci/run installs it"
    version = _version(nvim)
    assert version >= (0, 7), f"Neovim {version} has no built-in LSP client the docs describe"
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "0.33"\n')
    (project / "train.py").write_text(TRAIN)
    (project / "serve.sh").write_text(SERVE)
    config = tmp_path / "config" / "nvim"
    config.mkdir(parents=True)
    (config / "init.lua").write_text(documented_config(version))
    (tmp_path / "driver.lua").write_text(DRIVER)
    # vllm-lint as the user has it: the console script installed beside this Python.
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    assert shutil.which("vllm-lint", path=env["PATH"]), "the vllm-lint console script is not installed"
    completed = subprocess.run(
        [nvim, "--headless", "-c", f"luafile {tmp_path / 'driver.lua'}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    results_file = project / "results.json"
    assert results_file.exists(), (completed.returncode, completed.stdout[-2000:], completed.stderr[-2000:])
    results = json.loads(results_file.read_text())
    assert results.get("error") in (None, ""), results

    python = results[str(project / "train.py")]
    assert python["filetype"] == "python" and python["clients"] == 1
    assert [(d["code"], d["line"], d["source"]) for d in python["diagnostics"]] == [("VLM105", 4, "vllm-lint")]
    assert python["offered"][0] == 'vllm-lint (VLM105): Add `logprobs_mode="processed_logprobs"`', python["offered"]
    assert any(title.startswith("Disable VLM105") for title in python["offered"])
    assert 'logprobs_mode="processed_logprobs"' in (project / "train.py").read_text()

    shell = results[str(project / "serve.sh")]
    assert shell["filetype"] == "sh" and shell["clients"] == 1
    assert [(d["code"], d["line"]) for d in shell["diagnostics"]] == [("VLM105", 5)]
    assert shell["offered"][0].startswith("vllm-lint (VLM105): Add --logprobs-mode processed_logprobs"), shell["offered"]
    assert "--logprobs-mode processed_logprobs" in (project / "serve.sh").read_text()

    # What the editor wrote is clean for check too.
    check = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "train.py", "serve.sh"], cwd=project, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout
