"""``vllm-lint server``: the language server, driven over stdio as an editor drives it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsp_client import Client, apply_edits, uri  # noqa: E402

VLM105_URL = "https://github.com/vllm-lint/vllm-lint/blob/main/docs/rules.md#vlm105"

ROLLOUT = '''\
"""Rollout workers for the PPO trainer."""
from vllm import LLM

POLICY_MODEL = "Qwen/Qwen3-8B"


def build_policy(tensor_parallel_size: int = 1) -> LLM:
    return LLM(
        model=POLICY_MODEL,
        tensor_parallel_size=tensor_parallel_size,
        return_sampling_mask=True,
    )
'''

SERVE_SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-8B}
vllm serve "$MODEL" \\
  --port 8000 \\
  --tensor-parallel-size 2 \\
  --return-sampling-mask
"""

DOCKERFILE = """\
FROM vllm/vllm-openai:v0.33.0
ENV MODEL=Qwen/Qwen3-8B
ENTRYPOINT vllm serve $MODEL --port 8000 --return-sampling-mask
"""

COMPOSE = """\
services:
  policy:
    image: vllm/vllm-openai:v0.33.0
    command: ["--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--port", "8000"]
    ports:
      - "8000:8000"
"""

# A prime-rl ``rl`` config.
RL_CONFIG = """\
max_steps = 200

[model]
name = "Qwen/Qwen3-4B"

[inference]
enable_return_sampling_mask = true

[inference.vllm]
logprobs_mode = "raw_logprobs"
max_model_len = 16384
"""

# VLM105 has a safe fix; VLM104 (engine-level logits processors) an unsafe one.
SAFE_AND_UNSAFE = '''\
from vllm import LLM

reward_model = LLM(
    model="Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logits_processors=["reward_pkg.processors:NoRepeat"],
)
'''

KINDS = [
    ("rollout.py", "python", ROLLOUT),
    ("serve_policy.sh", "shellscript", SERVE_SCRIPT),
    ("Dockerfile", "dockerfile", DOCKERFILE),
    ("compose.yaml", "yaml", COMPOSE),
    ("rl.toml", "toml", RL_CONFIG),
]


def cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vllm_lint", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def cli_result(tmp_path: Path, name: str, text: str, *options: str) -> str:
    """The text ``vllm-lint check OPTIONS`` leaves in a copy of the file."""
    folder = tmp_path / "cli-copy"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text)
    cli(["check", *options, name], folder)
    return (folder / name).read_text()


@pytest.fixture(scope="module")
def shared_project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    (root / "setup.cfg").write_text("[metadata]\nname = rollout\n")
    return root


@pytest.fixture(scope="module")
def server(shared_project):
    """One server for the tests that need no settings of their own (starting one takes a while)."""
    client = Client(cwd=str(shared_project))
    client.initialize(shared_project)
    yield client
    client.close()


@pytest.fixture
def project(shared_project, request):
    """A folder of the shared project for this test alone: its documents are its own."""
    folder = shared_project / re.sub(r"\W+", "_", request.node.name)
    folder.mkdir()
    return folder


# ------------------------------------------------------------------ diagnostics and quick fixes


@pytest.mark.parametrize(("name", "language", "text"), KINDS, ids=[kind[1] for kind in KINDS])
def test_finding_fixed_by_its_quick_fix(server, project, tmp_path, name, language, text):
    path = project / name
    path.write_text("")  # the editor's unsaved text is what is checked, not the file on disk
    server.open(path, text, language)
    [diagnostic] = server.diagnostics(path)
    assert diagnostic["code"] == "VLM105"
    assert diagnostic["source"] == "vllm-lint"
    assert diagnostic["severity"] == 1
    assert diagnostic["codeDescription"] == {"href": VLM105_URL}
    assert "vLLM refuses to start" in diagnostic["message"]

    actions = server.code_actions(path, diagnostic["range"], [diagnostic])
    fix = next(a for a in actions if a["kind"] == "quickfix" and "VLM105" in a["title"] and "Disable" not in a["title"])
    assert fix["isPreferred"] is True
    assert "unsafe" not in fix["title"]
    assert fix["diagnostics"][0]["code"] == "VLM105"
    fixed = apply_edits(text, fix["edit"]["changes"][uri(path)])
    assert fixed == cli_result(tmp_path, name, text, "--fix")  # the edit --fix makes

    server.change(path, fixed)
    assert server.diagnostics(path) == []


