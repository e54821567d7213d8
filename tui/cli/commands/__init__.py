"""One module per sub-command: HELP, add_arguments(parser) and run(args) -> exit code."""
