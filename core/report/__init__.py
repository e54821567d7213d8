"""Writers of a Comparison: CSV (msaccucmp's columns first), JSON, Parquet, Markdown."""