def test_a_python_document_that_keeps_its_byte_order_mark_is_fixed_after_it(server, project, tmp_path):
    path = project / "bom_rollout.py"
    text = '\ufefffrom vllm import LLM\n\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="raw_logprobs")\n'
    path.write_text("")
    server.open(path, text, "python")
    [diagnostic] = server.diagnostics(path)
    actions = server.code_actions(path, diagnostic["range"], [diagnostic])
    fix = next(a for a in actions if a["kind"] == "quickfix" and "Disable" not in a["title"])
    fixed = apply_edits(text, fix["edit"]["changes"][uri(path)])
    assert fixed == text.replace("raw_logprobs", "processed_logprobs")
    [fix_all] = [a for a in server.code_actions(path, diagnostic["range"], [], only=["source.fixAll"]) if a["kind"].startswith("source.fixAll")]
    assert apply_edits(text, fix_all["edit"]["changes"][uri(path)]) == fixed


def test_range_of_a_python_finding(server, project):
    path = project / "rollout.py"
    server.open(path, ROLLOUT)
    [diagnostic] = server.diagnostics(path)
    # ``LLM(`` on line 8 (0-based 7), column 11, to the closing bracket.
    assert diagnostic["range"] == {"start": {"line": 7, "character": 11}, "end": {"line": 11, "character": 5}}


def test_positions_count_utf16_code_units(server, project):
    text = 'from vllm import LLM\nllm = LLM(model="qwen-😀-8b", return_sampling_mask=True)  # 模型\n'
    path = project / "emoji.py"
    server.open(path, text)
    [diagnostic] = server.diagnostics(path)
    line = text.splitlines()[1]
    utf16_end = len(line[: line.index(")") + 1].encode("utf-16-le")) // 2
    assert diagnostic["range"]["end"] == {"line": 1, "character": utf16_end}
    fix = server.code_actions(path, diagnostic["range"], [diagnostic], only=["quickfix"])[0]
    [edit] = fix["edit"]["changes"][uri(path)]
    assert edit["range"]["start"] == {"line": 1, "character": utf16_end - 1}
    assert edit["newText"] == ', logprobs_mode="processed_logprobs"'


def test_unsafe_fix_says_so_and_fix_all_applies_safe_fixes_only(server, project, tmp_path):
    path = project / "reward.py"
    server.open(path, SAFE_AND_UNSAFE)
    found = server.diagnostics(path)
    assert sorted(d["code"] for d in found) == ["VLM104", "VLM105"]
    vlm104 = next(d for d in found if d["code"] == "VLM104")
    actions = server.code_actions(path, vlm104["range"], [vlm104], only=["quickfix"])
    titles = [a["title"] for a in actions]
    assert "vllm-lint (VLM104): Remove `logits_processors` (unsafe fix)" in titles
    unsafe = next(a for a in actions if a["title"].endswith("(unsafe fix)"))
    assert "isPreferred" not in unsafe

    [fix_all] = server.code_actions(path, vlm104["range"], [], only=["source.fixAll"])
    assert fix_all["kind"] == "source.fixAll.vllm-lint"
    assert fix_all["title"] == "Fix all vllm-lint issues"
    fixed = apply_edits(SAFE_AND_UNSAFE, fix_all["edit"]["changes"][uri(path)])
    assert fixed == cli_result(tmp_path, "reward.py", SAFE_AND_UNSAFE, "--fix")
    assert 'logprobs_mode="processed_logprobs"' in fixed and "logits_processors" in fixed
    server.change(path, fixed)
    assert [d["code"] for d in server.diagnostics(path)] == ["VLM104"]


