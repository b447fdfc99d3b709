"""Shared engine of the table companion: rulesets, games, journal."""
