from .cycle_a import CYCLE_KWARGS

KWARGS = dict(CYCLE_KWARGS)
