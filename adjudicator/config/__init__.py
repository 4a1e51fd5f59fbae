"""A station's configuration file: read, checked, and written back with its comments kept."""
