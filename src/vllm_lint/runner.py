"""Which model runner vLLM picks for an engine (the input of VLM101 and VLM107).

vLLM 0.28-0.33 decide ``VllmConfig.use_v2_model_runner`` at start-up:

1. an explicit ``VLLM_USE_V2_MODEL_RUNNER`` wins (``"0"`` is V1, another
   integer V2), except where a feature forces V2 (watermarking; HiSparse);
2. otherwise a feature the release's V2 runner lacks demotes to V1
   (``_get_v2_model_runner_unsupported_features``);
3. otherwise V2 (0.28 also looks at the model architecture, which a linter
   cannot see, so only the certain demotions are used there).

0.34 removed Model Runner V1 and the variable.  Only what is certain from the
written configuration counts: an unknown value anywhere on the path means
"not certainly V1".
"""

from __future__ import annotations

from dataclasses import dataclass

from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, Known, Mapping, known_bool, truthiness
from vllm_lint.versions import Version

ENV_VAR = "VLLM_USE_V2_MODEL_RUNNER"


@dataclass(frozen=True)
class RunnerProfile:
    """What demotes a release's default runner to V1 (``_get_v2_model_runner_unsupported_features``)."""

    spec_methods_v1: frozenset[str]
    # Methods V2 supports; any other explicit method demotes (0.28/0.29).  None: use spec_methods_v1.
    spec_methods_v2: frozenset[str] | None = None
    logits_processors: bool = False
    parallel_drafting: bool = True  # parallel_drafting with a method other than dflash/dspark
    heterogeneous_vocab: bool = False
    mamba_cache_all: bool = False
    elastic_ep: bool = False
    dbo: bool = True
    kv_sharing_fast_prefill: bool = False
    eagle3_pipeline: bool = False
    # 0.28 forces V2 for some features before it looks at the demoting list.
    forcing: bool = False
    # 0.30-0.33: watermarking and HiSparse force V2 before the variable is read.
    overrides_before_env: bool = True


_V2_METHODS_028 = frozenset({"eagle", "eagle3", "mtp", "dflash", "dspark"})

PROFILES: dict[tuple[int, int], RunnerProfile] = {
    (0, 28): RunnerProfile(
        spec_methods_v1=frozenset(),
        spec_methods_v2=_V2_METHODS_028,
        logits_processors=True,
        elastic_ep=True,
        kv_sharing_fast_prefill=True,
        eagle3_pipeline=True,
        forcing=True,
        overrides_before_env=False,
    ),
    (0, 29): RunnerProfile(
        spec_methods_v1=frozenset(),
        spec_methods_v2=_V2_METHODS_028 | {"extract_hidden_states"},
        logits_processors=True,
        elastic_ep=True,
        kv_sharing_fast_prefill=True,
        eagle3_pipeline=True,
        overrides_before_env=False,
    ),
    (0, 30): RunnerProfile(
        spec_methods_v1=frozenset({"ngram", "ngram_gpu", "draft_model", "suffix", "medusa", "mlp_speculator", "custom_class"}),
        logits_processors=True,
        elastic_ep=True,
        mamba_cache_all=True,
    ),
    (0, 31): RunnerProfile(
        spec_methods_v1=frozenset({"ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator", "custom_class"}),
        elastic_ep=True,
        mamba_cache_all=True,
    ),
    (0, 32): RunnerProfile(
        spec_methods_v1=frozenset({"suffix", "medusa", "mlp_speculator", "custom_class"}),
        heterogeneous_vocab=True,
    ),
    (0, 33): RunnerProfile(
        spec_methods_v1=frozenset({"suffix", "custom_class"}),
        heterogeneous_vocab=True,
    ),
}

# Methods vLLM may rename from the draft model's name or architecture (to dspark,
# eagle, eagle3, dflash): an explicit one of these is not a certain demotion.
RENAMEABLE_METHODS = frozenset({"draft_model", "medusa", "mlp_speculator", "mtp"})
PARALLEL_DRAFTING_METHODS = frozenset({"dflash", "dspark"})


@dataclass(frozen=True)
class RunnerChoice:
    """``v1`` is True only when vLLM certainly selects Model Runner V1."""

    v1: bool
    reason: str = ""
    # The setting that causes it, for the finding's message.
    setting: str | None = None


NOT_CERTAIN = RunnerChoice(False)


