"""Widgets of the explorer: the layer list and the side panes."""
