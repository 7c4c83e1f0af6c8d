from dataclasses import dataclass

from vllm.engine.arg_utils import AsyncEngineArgs, EngineArgs


@dataclass
class SpeedupArgs:
    sequence_shards: int = 1
    enable_shift_parallel: bool = False
    shift_parallel_threshold: int = 512


@dataclass
class SpeedupEngineArgs(EngineArgs, SpeedupArgs):
    pass


@dataclass
class SpeedupAsyncEngineArgs(AsyncEngineArgs, SpeedupArgs):
    pass
