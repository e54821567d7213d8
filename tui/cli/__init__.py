"""The ``dumpscope`` command line: ``main``, shared argument groups and one module per sub-command."""
