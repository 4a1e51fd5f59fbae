"""The wire between a station and the hub: rows, heartbeats and answers, checked field by field.

Both sides import this module and nothing else of each other: the station's sender
(adjudicator/link/) checks every answer with it, the hub (adjudicator/hub/) checks every message
before anything is stored. Types are exact (a bool is not an int, 1.0 is not an int, a number is
not a string) and every value has a range, because a value SQLite would convert on storage
changes a row's hash after the hub has acknowledged it (journal/chain.py says what a row holds).

Signing: a station signs each request body with its key (link/key.py): the hex HMAC-SHA256 of
the request path, a newline, and the body bytes, in the SIGNATURE header, with the key's id in
the KEY_ID header. The key itself travels once, in the body's `key` field, until the hub says it
knows it (`"known": true` in its answer).

The event (issue 27): the hub's answers to a station the director accepted carry the event
(`"event": event.to_dict(...)`); the station checks it whole (event_of) before it follows it.

Freshness (issue 26): every answer of the hub carries a `stamp`, the hub's clock in milliseconds
with the hub's own MAC (hub/stamps.py). A station sends the latest stamp it was given, followed
by "." and a number of its own that grows with each request, in the STAMP header, and the
signature then covers it: the path, a newline, the stamp, a newline, the body. The hub takes a
stamp only while it is young (its own clock: a station's may be wrong) and a signature only
once, so a request read off the network and sent again is refused. A station without a stamp yet
signs as before (a hub older than stamps never gives one); this hub answers it 401 with a stamp,
and the station signs again. A station's GET (a list the event changed to: link/join.py) is
signed the same way, its body empty.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping

from adjudicator.journal.chain import CHAIN_COLUMNS
from adjudicator.journal.rows import MODES

KEY_ID = "X-Adjudicator-Key"  # the station key's id (key_id(key))
SIGNATURE = "X-Adjudicator-Signature"  # sign(key, path, body)
NAME = "X-Adjudicator-Station"  # the station's name, URL-quoted: an alarm names it unread
STAMP = "X-Adjudicator-Stamp"  # the hub's latest stamp and the station's count (signed)
MAX_STAMP = 64  # characters of a stamp
STAMP_FORM = re.compile(r"[0-9]{1,15}\.[0-9a-f]{16}\Z")  # as the hub gives it
MAX_SEQ = 2**63 - 1  # SQLite's INTEGER
MAX_BATCH = 1000  # rows in one request (the sender sends 200)
MAX_TEXT = 500  # characters of a name, a time, a fingerprint...
MAX_LONG = 20_000  # characters of a row's words or flags
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
EVENT_VERSION = re.compile(r"[0-9]{1,12}\Z")  # a heartbeat's event_version (ASCII digits)
JOURNAL_ID = re.compile(r"[0-9A-Za-z_-]{1,64}\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")

# What each row column holds, exactly as stored in SQLite and hashed (journal/chain.py).
TEXT, OPT_TEXT, INT, OPT_INT, FLAG, OPT_FLAG, HASH = (
    "text", "text or null", "int", "int or null", "0 or 1", "0, 1 or null", "hash")
ROW_TYPES = {
    "seq": INT, "time_utc": TEXT, "time_local": TEXT, "station": TEXT, "mode": TEXT,
    "game_table": OPT_TEXT, "round": OPT_TEXT, "words": TEXT, "acceptable": FLAG,
    "lexicon_name": TEXT, "fingerprint": TEXT, "rule": OPT_TEXT, "recheck_of": OPT_INT,
    "secondary_agrees": OPT_FLAG, "flags": TEXT, "origin_journal": OPT_TEXT,
    "origin_seq": OPT_INT, "prev_hash": HASH, "hash": HASH,
}
assert set(ROW_TYPES) == set(CHAIN_COLUMNS)
# Beside a row's chained columns (never hashed): the event version it was judged under (issue
# 40), absent from a station older than that or one that had taken no version yet. The hub
# reads it as a claim and decides itself what was in force (hub/audit.py).
ROW_EVENT_VERSION = "event_version"
MAX_EVENT_VERSION = 10**12 - 1
BEAT_TEXT = ("station", "clock", "mode", "lexicon", "fingerprint", "printer", "status_problem",
             "sender", "divisions", "locked", "event_version")  # the last three: issue 27
# A heartbeat's lists by division (issue 32): one entry per division the station serves, each
# exactly these four texts ("" division: a station serving none, its one list); older stations
# send only lexicon and fingerprint, which the hub still reads.
LISTS = "lists"
GIVEN_NAME = "name"  # in the hub's answer: the name the director gave the station
MAX_NAME = 60  # characters of a name the director gives a station
LIST_FIELDS = {"division": 40, "lexicon": 60, "fingerprint": 64, "rule": 40}  # characters
MAX_LISTS = 16  # entries (an event has at most 26 divisions; a station serves a few)


class WireError(ValueError):
    """A message that is not what the other side sends: says which field and why."""


def _int(value, where: str, low: int = 0, high: int = MAX_SEQ) -> int:
    if type(value) is not int:  # noqa: E721 - bool and float are refused on purpose
        raise WireError(f"{where} must be a whole number, not {_kind(value)}")
    if not low <= value <= high:
        raise WireError(f"{where} must be from {low} to {high}")
    return value


def _text(value, where: str, limit: int = MAX_TEXT, empty: bool = True) -> str:
    if type(value) is not str:  # noqa: E721
        raise WireError(f"{where} must be text, not {_kind(value)}")
    if len(value) > limit:
        raise WireError(f"{where} is longer than {limit} characters")
    if _SURROGATE.search(value):  # JSON's "\\ud800" alone: no journal can store it as text
        raise WireError(f"{where} holds a lone surrogate (not text a journal can hold)")
    if not empty and not value.strip():
        raise WireError(f"{where} is empty")
    return value


def check_text(value, where: str, limit: int = MAX_TEXT) -> str:
    """VALUE when it is text a journal holds, not empty, at most LIMIT characters; else
    WireError saying WHERE."""
    value = _text(value, where, limit, empty=False)
    if any(not c.isprintable() for c in value):
        raise WireError(f"{where} holds a control or invisible character")
    return value.strip()


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def check_row(row, where: str = "row") -> dict:
    """ROW (one outbox row: chain.CHAIN_COLUMNS) with every field of the exact type and range."""
    if not isinstance(row, dict):
        raise WireError(f"{where} must be an object, not {_kind(row)}")
    seq = row.get("seq")
    where = f"row {seq}" if type(seq) is int else where  # noqa: E721
    missing = [c for c in ROW_TYPES if c not in row]
    if missing:
        raise WireError(f"{where} has no {missing[0]}")
    extra = sorted(set(row) - set(ROW_TYPES) - {ROW_EVENT_VERSION})
    if extra:
        raise WireError(f"{where}: {extra[0][:40]!r} is not a row field")
    for column, kind in ROW_TYPES.items():
        value, at = row[column], f"{where}: {column}"
        if kind == INT or (kind == OPT_INT and value is not None):
            _int(value, at, low=1)
        elif kind in (FLAG, OPT_FLAG) and not (kind == OPT_FLAG and value is None):
            if type(value) is not int or value not in (0, 1):  # noqa: E721
                raise WireError(f"{at} must be 0 or 1, not {_kind(value)}")
        elif kind == HASH:
            if type(value) is not str or not HEX64.match(value):  # noqa: E721
                raise WireError(f"{at} must be 64 lowercase hex digits")
        elif kind == TEXT or value is not None:
            long = column in ("words", "flags")
            _text(value, at, MAX_LONG if long else MAX_TEXT,
                  empty=column not in ("words", "time_utc"))
    if row.get(ROW_EVENT_VERSION) is not None:
        _int(row[ROW_EVENT_VERSION], f"{where}: {ROW_EVENT_VERSION}", low=1,
             high=MAX_EVENT_VERSION)
    if row["mode"] not in MODES:
        raise WireError(f"{where}: mode must be one of {', '.join(MODES)}")
    if row["recheck_of"] is not None and row["recheck_of"] >= row["seq"]:
        raise WireError(f"{where}: recheck_of must be an earlier row")
    try:
        flags = json.loads(row["flags"])
    except (ValueError, RecursionError):  # "[[[[...": nested deeper than Python reads
        flags = None
    if not isinstance(flags, list) or not all(type(f) is str for f in flags):  # noqa: E721
        raise WireError(f"{where}: flags must be a JSON list of text")
    return row


def _envelope(body, what: str) -> dict:
    if not isinstance(body, dict):
        raise WireError(f"{what} must be a JSON object, not {_kind(body)}")
    journal_id = body.get("journal_id")
    if type(journal_id) is not str or not JOURNAL_ID.match(journal_id):  # noqa: E721
        raise WireError(f"{what}: journal_id must be a journal's id (letters and digits)")
    _text(body.get("station", ""), f"{what}: station")
    if "key" in body:
        key = body["key"]
        if type(key) is not str or not HEX64.match(key):  # noqa: E721
            raise WireError(f"{what}: key must be 64 lowercase hex digits")
    return body


def check_rows_body(body) -> dict:
    """A POST /api/rows body: journal_id, station, rows (each check_row), key when first sent."""
    _envelope(body, "a batch")
    extra = sorted(set(body) - {"journal_id", "station", "rows", "key"})
    if extra:
        raise WireError(f"a batch: {extra[0][:40]!r} is not a field of a batch")
    rows = body.get("rows")
    if not isinstance(rows, list):
        raise WireError(f"a batch: rows must be a list, not {_kind(rows)}")
    if len(rows) > MAX_BATCH:
        raise WireError(f"a batch holds at most {MAX_BATCH} rows")
    for i, row in enumerate(rows):
        check_row(row, f"row #{i + 1} of the batch")
    return body


def check_heartbeat(body) -> dict:
    """A POST /api/heartbeat body: journal_id, last_seq, and text fields (BEAT_TEXT)."""
    _envelope(body, "a heartbeat")
    extra = sorted(set(body) - {"journal_id", "last_seq", "key", LISTS, *BEAT_TEXT})
    if extra:
        raise WireError(f"a heartbeat: {extra[0][:40]!r} is not a field of a heartbeat")
    _int(body.get("last_seq"), "a heartbeat: last_seq")
    for name in BEAT_TEXT:
        if name in body:
            _text(body[name], f"a heartbeat: {name}")
    version = body.get("event_version", "")
    if version and not EVENT_VERSION.match(version):  # "²" is a digit to str.isdigit()
        raise WireError("a heartbeat: event_version must be a number in the digits 0-9")
    if body.get("locked", "") not in ("", "yes", "no"):
        raise WireError("a heartbeat: locked must be yes or no")
    if LISTS in body:
        check_lists(body[LISTS])
    return body


def check_lists(lists) -> list:
    """A heartbeat's lists: at most MAX_LISTS objects of exactly LIST_FIELDS, each text within
    its length, a fingerprint "" or 64 lowercase hex digits, no division named twice."""
    where = "a heartbeat: lists"
    if not isinstance(lists, list):
        raise WireError(f"{where} must be a list, not {_kind(lists)}")
    if len(lists) > MAX_LISTS:
        raise WireError(f"{where} holds at most {MAX_LISTS} divisions")
    seen = set()
    for i, entry in enumerate(lists):
        at = f"{where} #{i + 1}"
        if not isinstance(entry, dict):
            raise WireError(f"{at} must be an object, not {_kind(entry)}")
        if set(entry) != set(LIST_FIELDS):
            odd = sorted(set(entry) ^ set(LIST_FIELDS))[0]
            raise WireError(f"{at}: {odd[:40]!r} " + ("is not a field of it" if odd in entry
                                                       else "is missing"))
        for name, limit in LIST_FIELDS.items():
            _text(entry[name], f"{at}: {name}", limit)
        if entry["fingerprint"] and not HEX64.match(entry["fingerprint"]):
            raise WireError(f"{at}: fingerprint must be 64 lowercase hex digits")
        if entry["division"].casefold() in seen:
            raise WireError(f"{at}: division {entry['division'][:40]!r} is named twice")
        seen.add(entry["division"].casefold())
    return lists


def list_entry(division: str, lexicon: str, fingerprint: str, rule: str) -> dict:
    """One entry of a heartbeat's lists, each text cut to its bound (check_lists takes it)."""
    fingerprint = str(fingerprint)
    return {"division": str(division)[:LIST_FIELDS["division"]],
            "lexicon": str(lexicon)[:LIST_FIELDS["lexicon"]],
            "fingerprint": fingerprint if HEX64.match(fingerprint) else "",
            "rule": str(rule or "")[:LIST_FIELDS["rule"]]}