def test_fix_all_of_a_shell_script_is_what_fix_writes(server, project, tmp_path):
    text = SERVE_SCRIPT + "vllm serve Qwen/Qwen3-4B --return-sampling-mask --enable-batch-sharded-sampling\n"
    path = project / "serve_both.sh"
    server.open(path, text, "shellscript")
    assert len(server.diagnostics(path)) == 3
    start = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    [fix_all] = server.code_actions(path, start, [], only=["source"])
    fixed = apply_edits(text, fix_all["edit"]["changes"][uri(path)])
    assert fixed == cli_result(tmp_path, "serve_both.sh", text, "--fix")
    server.change(path, fixed)
    assert [d["code"] for d in server.diagnostics(path)] == ["VLM106"]  # its fix is unsafe


def test_no_actions_on_a_clean_document(server, project):
    path = project / "clean.py"
    fixed_line = 'return_sampling_mask=True,\n        logprobs_mode="processed_logprobs",'
    text = ROLLOUT.replace("return_sampling_mask=True,", fixed_line)
    server.open(path, text)
    assert server.diagnostics(path) == []
    everywhere = {"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}
    assert server.code_actions(path, everywhere, []) == []


@pytest.mark.parametrize(
    ("name", "language", "text"), [KINDS[0], KINDS[1]], ids=["python", "shell"]
)
def test_disable_for_this_line(server, project, tmp_path, name, language, text):
    path = project / name
    server.open(path, text, language)
    [diagnostic] = server.diagnostics(path)
    actions = server.code_actions(path, diagnostic["range"], [diagnostic], only=["quickfix"])
    noqa = next(a for a in actions if a["title"] == "Disable VLM105 for this line")
    assert noqa["kind"] == "quickfix"
    silenced = apply_edits(text, noqa["edit"]["changes"][uri(path)])
    assert "# noqa: VLM105" in silenced
    assert silenced == cli_result(tmp_path, name, text, "--add-noqa")  # the comment --add-noqa adds
    server.change(path, silenced)
    assert server.diagnostics(path) == []


def test_fix_in_another_file_edits_that_document(server, project, tmp_path):
    package = project / "serving"
    package.mkdir()
    (package / "__init__.py").write_text("")
    settings = package / "settings.py"
    settings_text = (
        '"""Engine settings of the policy server."""\n\nPOLICY_KWARGS = {\n    "model": "Qwen/Qwen3-8B",\n'
        '    "return_sampling_mask": True,\n    "logprobs_mode": "raw_logprobs",\n}\n'
    )
    settings.write_text(settings_text)
    worker = package / "worker.py"
    worker_text = "from vllm import LLM\n\nfrom .settings import POLICY_KWARGS\n\npolicy = LLM(**POLICY_KWARGS)\n"
    worker.write_text(worker_text)
    server.open(worker, worker_text)
    [diagnostic] = server.diagnostics(worker)
    assert diagnostic["code"] == "VLM105"
    fix = server.code_actions(worker, diagnostic["range"], [diagnostic], only=["quickfix"])[0]
    assert fix["title"].startswith('vllm-lint (VLM105): Set `logprobs_mode="processed_logprobs"` in ')
    assert fix["title"].endswith("serving/settings.py")
    assert server.code_actions(worker, diagnostic["range"], [diagnostic], only=["quickfix"])[0] == fix  # asked again
    changes = fix["edit"]["changes"]
    assert list(changes) == [uri(settings)]
    fixed_settings = apply_edits(settings_text, changes[uri(settings)])
    assert '"logprobs_mode": "processed_logprobs"' in fixed_settings
    [fix_all] = server.code_actions(worker, diagnostic["range"], [], only=["source.fixAll"])
    assert list(fix_all["edit"]["changes"]) == [uri(settings)]
    assert apply_edits(settings_text, fix_all["edit"]["changes"][uri(settings)]) == fixed_settings
    copy = tmp_path / "copy"
    shutil.copytree(package, copy / "serving")
    (copy / "setup.cfg").write_text("[metadata]\nname = rollout\n")
    cli(["check", "--fix", "serving/worker.py"], copy)
    assert (copy / "serving" / "settings.py").read_text() == fixed_settings  # what check --fix writes

    # The other file's unsaved text is what the analysis reads.
    server.open(settings, fixed_settings)
    server.diagnostics(settings)
    server.change(worker, worker_text + "\n")
    assert server.diagnostics(worker) == []

    # Saving a module checks the open modules that may import it again.
    server.change(settings, settings_text)
    server.diagnostics(settings)
    server.notify("textDocument/didSave", {"textDocument": {"uri": uri(settings)}})
    assert [d["code"] for d in server.diagnostics(worker)] == ["VLM105"]


def test_save_and_close(server, project):
    path = project / "rollout.py"
    path.write_text(ROLLOUT)
    server.open(path, ROLLOUT)
    assert len(server.diagnostics(path)) == 1
    server.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
    assert len(server.diagnostics(path)) == 1
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri(path)}})
    assert server.wait_for("textDocument/publishDiagnostics", lambda p: p["uri"] == uri(path))["diagnostics"] == []


