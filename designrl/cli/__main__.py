"""``python -m designrl.cli``."""

import sys

from designrl.cli import main

sys.exit(main())
