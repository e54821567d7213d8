"""Comparing two dumps: pairing, the metric kernel, the health judge, the pipeline and the Comparison it
returns."""
