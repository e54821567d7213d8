"""The hostile-input corpus: bad inputs for every reader, built with dumpscope's own writers."""
