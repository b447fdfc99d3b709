"""Electric inputs of the table: the serial die and the GPIO buttons."""