def _env_choice(value: object) -> bool | None:
    """``bool(int(value))`` as vLLM's envs module does; None for anything it would reject."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return bool(value)
    if isinstance(value, str):
        try:
            return bool(int(value.strip()))
        except ValueError:
            return None
    return None


def normalise_method(method: object) -> object:
    if not isinstance(method, str):
        return UNKNOWN
    if method in ("[ngram]",):
        return "ngram"
    if method.endswith("_mtp"):
        return "mtp"
    return method


def speculative_method(facts: EngineFacts) -> object:
    """The explicit speculative ``method``: a string, ABSENT (no speculative decoding) or UNKNOWN."""
    alias = facts.get("spec_method")
    config = facts.get("speculative_config")
    if alias is UNKNOWN or config is UNKNOWN:
        return UNKNOWN
    if isinstance(alias, Known) and alias.value is not None:
        return normalise_method(alias.value)
    if isinstance(config, Known) and isinstance(config.value, Mapping):
        method = config.value.get("method")
        if isinstance(method, Known) and method.value is not None:
            return normalise_method(method.value)
        return UNKNOWN  # inferred from the draft model at start-up
    if config is ABSENT or (isinstance(config, Known) and config.value is None):
        if facts.get("spec_model") is ABSENT:
            return ABSENT
    return UNKNOWN


def _known(facts: EngineFacts, name: str) -> object:
    """The value of a setting: its default (None) when absent, UNKNOWN when unknown."""
    fact = facts.get(name)
    if isinstance(fact, Known):
        return fact.value
    return None if fact is ABSENT else UNKNOWN


def _int_above_one(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 1


def _demotion(facts: EngineFacts, profile: RunnerProfile) -> RunnerChoice:
    """A feature that certainly makes vLLM fall back to V1 when the variable is unset."""
    method = speculative_method(facts)
    if isinstance(method, str) and method not in RENAMEABLE_METHODS:
        unsupported = method in profile.spec_methods_v1 or (
            profile.spec_methods_v2 is not None and method not in profile.spec_methods_v2
        )
        if unsupported:
            return RunnerChoice(True, f'speculative method "{method}" makes vLLM fall back to it', "speculative_config")
    if profile.logits_processors and truthiness(_known(facts, "logits_processors")) is True:
        return RunnerChoice(True, "custom logits processors make this release fall back to it", "logits_processors")
    pipeline = _known(facts, "pipeline_parallel_size")
    if _known(facts, "distributed_executor_backend") == "external_launcher" and _int_above_one(pipeline):
        return RunnerChoice(True, "external_launcher with pipeline parallelism makes vLLM fall back to it", "distributed_executor_backend")
    spec = _known(facts, "speculative_config")
    if isinstance(spec, Mapping):
        drafting = spec.get("parallel_drafting")
        if profile.parallel_drafting and known_bool(drafting) is True and isinstance(method, str):
            if method not in PARALLEL_DRAFTING_METHODS and method not in RENAMEABLE_METHODS:
                return RunnerChoice(True, "parallel drafting makes vLLM fall back to it", "speculative_config")
        if profile.heterogeneous_vocab and known_bool(spec.get("use_heterogeneous_vocab")) is True:
            return RunnerChoice(True, "a heterogeneous-vocabulary draft makes vLLM fall back to it", "speculative_config")
    if profile.eagle3_pipeline and method == "eagle3" and _int_above_one(pipeline):
        return RunnerChoice(True, "EAGLE3 with pipeline parallelism makes vLLM fall back to it", "speculative_config")
    if profile.dbo and (known_bool(facts.get("enable_dbo")) is True or _int_above_one(_known(facts, "ubatch_size"))):
        return RunnerChoice(True, "dual batch overlap makes vLLM fall back to it", "enable_dbo")
    if profile.elastic_ep and known_bool(facts.get("enable_elastic_ep")) is True:
        return RunnerChoice(True, "elastic expert parallelism makes vLLM fall back to it", "enable_elastic_ep")
    if profile.mamba_cache_all and _known(facts, "mamba_cache_mode") == "all":
        return RunnerChoice(True, 'mamba_cache_mode="all" makes vLLM fall back to it', "mamba_cache_mode")
    if profile.kv_sharing_fast_prefill and known_bool(facts.get("kv_sharing_fast_prefill")) is True:
        return RunnerChoice(True, "KV sharing fast prefill makes vLLM fall back to it", "kv_sharing_fast_prefill")
    return NOT_CERTAIN


def _forced_v2_028(facts: EngineFacts) -> bool | None:
    """0.28 forces V2 (before the demoting list) for PCP, dspark, dflash drafts and diffusion."""
    pcp = _known(facts, "prefill_context_parallel_size")
    if pcp is UNKNOWN:
        return None
    if _int_above_one(pcp):
        return True
    method = speculative_method(facts)
    if method is UNKNOWN or method in ("dspark", "dflash") or method in RENAMEABLE_METHODS:
        return None  # dspark forces V2; dflash and renamed drafts may
    overrides = _known(facts, "hf_overrides")
    if overrides is UNKNOWN or (isinstance(overrides, Mapping) and overrides.get("canvas_length") is not ABSENT):
        return None  # may be a diffusion model
    model = _known(facts, "model")
    if isinstance(model, str) and "diffusiongemma" in model.lower():
        return True
    return False


def _value(fact: object) -> object:
    if isinstance(fact, Known):
        return fact.value
    if fact is ABSENT:
        return None
    return UNKNOWN


def _overridden_to_v2(facts: EngineFacts) -> bool | None:
    """0.30-0.33: watermarking or HiSparse select V2 whatever the variable says; None when unknown."""
    watermark = _known(facts, "watermark_config")
    attention = _known(facts, "attention_config")
    if watermark is UNKNOWN or attention is UNKNOWN:
        return None
    if watermark is not None:
        return True
    if isinstance(attention, Mapping):
        hisparse = attention.get("hisparse_config")
        if hisparse is UNKNOWN:
            return None
        if isinstance(hisparse, Known) and hisparse.value is not None:
            return True
    elif attention is not None:
        return None
    return False


def choose_runner(facts: EngineFacts, version: Version) -> RunnerChoice:
    profile = PROFILES.get(version.release)
    if profile is None:  # no V1 runner (0.34+) or no replay feature (<0.28)
        return NOT_CERTAIN
    if profile.overrides_before_env and _overridden_to_v2(facts) is not False:
        return NOT_CERTAIN
    env = facts.get_env(ENV_VAR)
    if isinstance(env, Known) or (env is not ABSENT and env is not UNKNOWN):
        value = env.value if isinstance(env, Known) else env
        if _env_choice(value) is False:
            return RunnerChoice(True, f"{ENV_VAR}={value} selects Model Runner V1", ENV_VAR)
        return NOT_CERTAIN
    if env is UNKNOWN:
        return NOT_CERTAIN
    if profile.forcing and _forced_v2_028(facts) is not False:
        return NOT_CERTAIN
    choice = _demotion(facts, profile)
    if choice.v1:
        return RunnerChoice(True, f"vLLM {version.major}.{version.minor} selects Model Runner V1: {choice.reason}", choice.setting)
    return choice
