import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--pretrain")
parser.add_argument("--async-train", action="store_true")
args = parser.parse_args()

if args.async_train:
    from inference.rollout.ray_engines import LLMRayActorAsync as LLMRayActor
else:
    from inference.rollout.ray_engines import LLMRayActor

from inference.rollout.ray_engines import create_vllm_engines

# Without --async-train the factory starts LLMRayActor, whose __init__ reaches the keywords through
# super().__init__ in its base class: the engine it builds for this call has no logprobs_mode.
vllm_engines = create_vllm_engines(2, args.pretrain, True, LLMRayActor)  # expect: VLM105