def test_a_burst_of_changes_is_checked_once_typing_pauses(project):
    client = Client(cwd=str(project))
    client.initialize(project, {"debounceMs": 300})
    try:
        path = project / "rollout.py"
        client.open(path, ROLLOUT)
        assert len(client.diagnostics(path)) == 1
        for count in range(5):  # typing: each change within the pause of the one before
            client.change(path, ROLLOUT + "#" * count)
        assert len(client.diagnostics(path)) == 1  # for the last version only
        late = [n for n in client.notifications if n["method"] == "textDocument/publishDiagnostics"]
        assert late == []
    finally:
        client.close()


# ------------------------------------------------------------------ bad input


def test_document_that_cannot_be_parsed_gets_one_diagnostic(server, project):
    path = project / "broken.py"
    text = "from vllm import LLM\n\nllm = LLM(model='Qwen/Qwen3-8B', return_sampling_mask=True\nprint(llm\n"
    server.open(path, text)
    [diagnostic] = server.diagnostics(path)
    assert diagnostic["message"].startswith("cannot parse: syntax error")
    assert "code" not in diagnostic
    assert diagnostic["source"] == "vllm-lint"
    assert server.code_actions(path, diagnostic["range"], [diagnostic]) == []


def test_broken_yaml_gets_one_diagnostic(server, project):
    path = project / "deploy.yaml"
    text = "spec:\n  containers:\n    - args: [--model, Qwen/Qwen3-8B, --return-sampling-mask\n  image: {\n"
    server.open(path, text, "yaml")
    found = server.diagnostics(path)
    completed = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--stdin-filename", str(path), "--output-format", "json", "-"],
        input=text, capture_output=True, text=True, cwd=project, timeout=120,
    )
    records = json.loads(completed.stdout)  # what ``check`` says of the same text
    assert len(found) == len(records) == 1
    assert found[0]["message"] == records[0]["message"]


def test_a_file_the_linter_does_not_read_gets_no_diagnostics(server, project):
    path = project / "NOTES.md"
    server.open(path, "LLM(return_sampling_mask=True)\n", "markdown")
    assert server.diagnostics(path) == []
    # pyproject.toml holds the settings; ``check`` reads no engine configuration from it.
    pyproject = project / "pyproject.toml"
    server.open(pyproject, RL_CONFIG, "toml")
    assert server.diagnostics(pyproject) == []


def test_a_script_without_an_extension_is_read_by_its_language(server, project):
    path = project / "launch"
    server.open(path, SERVE_SCRIPT.replace("#!/usr/bin/env bash\n", ""), "shellscript")
    assert [d["code"] for d in server.diagnostics(path)] == ["VLM105"]


FORWARDING_SCRIPT = 'model=${1:-Qwen/Qwen3-8B}\nvllm serve ${model} --port ${PORT} --return-sampling-mask "${@:2}"\n'


