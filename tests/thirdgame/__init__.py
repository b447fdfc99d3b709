"""A tiny third game, used by the tests to show a ruleset needs no core edits."""
