"""msprobe dumps compared: bench <-> NPU pairing, statistics-mode columns and rules, the per-step/rank
driver, the app view."""
