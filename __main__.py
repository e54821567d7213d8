"""`python -m dumpscope` runs the same command as the `dumpscope` script."""

import sys

from dumpscope.tui.cli import main

sys.exit(main())
