"""What a station keeps on disk across kiosk restarts: PIN lockout, director's session, last shown.

It sits beside the station's journal: JOURNAL.kiosk-state.json, rewritten whole and atomically
(the kiosk's log beside it is the supervisor's: supervisor/child.py). A missing or damaged state
file is an empty state.
"""

from __future__ import annotations

import json
import os
import tempfile

STATE_SUFFIX = ".kiosk-state.json"


def state_path(journal_path: str) -> str:
    return str(journal_path) + STATE_SUFFIX


def load_state(path: str | None) -> dict:
    """The saved state at PATH ({} when there is none or it cannot be read)."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def save_state(path: str | None, **changes) -> bool:
    """Merge CHANGES into the state at PATH, atomically; False when it could not be written."""
    if not path:
        return False
    state = load_state(path)
    state.update(changes)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kiosk-state-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass
        return False
