"""Die Börse, the German stock-exchange board game: rules, track, risk deck and texts.

The data (``ruleset.json``, ``track.json``, ``deck.json``) and the texts (``locale/*/LC_MESSAGES/boerse.po``)
holds every amount; :mod:`.rules` holds what data cannot say.
"""
