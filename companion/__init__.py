"""Shared engine of the table companion: rulesets, games, journal."""

from companion import classcache

classcache.install()  # the methods of every dataclass made from here on compiled once, then kept
