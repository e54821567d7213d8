"""The dumpscope engine: formats, pairing, metrics, analysis. No UI imports here."""
