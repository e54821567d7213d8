"""Diagnosis: graph edges, classification, checks, ranking of root causes, advice and the Markdown report."""
