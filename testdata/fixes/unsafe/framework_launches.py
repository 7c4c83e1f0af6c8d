"""RL framework launches from Python argv lists: unsafe fixes add a key or turn a setting off."""
import subprocess


def rlvr(config: str = "qwen2.5-7B-rlvr_megatron"):
    # ROLL never sets logprobs_mode: the fix adds it after the replay override.
    subprocess.run(
        [
            "python",
            "examples/start_rlvr_pipeline.py",
            "--config_path",
            config,
            "+actor_infer.strategy_args.strategy_config.return_sampling_mask=true",
        ],
        check=True,
    )


def ppo_with_processors():
    argv = ["python3", "-m", "verl.trainer.main_ppo"]
    argv += [
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.logits_processors=[my_pkg.processors:NoRepeat]",
        "actor_rollout_ref.rollout.top_k=64",
        "actor_rollout_ref.rollout.val_kwargs.top_k=64",
        "actor_rollout_ref.rollout.val_kwargs.temperature=0.7",
    ]
    return subprocess.Popen(argv)
