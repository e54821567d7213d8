"""Helpers shared by test modules: model builders, dump writers, paths, Pilot helpers. No tests here."""
