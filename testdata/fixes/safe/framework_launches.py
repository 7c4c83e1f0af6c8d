"""RL framework launches from Python argv lists: an override token is fixed in its string."""
import subprocess

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def train_ppo(extra_gpus: int = 0):
    overrides = [
        f"actor_rollout_ref.model.path={MODEL}",
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.logprobs_mode=raw_logprobs",  # replay needs processed
        "actor_rollout_ref.rollout.top_k=64",
        "actor_rollout_ref.rollout.val_kwargs.top_k=64",
        "actor_rollout_ref.rollout.val_kwargs.temperature=0.7",
    ]
    subprocess.run(["python3", "-m", "verl.trainer.main_ppo", *overrides], check=True)


# The same list starts two launches: an edit would change both, so the finding stays unfixed.
SHARED = [
    "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",
    "+actor_rollout_ref.rollout.engine_kwargs.vllm.logprobs_mode=raw_logits",
    "actor_rollout_ref.rollout.top_k=64",
    "actor_rollout_ref.rollout.val_kwargs.top_k=64",
    "actor_rollout_ref.rollout.val_kwargs.temperature=0.7",
]
subprocess.run(["python3", "-m", "verl.trainer.main_ppo", *SHARED], check=True)
subprocess.run(["python3", "-m", "verl.trainer.main_ppo", "trainer.total_epochs=2", *SHARED], check=True)
