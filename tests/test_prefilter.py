"""The first byte prefilter of Python files (``vllm_lint.python.needs_analysis``): every spelling
of an engine construction, a server launch and a replay setting is let through, wherever it
stands in the file, and look-alikes are not."""

import pytest

from vllm_lint.python import _builds_or_launches, _mentions_setting, needs_analysis

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