def test_a_script_that_forwards_its_arguments_says_what_it_assumes(server, project, tmp_path):
    path = project / "forward.sh"
    server.open(path, FORWARDING_SCRIPT, "shellscript")
    [diagnostic] = server.diagnostics(path)
    assert diagnostic["code"] == "VLM105"
    assert '(unless the arguments passed through at "${@:2}", line 2, set --logprobs-mode)' in diagnostic["message"]
    actions = server.code_actions(path, diagnostic["range"], [diagnostic])
    fix = next(a for a in actions if a["kind"] == "quickfix" and "VLM105" in a["title"] and "Disable" not in a["title"])
    fixed = apply_edits(FORWARDING_SCRIPT, fix["edit"]["changes"][uri(path)])
    assert fixed == cli_result(tmp_path, "forward.sh", FORWARDING_SCRIPT, "--fix")


def test_the_strict_reading_of_a_project_applies_to_its_documents(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nassume-pass-through = "anything"\n')
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path)
    try:
        path = tmp_path / "forward.sh"
        client.open(path, FORWARDING_SCRIPT, "shellscript")
        assert client.diagnostics(path) == []
    finally:
        client.close()


# ------------------------------------------------------------------ configuration


def test_configuration_of_the_documents_project(tmp_path):
    configured = tmp_path / "configured"
    configured.mkdir()
    (configured / "pyproject.toml").write_text('[tool.vllm-lint]\nignore = ["VLM105"]\n')
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "setup.cfg").write_text("[metadata]\nname = plain\n")
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path)
    try:
        ignored, reported = configured / "rollout.py", plain / "rollout.py"
        client.open(ignored, ROLLOUT)
        client.open(reported, ROLLOUT)
        assert client.diagnostics(ignored) == []
        assert [d["code"] for d in client.diagnostics(reported)] == ["VLM105"]

        # The configuration changes: documents are checked again when it is saved.
        (configured / "pyproject.toml").write_text('[tool.vllm-lint]\nextend-select = ["VLM901"]\n')
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri(configured / "pyproject.toml")}})
        assert [d["code"] for d in client.diagnostics(ignored)] == ["VLM105"]
    finally:
        client.close()


def test_target_version_from_the_project_and_from_the_editor(tmp_path):
    text = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", '
        "enable_batch_sharded_sampling=True)\n"
    )
    old = tmp_path / "old"
    old.mkdir()
    (old / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "0.28"\n')
    new = tmp_path / "new"
    new.mkdir()
    (new / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "0.33"\n')
    expected_old = cli(["check", "--output-format", "json", "engine.py"], _written(old / "engine.py", text))
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path)
    try:
        client.open(old / "engine.py", text)
        client.open(new / "engine.py", text)
        codes_old = [d["code"] for d in client.diagnostics(old / "engine.py")]
        assert codes_old == [record["code"] for record in json.loads(expected_old.stdout)]
        assert codes_old == ["VLM301"]  # enable_batch_sharded_sampling came in vLLM 0.29
        assert [d["code"] for d in client.diagnostics(new / "engine.py")] == ["VLM106"]
    finally:
        client.close()

    # The editor's setting is the command line's --target-version: it wins over the project's.
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path, {"targetVersion": "0.29"})
    try:
        client.open(old / "engine.py", text)
        assert client.diagnostics(old / "engine.py") == []
    finally:
        client.close()


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path.parent


def test_editor_options_select_and_force_exclude(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nexclude = ["generated"]\n')
    (tmp_path / "generated").mkdir()
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path, {"select": ["VLM104"]})
    try:
        path = tmp_path / "reward.py"
        client.open(path, SAFE_AND_UNSAFE)
        assert [d["code"] for d in client.diagnostics(path)] == ["VLM104"]
        # Named explicitly, an excluded file is checked, as ``check generated/x.py`` checks it.
        excluded = tmp_path / "generated" / "reward.py"
        client.open(excluded, SAFE_AND_UNSAFE)
        assert [d["code"] for d in client.diagnostics(excluded)] == ["VLM104"]
    finally:
        client.close()
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path, {"forceExclude": True})
    try:
        excluded = tmp_path / "generated" / "reward.py"
        client.open(excluded, SAFE_AND_UNSAFE)
        assert client.diagnostics(excluded) == []
    finally:
        client.close()


