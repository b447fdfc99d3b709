"""The stock games, one folder each."""
