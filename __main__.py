"""`python -m dumpscope` runs the same command as the `dumpscope` script."""

import sys

from dumpscope.tui.cli.main import main

sys.exit(main())