def test_settings_changed_by_the_editor_recheck_open_documents(server, project):
    path = project / "rollout.py"
    server.open(path, ROLLOUT)
    assert [d["code"] for d in server.diagnostics(path)] == ["VLM105"]
    try:
        server.notify("workspace/didChangeConfiguration", {"settings": {"vllm-lint": {"ignore": ["VLM105"]}}})
        assert server.diagnostics(path) == []
    finally:
        server.notify("workspace/didChangeConfiguration", {"settings": {"vllm-lint": {"debounceMs": 10}}})
        assert [d["code"] for d in server.diagnostics(path)] == ["VLM105"]


def test_invalid_configuration_is_one_diagnostic(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nselect = ["VLM105"]\ntarget-version = 0.30\n')
    client = Client(cwd=str(tmp_path))
    client.initialize(tmp_path)
    try:
        path = tmp_path / "rollout.py"
        client.open(path, ROLLOUT)
        [diagnostic] = client.diagnostics(path)
        assert "target-version must be a string" in diagnostic["message"]
    finally:
        client.close()


# ------------------------------------------------------------------ errors in the server

# The real server, with one analysis step made to fail for documents that mention BREAK.
BROKEN_SERVER = textwrap.dedent(
    """
    import sys
    from vllm_lint.server import documents

    def failing(original):
        def replacement(linted, *args, **kwargs):
            if "BREAK" in linted.text:
                raise RuntimeError("injected failure")
            return original(linted, *args, **kwargs)
        return replacement

    documents.diagnostics = failing(documents.diagnostics)
    documents.quick_fixes = failing(documents.quick_fixes)
    from vllm_lint.server import main
    sys.exit(main())
    """
)


def test_handler_error_is_logged_and_the_server_goes_on(project):
    client = Client([sys.executable, "-c", BROKEN_SERVER], cwd=str(project))
    client.initialize(project)
    try:
        broken = project / "broken.py"
        client.open(broken, ROLLOUT + "# BREAK\n")
        logged = client.wait_for("window/logMessage", lambda p: "injected failure" in p["message"])
        assert logged["type"] == 1
        assert "Traceback" in logged["message"]

        path = project / "rollout.py"
        client.open(path, ROLLOUT)
        [diagnostic] = client.diagnostics(path)
        assert diagnostic["code"] == "VLM105"

        # A request whose handler fails gets an error response, and the failure is logged.
        response = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri(broken)}, "range": diagnostic["range"], "context": {"diagnostics": []}},
        )
        assert "error" in response
        assert client.wait_for("window/logMessage", lambda p: "injected failure" in p["message"])
        assert client.code_actions(path, diagnostic["range"], [diagnostic])
        assert client.process.poll() is None
    finally:
        client.close()


def test_malformed_messages_do_not_stop_the_server(server, project):
    server.send({"id": 999, "method": "textDocument/codeAction", "params": {"textDocument": {}}})
    server.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///nowhere"}})
    path = project / "rollout.py"
    server.open(path, ROLLOUT)
    assert len(server.diagnostics(path)) == 1


# ------------------------------------------------------------------ installation and cost


