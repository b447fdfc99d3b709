"""One module per screen: the behaviour behind the layout in ``ui/kv``."""
