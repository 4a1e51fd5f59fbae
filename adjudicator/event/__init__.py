"""The event: its divisions, tables, PIN and versions over time, as both ends of the link read it."""
