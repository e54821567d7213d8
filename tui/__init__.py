"""The dumpscope command line and terminal UI (Textual). Everything numeric lives in dumpscope.core."""
