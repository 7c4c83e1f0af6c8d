"""The first byte prefilter of Python files (``vllm_lint.python.needs_analysis``): every spelling
of an engine construction, a server launch and a replay setting is let through, wherever it
stands in the file, and look-alikes are not."""

import pytest

from vllm_lint.python import _builds_or_launches, _setting_matches, needs_analysis

SETTINGS = [
    b"sampling_mask",
    b"sampling-mask",
    b"trace_replay",
    b"trace-replay",
    b"trace_decode_token_ids",
    b"batch_sharded_sampling",
    b"batch-sharded-sampling",
    b"batch_sharded-sampling",
]
NOT_SETTINGS = [
    b"sampling mask",
    b"samplingmask",
    b"trace replay",
    b"tracereplay",
    b"trace_decode_token",
    b"batch sharded sampling",
    b"atch_sharded",
    b"sharded_sampling",
    b"sampling_params",
    b"traceback",
]
LAUNCHES = [b'["vllm", "serve", model]', b"['vllm', 'serve']", b"-m vllm.entrypoints.openai.api_server", b"LLM(model)", b"EngineArgs(model=m)"]
NOT_LAUNCHES = [b"server = serve(app)", b"'serve\"", b"api_server", b"AsyncLLM(engine)", b"vllm_LLM(x)", b"EngineArgs"]


def _mentions_setting(text: bytes) -> bool:
    return next(_setting_matches(text), None) is not None


def _placed(word: bytes) -> list[bytes]:
    """The word at the start and the end of a file, and between other occurrences of its parts."""
    return [word, b"x = 1\n" + word, word + b"\n", b"sampling trace serve LLM " + word + b" sampling trace serve"]


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_spelling_of_a_setting_is_found_anywhere(setting):
    for text in _placed(setting):
        assert _mentions_setting(text), text


@pytest.mark.parametrize("text", NOT_SETTINGS)
def test_look_alikes_of_settings_are_not_settings(text):
    assert not _mentions_setting(text)
    assert not _mentions_setting(text + b" " + text)


@pytest.mark.parametrize("launch", LAUNCHES)
def test_every_launch_is_found_anywhere(launch):
    for text in _placed(launch):
        assert _builds_or_launches(text), text


@pytest.mark.parametrize("text", NOT_LAUNCHES)
def test_look_alikes_of_launches_are_not_launches(text):
    assert not _builds_or_launches(text)


def test_a_file_with_vllm_and_a_setting_needs_analysis(tmp_path):
    path = str(tmp_path / "run.py")
    source = b"from vllm import SamplingParams\nparams = SamplingParams(extra_args={'trace-replay': True})\n"
    assert needs_analysis(source, path)
    assert not needs_analysis(source.replace(b"trace-replay", b"trace replay"), path)


# A setting given a value, as Python code, an argv or a config text inside Python writes it.
WRITTEN = [
    b"LLM(model, return_sampling_mask=True)",
    b"dict(return_sampling_mask = True)",
    b"args.enable_trace_replay = True",
    b"flags.enable_batch_sharded_sampling |= on",
    b"    return_sampling_mask: bool = True",
    b"def build(return_sampling_mask=True): ...",
    b'kwargs = {"return_sampling_mask": True}',
    b"setattr(args, 'enable_trace_replay', True)",
    b'cmd = ["vllm", "serve", model, "--return-sampling-mask"]',
    b'cmd = f"vllm serve {model} --enable-trace-replay --port 8000"',
    b'"actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True"',
    b'CONFIG = """\nengine:\n  return_sampling_mask: true\n"""',
    b"if (return_sampling_mask := wants_mask()): ...",
    b"SamplingParams(trace_decode_token_ids=ids)",
]
# A setting only read gives no engine a value.
ONLY_READ = [
    b"if params.return_sampling_mask:\n    mask = None",
    b"if cfg.enable_trace_replay:  # replay on\n",
    b"same = a.return_sampling_mask == b.return_sampling_mask",
    b"log(config.enable_batch_sharded_sampling)",
    b"# return_sampling_mask is off by default\n",
    b"return self.trace_decode_token_ids",
    b'raise ValueError("trace_decode_token_ids is set but trace replay is not enabled")',
    b"masks = [out.sampling_mask for out in outputs]",
]


@pytest.mark.parametrize("text", WRITTEN)
def test_every_way_of_writing_a_setting_is_a_write(text):
    from vllm_lint.python import _writes_setting

    assert _writes_setting(text), text
    assert needs_analysis(b"from vllm import LLM\n" + text + b"\n", "/project/run.py")


@pytest.mark.parametrize("text", ONLY_READ)
def test_a_setting_only_read_does_not_let_a_file_through(text):
    from vllm_lint.python import _writes_setting

    assert not _writes_setting(text), text
    assert not needs_analysis(b"from vllm import SamplingParams\n" + text + b"\n", "/project/worker.py")
    # The same file with the setting written somewhere is read.
    assert needs_analysis(b"from vllm import SamplingParams\nKW = {'return_sampling_mask': True}\n" + text + b"\n", "/project/worker.py")


def test_setting_names_are_every_name_of_a_setting_vllm_or_its_forks_take():
    """Every engine keyword, option and config field of every release in the schema, every request
    field the rules read and every fork's spelling that holds a setting's words is in
    ``SETTING_NAMES``: a keyword or field of that name is a write the prefilter lets through."""
    from vllm_lint.explain.report import REQUEST_SETTINGS
    from vllm_lint.launch.schema import _release
    from vllm_lint.launch.schemadata import releases
    from vllm_lint.python import SETTING_NAMES, _setting_matches
    from vllm_lint.rules.flag_unavailable import NOT_UPSTREAM

    names: set[str] = set()
    for index in range(len(releases())):
        schema = _release(index)
        names |= {name for kind in schema.keywords.values() for name in kind}
        names |= {dest for dest in schema.options.values() if dest != "?"}
        names |= {field for entry in schema.keys.values() for field in entry.get("fields", ())}
    names |= set(REQUEST_SETTINGS) | set(NOT_UPSTREAM)
    holding = {name.encode() for name in names if next(_setting_matches(name.encode()), None) is not None}
    assert {b"return_sampling_mask", b"enable_trace_replay", b"trace_decode_token_ids"} <= holding
    assert holding - {b"no_" + n for n in SETTING_NAMES} <= SETTING_NAMES, holding - SETTING_NAMES


def test_the_deferring_spellings_the_prefilter_looks_for_are_the_resolvers():
    from vllm_lint.python import _DEFERS
    from vllm_lint.python.deferred import COPYING_SPELLINGS

    assert set(_DEFERS.pattern.decode().split("(?:")[1].split(")")[0].split("|")) == COPYING_SPELLINGS
