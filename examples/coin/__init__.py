"""The coin game: a small example ruleset, a folder to copy into ``companion/rulesets/`` (docs/adding-a-game.md)."""
