"""Vendor side files read next to dumps: the ATC graph JSON, Ascend Opdebug overflow records,
msaccucmp/msit result CSVs."""
