"""dumpscope: compare golden and target layer dumps of a neural network.

The engine lives in :mod:`dumpscope.core` (no UI imports); the command line and the
terminal UI live in :mod:`dumpscope.tui`.
"""

__version__ = "0.1.0"
