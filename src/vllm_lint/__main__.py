import sys

from vllm_lint.cli import main

sys.exit(main())
