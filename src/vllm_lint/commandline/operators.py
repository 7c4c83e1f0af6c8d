"""Platforms that hold a vLLM server's options as a map and start the server from it.

* KAITO: a ``ConfigMap`` whose ``inference_config.yaml`` holds a ``vllm:``
  mapping (a Workspace names the ConfigMap as its ``inference.config``).
  KAITO's server (``presets/workspace/inference/vllm/inference_api.py``) appends
  ``--KEY`` and ``str(VALUE)`` for each entry to vLLM's own parser's arguments;
  read as that command line, a boolean as the flag itself (``true``) or its
  absence (``false``).  The server runs in KAITO's image, whose vLLM no tag
  names: only options no known release has are reported.
* vLLM's production-stack Helm chart: a values file's
  ``servingEngineSpec.modelSpec[]`` entries.  The chart starts
  ``vllm serve MODEL_URL`` in ``REPOSITORY:TAG`` with the ``vllmConfig`` keys it
  maps to flags (``maxModelLen`` to ``--max-model-len``, ...) and then every
  ``vllmConfig.extraArgs`` word; the arguments the chart adds after them are
  unknown here.

The values of these maps are the platform's to pass: the findings point at the
keys and list items as written.
"""

from __future__ import annotations

from vllm_lint.launch.words import NONE, Word, open_word, synthetic

KAITO_CONFIG_KEY = "inference_config.yaml"
# production-stack's deployment-vllm-multi.yaml: vllmConfig keys and the flags it renders.
PRODUCTION_STACK_FLAGS = {
    "maxModelLen": "--max-model-len",
    "dtype": "--dtype",
    "tensorParallelSize": "--tensor-parallel-size",
    "maxNumSeqs": "--max-num-seqs",
    "gpuMemoryUtilization": "--gpu_memory_utilization",
    "maxLoras": "--max_loras",
    "runner": "--runner",
    "convert": "--convert",
}
PRODUCTION_STACK_SWITCHES = {"enableChunkedPrefill": "enable-chunked-prefill", "enablePrefixCaching": "enable-prefix-caching"}


def kaito_config_map(reader, root) -> bool:
    """A KAITO inference ConfigMap: its ``vllm:`` options launched as KAITO launches them."""
    import yaml

    from vllm_lint.launch.yamlsrc import PLACEHOLDER, scalar_offsets
    from vllm_lint.launch.yamlsrc import mapping_value as _get
    from vllm_lint.launch.yamlsrc import scalar_value as _scalar

    if _scalar(_get(root, "kind")) != "ConfigMap":
        return False
    block = _get(_get(root, "data"), KAITO_CONFIG_KEY)
    if not isinstance(block, yaml.ScalarNode) or PLACEHOLDER in block.value or "vllm" not in block.value:
        return False
    try:
        inner = yaml.compose(block.value, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return False
    options = _get(inner, "vllm")
    if not isinstance(options, yaml.MappingNode):
        return False
    offsets = scalar_offsets(reader.ctx.source.text, block)

    def located(node, text: str) -> Word:
        if offsets is None or node.end_mark.index > len(offsets):
            return Word(text, block.start_mark.index, block.end_mark.index, style=NONE)
        start, end = offsets[node.start_mark.index], offsets[max(node.end_mark.index - 1, node.start_mark.index)] + 1
        return Word(text, start, end, style=NONE)

    anchor = located(options, "vllm")
    words = [synthetic(text, anchor) for text in ("python3", "-m", "vllm.entrypoints.openai.api_server")]
    for key_node, value_node in options.value:
        key = _scalar(key_node)
        if key is None:
            words.append(open_word())
            continue
        flag = located(key_node, f"--{key}")
        if isinstance(value_node, yaml.ScalarNode) and value_node.tag == "tag:yaml.org,2002:bool":
            if value_node.value.lower() in ("true", "yes", "on"):
                words.append(flag)
            continue
        words.append(flag)
        value = _scalar(value_node)
        words.append(located(value_node, value) if value is not None else Word(None, flag.start, flag.end, style=NONE))
    before = len(reader.ctx.records)
    reader.ctx.launch_words(words, {}, True, root)
    for record in reader.ctx.records[before:]:
        record.facts.release_unknown = True  # KAITO's image: no tag names its vLLM
    return True


def production_stack_values(reader, root) -> bool:
    """A production-stack values file: each ``modelSpec`` entry's server, as the chart renders it."""
    import yaml

    from vllm_lint.launch.yamlsrc import PLACEHOLDER
    from vllm_lint.launch.yamlsrc import mapping_value as _get
    from vllm_lint.launch.yamlsrc import scalar_value as _scalar

    models = _get(_get(root, "servingEngineSpec"), "modelSpec")
    if not isinstance(models, yaml.SequenceNode):
        return False
    for spec in models.value:
        url_node = _get(spec, "modelURL")
        repository, tag = _scalar(_get(spec, "repository")), _scalar(_get(spec, "tag"))
        if url_node is None or repository is None:
            continue
        anchor = reader.item_word(url_node, NONE)
        words = [synthetic("vllm", anchor), synthetic("serve", anchor), anchor]
        config = _get(spec, "vllmConfig")
        if isinstance(config, yaml.MappingNode):
            for key_node, value_node in config.value:
                key = _scalar(key_node)
                key_word = reader.item_word(key_node, NONE)
                if key in PRODUCTION_STACK_SWITCHES:
                    on = _scalar(value_node) in ("true", "True", "yes", "on")
                    words.append(synthetic(("--" if on else "--no-") + PRODUCTION_STACK_SWITCHES[key], key_word))
                elif key in PRODUCTION_STACK_FLAGS:
                    words += [synthetic(PRODUCTION_STACK_FLAGS[key], key_word), reader.item_word(value_node, NONE)]
            extra = _get(config, "extraArgs")
            if extra is not None:
                extra_words = reader.words_of(extra)
                words += extra_words if extra_words is not None else [open_word()]
        words.append(open_word())  # what the chart adds after them (revision, KV transfer, chat template)
        image = f"{repository}:{tag}" if tag and PLACEHOLDER not in tag else repository
        reader._launch_in(image, words, {}, True, spec, _get(spec, "tag") or _get(spec, "repository"))
    return True