def test_without_pygls_the_command_says_what_to_install(tmp_path):
    blocked = "import sys; sys.modules['pygls'] = None; from vllm_lint.cli import main; sys.exit(main(['server']))"
    completed = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert completed.returncode != 0
    assert "install vllm-lint[server]" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_check_imports_neither_the_server_nor_its_dependencies(tmp_path):
    (tmp_path / "clean.py").write_text("import json\n\nprint(json.dumps({'ok': True}))\n")
    probe = textwrap.dedent(
        """
        import json, sys
        from vllm_lint.cli import main
        code = main(["check", "--quiet", "clean.py"])
        print(json.dumps(sorted(sys.modules)))
        """
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    loaded = json.loads(completed.stdout.splitlines()[-1])
    banned = ("pygls", "lsprotocol", "vllm_lint.server", "vllm_lint.explain", "libcst", "astroid")
    assert [name for name in loaded if name.split(".")[0] in banned or name.startswith(banned)] == []
    assert "vllm_lint.cli" in loaded  # the probe did run the command line


def test_console_script_serves(project):
    script = shutil.which("vllm-lint", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the console script is not installed next to this interpreter")
    client = Client([script, "server"], cwd=str(project))
    try:
        result = client.initialize(project)
        assert result["capabilities"]["textDocumentSync"]["change"] == 1  # full text on each change
        assert "source.fixAll.vllm-lint" in result["capabilities"]["codeActionProvider"]["codeActionKinds"]
    finally:
        client.close()


def test_a_binary_document_gets_one_diagnostic(server, project):
    path = project / "weights.py"
    server.open(path, "from vllm import LLM\n\x00\x01LLM(return_sampling_mask=True)\n")
    [diagnostic] = server.diagnostics(path)
    assert diagnostic["message"] == "cannot parse: binary file (contains NUL bytes)"


def test_an_unsaved_buffer_is_read_by_its_language(server):
    untitled = "untitled:Untitled-1"
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": untitled, "languageId": "shellscript", "version": 1, "text": SERVE_SCRIPT}},
    )
    params = server.wait_for("textDocument/publishDiagnostics", lambda p: p["uri"] == untitled)
    [diagnostic] = params["diagnostics"]
    assert diagnostic["code"] == "VLM105"
    actions = server.code_actions_for(untitled, diagnostic)
    fix = next(a for a in actions if a["title"].startswith("vllm-lint (VLM105)"))
    assert list(fix["edit"]["changes"]) == [untitled]
    assert "--logprobs-mode processed_logprobs" in apply_edits(SERVE_SCRIPT, fix["edit"]["changes"][untitled])


# ------------------------------------------------------------------ positions and options, without a server


def test_positions_in_each_encoding_and_line_ending():
    from vllm_lint.server.documents import Lines

    text = "a = '😀'\r\nb = 1\rc = 'é'\n"
    utf16, utf8, utf32 = Lines(text, "utf-16"), Lines(text, "utf-8"), Lines(text, "utf-32")
    closing = text.index("'", 5)  # after the emoji
    assert utf16.position(closing) == (0, 7)
    assert utf8.position(closing) == (0, 9)
    assert utf32.position(closing) == (0, 6)
    assert utf16.position(text.index("b")) == (1, 0)
    assert utf16.position(text.index("c")) == (2, 0)  # a lone CR ends a line
    assert utf8.position(text.index("'", text.index("é"))) == (2, 7)
    assert utf16.position(len(text) + 5) == (3, 0)
    assert utf16.byte_column(3, len("c = 'é".encode())) == text.index("'", text.index("é"))
    assert utf16.edit_offset(2, 12) == text.index("é")  # rows of ``Edit``s end at \n only: row 2 is "b = 1\rc = ..."


def test_options_from_the_editor():
    from vllm_lint.server.documents import Options

    options = Options.from_client(
        {
            "targetVersion": "0.30",
            "extend-ignore": ["VLM2"],
            "select": "VLM1",
            "debounceMs": 25,
            "fixMode": "disable-replay",
            "unknown": 1,
        }
    )
    assert (options.target_version, options.extend_ignore, options.select) == ("0.30", ["VLM2"], ["VLM1"])
    assert (options.debounce, options.fix_mode) == (0.025, "disable-replay")
    assert Options.from_client({"settings": {"forceExclude": True}}).force_exclude is True
    defaults = Options.from_client({"debounceMs": "fast", "fixMode": "everything", "select": [1, None]})
    assert (defaults.debounce, defaults.fix_mode, defaults.select) == (0.2, "keep-replay", [])
    assert Options.from_client(None) == Options()


# ------------------------------------------------------------------ every form of document URI


def _open_uri(client: Client, document_uri: str, text: str, language: str = "python") -> None:
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": document_uri, "languageId": language, "version": 1, "text": text}}
    )


def _published(client: Client, document_uri: str) -> list[dict]:
    return client.wait_for("textDocument/publishDiagnostics", lambda p: p["uri"] == document_uri)["diagnostics"]