def check_ack(answer) -> tuple[int, bool]:
    """The hub's answer to a station: (acked, whether the hub knows the station's key)."""
    if not isinstance(answer, dict):
        raise WireError(f"the hub's answer is not a JSON object but {_kind(answer)}")
    acked = _int(answer.get("acked"), "the hub's answer: acked")
    known = answer.get("known", False)
    if type(known) is not bool:  # noqa: E721
        raise WireError("the hub's answer: known must be true or false")
    return acked, known


def event_of(answer):
    """The event an answer of the hub carries (issue 27: to a station the director accepted),
    checked whole as a config is (event.parse_event); None when it carries none. WireError for
    anything else, so a bad event is refused like any bad answer."""
    from adjudicator.event.setup import EventError, parse_event

    said = answer.get("event") if isinstance(answer, dict) else None
    if said is None:
        return None
    if not isinstance(said, dict) or set(said) != {"event", "division"}:
        raise WireError("the hub's answer: event must be an object of event and division")
    try:
        event = parse_event(said["event"], said["division"], "the hub's event")
    except EventError as e:
        raise WireError(str(e)[:200]) from None
    if not event.divisions:
        raise WireError("the hub's answer: an event has at least one division")
    return event


def name_given(answer) -> str:
    """The name the director gave the station, as the hub's answer carries it ("" when it does
    not: a station not accepted, an older hub). WireError when it is not one line of text."""
    said = answer.get(GIVEN_NAME) if isinstance(answer, dict) else None
    return "" if said is None else check_text(said, "the hub's answer: name", MAX_NAME)


