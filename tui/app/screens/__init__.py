"""Screens of the explorer: tensor detail, help, lookup, export, messages."""
