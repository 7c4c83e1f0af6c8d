# target-version: 0.33
# A driver that starts verl with Hydra overrides from an argv list.
import subprocess

overrides = [
    "actor_rollout_ref.rollout.name=vllm",
    "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",  # expect: VLM201, VLM202
]
subprocess.run(["python3", "-m", "verl.trainer.main_ppo", *overrides], check=True)

clean = [
    "trainer.val_before_train=false",
    "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",
    "actor_rollout_ref.rollout.top_k=64",
]
subprocess.run(["python3", "-m", "verl.trainer.main_ppo", *clean], check=True)