def refusal(answer) -> str:
    """The hub's reason in a refusal's body ("" when it gave none a person can read)."""
    why = answer.get("error") if isinstance(answer, dict) else None
    return why[:300] if type(why) is str else ""  # noqa: E721


def decode(data: bytes):
    """A JSON body as Python values; WireError for bytes that are not JSON text (NaN and
    Infinity are refused, as are numbers too long to read)."""
    def no_constant(name):
        raise WireError(f"{name} is not a number JSON allows")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=no_constant)
    except WireError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise WireError(f"not JSON: {str(e)[:80]}") from None


def key_id(key: bytes) -> str:
    """A station key's public name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(key).hexdigest()[:16]


def sign(key: bytes, path: str, body: bytes, stamp: str = "") -> str:
    """The signature of a request: of PATH and BODY, and of STAMP when the station has one."""
    said = path.encode("ascii") + b"\n"
    if stamp:
        said += stamp.encode("ascii", "replace") + b"\n"
    return hmac.new(key, said + body, hashlib.sha256).hexdigest()


def signed_by(key: bytes, path: str, body: bytes, signature: str | None,
              stamp: str | None = None) -> bool:
    """True when SIGNATURE is KEY's of PATH, BODY (and STAMP, which the hub requires)."""
    return bool(signature) and hmac.compare_digest(
        sign(key, path, body, stamp or "").encode("ascii"),
        str(signature).encode("ascii", "replace"))


def stamp_of(answer) -> str:
    """The hub's stamp in an answer or a refusal ("" when it gave none, or not one of its)."""
    stamp = answer.get("stamp") if isinstance(answer, dict) else None
    return stamp if type(stamp) is str and STAMP_FORM.match(stamp) else ""  # noqa: E721


def encode(body: Mapping) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode("utf-8")
