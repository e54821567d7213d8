"""Facts about one compared row for the panes: tensor statistics, overflow and range checks, fusion groups."""
