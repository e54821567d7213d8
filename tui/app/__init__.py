"""The Textual explorer: the app, its widgets (panes), screens, keymap and palette."""
