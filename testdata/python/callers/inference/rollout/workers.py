from inference.rollout import VLLMRollout


class RolloutWorker:
    def __init__(self, config, lora_rank: int = 0):
        self.config = config
        self._is_lora = lora_rank > 0
        self._lora_rank = lora_rank

    def build_rollout(self):
        lora_kwargs = (
            {"lora_kwargs": {"enable_lora": True, "max_loras": 1, "max_lora_rank": self._lora_rank}}
            if self._is_lora
            else {}
        )
        self.rollout = VLLMRollout(
            model_path=self.config.model_path,
            config=self.config.rollout,
            **lora_kwargs,
        )
