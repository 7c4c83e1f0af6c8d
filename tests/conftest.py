import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os
import tempfile

# The checks that read the model look in the Hugging Face cache of the machine: the tests
# get an empty one, so that what this machine has cached changes no result.
os.environ["HF_HUB_CACHE"] = tempfile.mkdtemp(prefix="vllm-lint-hf-cache-")
