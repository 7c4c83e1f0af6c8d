"""How long ``vllm-lint server`` takes to answer a change to a 2,000-line file.

The real server is started over stdio (``python -m vllm_lint server``) and
driven by pygls's language client, as an editor drives it: the document is
opened, then changed again and again (full text each time), each change
switching the finding on or off.  The latency of a change is the time from
sending ``textDocument/didChange`` to receiving the ``publishDiagnostics``
for that version, less the debounce the server waits for typing to pause.
The server's own CPU time per change is reported too (Linux ``/proc``): other
work on a shared machine stretches the latency, not that figure.

    python benchmarks/server_latency.py [--lines 2000] [--changes 40] [--debounce-ms 50]

Needs the ``server`` extra (pygls, lsprotocol).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ENGINE = """

def build_policy(model: str = POLICY_MODEL) -> LLM:
    return LLM(
        model=model,
        tensor_parallel_size=TENSOR_PARALLEL_SIZE,
        return_sampling_mask=True,{logprobs}
    )
"""

HELPER = '''

def reward_{index}(samples: list[dict], scale: float = {scale}) -> list[float]:
    """Reward of batch {index}: length-normalised score of each sample."""
    rewards = []
    for sample in samples:
        tokens = sample.get("token_ids", [])
        score = sum(1 for token in tokens if token % {modulus} == 0)
        rewards.append(scale * score / max(len(tokens), 1))
    return rewards
'''


def python_document(lines: int, fixed: bool) -> str:
    """A training module of about ``lines`` lines with one engine (its finding on or off)."""
    head = (
        '"""Rollout and reward helpers of the PPO trainer."""\nfrom vllm import LLM\n\n'
        'POLICY_MODEL = "Qwen/Qwen3-8B"\nTENSOR_PARALLEL_SIZE = 2\n'
    )
    parts = [head]
    index = 0
    while sum(part.count("\n") for part in parts) < lines - 10:
        parts.append(HELPER.format(index=index, scale=1 + index % 7 / 10, modulus=2 + index % 5))
        index += 1
    logprobs = '\n        logprobs_mode="processed_logprobs",' if fixed else ""
    parts.append(ENGINE.format(logprobs=logprobs))
    return "".join(parts)


def shell_document(lines: int, fixed: bool) -> str:
    """A launch script of about ``lines`` lines ending with a ``vllm serve`` command."""
    body = ["#!/usr/bin/env bash", "set -euo pipefail"]
    index = 0
    while len(body) < lines - 6:
        body += [
            f'echo "preparing shard {index}"',
            f"mkdir -p /data/shards/{index}",
            f"cp /data/raw/{index}.jsonl /data/shards/{index}/",
        ]
        index += 1
    logprobs = " \\\n  --logprobs-mode processed_logprobs" if fixed else ""
    body += ['vllm serve "${MODEL:-Qwen/Qwen3-8B}" \\', "  --port 8000 \\", f"  --return-sampling-mask{logprobs}"]
    return "\n".join(body) + "\n"


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process so far (Linux ``/proc``), or None."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError, TypeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(path: Path, make, lines: int, changes: int, debounce_ms: int, language: str) -> tuple[list[float], float | None]:
    """The latency of each change (ms, debounce excluded), and the server's CPU time per change (ms)."""
    client = LanguageClient("server-latency", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Condition()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    async def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        async with arrived:
            published[params.version] = time.perf_counter()
            arrived.notify_all()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        print(f"server: {params.message}", file=sys.stderr)

    async def wait_for(version: int) -> float:
        async with arrived:
            await asyncio.wait_for(arrived.wait_for(lambda: version in published), timeout=60)
            return published[version]

    await client.start_io(sys.executable, "-m", "vllm_lint", "server", cwd=str(path.parent))
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=path.parent.as_uri(),
            initialization_options={"debounceMs": debounce_ms},
        )
    )
    client.initialized(types.InitializedParams())
    uri = path.as_uri()
    texts = [make(lines, fixed=False), make(lines, fixed=True)]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id=language, version=1, text=texts[0]))
    )
    await wait_for(1)
    server = getattr(client, "_server", None)  # the server's process: pygls keeps it there
    pid = getattr(server, "pid", None)
    cpu_before = cpu_seconds(pid)
    latencies = []
    for version in range(2, changes + 2):
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=texts[version % 2])],
            )
        )
        answered = await wait_for(version)
        latencies.append((answered - sent) * 1000 - debounce_ms)
    cpu_after = cpu_seconds(pid)
    cpu_per_change = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) * 1000 / changes
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, cpu_per_change


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--debounce-ms", type=int, default=50)
    parser.add_argument("--budget-ms", type=float, default=100.0, help="exit 1 when the median is above this")
    args = parser.parse_args(argv)
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, make, language in (("rollout.py", python_document, "python"), ("launch.sh", shell_document, "shellscript")):
            path = Path(folder) / name
            path.write_text(make(args.lines, fixed=False))
            latencies, cpu = asyncio.run(measure(path, make, args.lines, args.changes, args.debounce_ms, language))
            ordered = sorted(latencies)
            median = statistics.median(ordered)
            p90 = ordered[int(0.9 * (len(ordered) - 1))]
            print(
                f"{name} ({len(make(args.lines, False).splitlines())} lines): after the {args.debounce_ms} ms debounce, "
                f"median {median:.1f} ms, p90 {p90:.1f} ms, max {ordered[-1]:.1f} ms over {len(ordered)} changes"
                + (f"; server CPU {cpu:.0f} ms per change" if cpu is not None else "")
            )
            worst = max(worst, median)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average while measuring: {load} on {os.cpu_count()} CPUs (other work on the machine adds to the figures)")
    return 0 if worst <= args.budget_ms else 1


if __name__ == "__main__":
    sys.exit(main())
