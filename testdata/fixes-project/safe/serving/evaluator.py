"""Reads the shared settings without replay concerns of its own."""
from .settings import SHARED_KWARGS

print(sorted(SHARED_KWARGS))
