"""``python -m bench.realmodels``: build and judge the real-model corpus."""

from bench.realmodels.run import main

raise SystemExit(main())
