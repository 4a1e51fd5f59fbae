"""Files a command writes: through symlinks, atomically, never half-written."""