# What editors send: ``Path.as_uri()`` and VS Code percent-encode spaces and non-ASCII letters,
# VS Code encodes a Windows drive's colon, other clients write it as it is.
URI_FORMS = {
    "space and non-ASCII letters": lambda folder: (folder / "my project" / "ünï.py").as_uri(),
    "Windows drive, colon encoded": lambda folder: "file:///c%3A/Users/me/my%20project/rollout.py",
    "Windows drive": lambda folder: "file:///C:/Users/me/rollout.py",
    "untitled, encoded": lambda folder: "untitled:Untitled%201",
}


@pytest.mark.parametrize("form", list(URI_FORMS))
def test_every_form_of_uri_gets_diagnostics_and_fixes(server, project, form):
    (project / "my project").mkdir()
    document_uri = URI_FORMS[form](project)
    _open_uri(server, document_uri, ROLLOUT)
    [diagnostic] = _published(server, document_uri)
    assert diagnostic["code"] == "VLM105"
    actions = server.code_actions_for(document_uri, diagnostic)
    fix = next(a for a in actions if a["title"].startswith("vllm-lint (VLM105)"))
    assert list(fix["edit"]["changes"]) == [document_uri]
    fixed = apply_edits(ROLLOUT, fix["edit"]["changes"][document_uri])
    assert 'logprobs_mode="processed_logprobs"' in fixed

    server.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": document_uri, "version": 2}, "contentChanges": [{"text": fixed}]},
    )
    assert _published(server, document_uri) == []
    server.notify("textDocument/didChange", {"textDocument": {"uri": document_uri, "version": 3}, "contentChanges": [{"text": ROLLOUT}]})
    assert [d["code"] for d in _published(server, document_uri)] == ["VLM105"]
    server.notify("textDocument/didClose", {"textDocument": {"uri": document_uri}})
    assert _published(server, document_uri) == []


def test_a_fix_in_another_open_document_edits_it_under_the_uri_the_editor_gave(server, project):
    folder = project / "my project" / "pölicy"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    settings = folder / "sëttings.py"
    settings_text = 'ROLLOUT_KWARGS = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}\n'
    settings.write_text(settings_text)
    worker = folder / "worker.py"
    worker_text = "from vllm import LLM\n\nfrom .sëttings import ROLLOUT_KWARGS\n\npolicy = LLM(**ROLLOUT_KWARGS)\n"
    worker.write_text(worker_text)
    # An editor that leaves the letters of the other document's URI unencoded: its own URI is kept.
    settings_uri = "file://" + str(settings.resolve()).replace(" ", "%20")
    _open_uri(server, settings_uri, settings_text)
    _published(server, settings_uri)
    _open_uri(server, worker.as_uri(), worker_text)
    [diagnostic] = _published(server, worker.as_uri())
    fix = next(a for a in server.code_actions_for(worker.as_uri(), diagnostic) if "VLM105" in a["title"])
    assert list(fix["edit"]["changes"]) == [settings_uri]
    assert '"logprobs_mode": "processed_logprobs"' in apply_edits(settings_text, fix["edit"]["changes"][settings_uri])


def test_a_request_after_shutdown_gets_an_invalid_request_error(project):
    client = Client(cwd=str(project))
    client.initialize(project)
    try:
        path = project / "rollout.py"
        client.open(path, ROLLOUT)
        [diagnostic] = client.diagnostics(path)
        assert client.request("shutdown", None, timeout=10) == {"jsonrpc": "2.0", "id": client.next_id, "result": None}
        response = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri(path)}, "range": diagnostic["range"], "context": {"diagnostics": [diagnostic]}},
            timeout=10,
        )
        assert response["error"]["code"] == -32600  # InvalidRequest
        assert "shut down" in response["error"]["message"]
        assert client.request("shutdown", None, timeout=10)["error"]["code"] == -32600
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": 2}, "contentChanges": [{"text": ""}]})
        client.notify("exit", None)
        assert client.process.wait(timeout=10) == 0
    finally:
        client.close()
