"""Shared engine of the table companion: rulesets, games, journal.

Importing it changes nothing outside it: the cache of the dataclasses' methods
(:mod:`companion.classcache`) is the touchscreen app's to install, at its own start
(:func:`ui.launch.speed_up_start`).
"""
