"""An actor that inherits its constructor and its engine from ``ActorBase`` (another module)."""
from inference.nodes.base_actor import ActorBase


class PreferenceActor(ActorBase):
    def init(self, actor_id):
        super().init(actor_id)
        self.sampling_n = 2

    def step(self, prompts):
        return self.llm.generate(prompts)
