"""The station service: challenges to verdicts and journal rows, its lists, its PIN gate, its print desk."""
