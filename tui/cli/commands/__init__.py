"""One module per sub-command: HELP, add_arguments(parser), OPTIONS (the typed option groups its
run takes: its own ``Options`` dataclass, when it has options of its own, then shared groups) and
run(*groups) -> exit code."""
