from helpers import make_engine

SEED = 7

rollout = make_engine("Qwen/Qwen3-4B", return_sampling_mask=True, seed=SEED)
