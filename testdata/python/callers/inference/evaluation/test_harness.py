"""Tests build the harness model with literal arguments: each construction runs as written."""
import pytest

from inference.evaluation.harness import ReplayLM


def test_single_replica_builds_one_engine():
    ReplayLM(pretrained="EleutherAI/pythia-70m")


def test_expert_parallel_replicas_are_refused():
    with pytest.raises(ValueError):
        ReplayLM(pretrained="EleutherAI/pythia-70m", data_parallel_size=2, enable_expert_parallel=True)

