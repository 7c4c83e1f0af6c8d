from dataclasses import dataclass

from vllm.engine.arg_utils import EngineArgs


@dataclass
class SpeedupEngineArgs(EngineArgs):
    sequence_shards: int = 1
