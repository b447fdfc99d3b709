"""Tőzsde: the ruleset of the Hungarian stock-exchange board game (see ``rules.py``)."""
