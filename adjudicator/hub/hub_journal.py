"""The hub's journal: every station's rows once, each station's highest gap-free sequence, tokens.

It is an ordinary journal file (its own hash chain; `adjudicator journal verify/export` read it),
plus three things only a hub has: a unique index on (origin journal, origin seq), so a row sent
twice is kept once; `hub_stations`, each station journal's acknowledged sequence and last row
hash; `hub_meta`, the station and director tokens (made once, kept with the journal so a restarted
hub accepts the same stations), the join code (`adjudicator join`'s address) and the event,
with each change as the director made it (who, when, what; `event_change:N` for version N),
and the alarm groups the director marked handled (`handled:GROUP`, hub/handled.py);
`hub_keys` and `hub_names`, the stations' keys and what each is bound to (identity.py);
`hub_firsts`, which journal id each row 1 came under; `hub_audit`, the hub's own judgement of
each row (audit.py), made when it arrived; `hub_row_names`, the name a row is held under when
it is not the row's own (a renamed station's row under a former name: identity.row_name). A
station's rows are accepted in order only: each must follow the last one held (seq and chain
link); rows after a gap wait for the station to resend.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone

from adjudicator.event.history import Check
from adjudicator.journal import chain
from adjudicator.journal.store import Journal
from adjudicator.wire import ROW_EVENT_VERSION
from adjudicator.hub.identity import base_name
from adjudicator.hub.refusals import Claimed, Full, RowsRefused
from adjudicator.hub.station_key import StationKey

HUB_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hub_stations (journal_id TEXT PRIMARY KEY, "
    "acked INTEGER NOT NULL, last_hash TEXT NOT NULL, station TEXT NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS challenges_origin ON challenges "
    "(origin_journal, origin_seq)",
    "CREATE TABLE IF NOT EXISTS hub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # station keys (identity.py): each bound to one journal and the name its rows carry;
    # accepted: 1 accepted, 0 waiting, -1 rejected, -2 dropped from a full waiting list
    "CREATE TABLE IF NOT EXISTS hub_keys (key_id TEXT PRIMARY KEY, secret TEXT NOT NULL, "
    "station TEXT NOT NULL, address TEXT NOT NULL, joined TEXT NOT NULL, "
    "accepted INTEGER NOT NULL, journal_id TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hub_names (name TEXT PRIMARY KEY, key_id TEXT NOT NULL)",
    # names a station held before the director renamed it (it may still send under them)
    ("CREATE TABLE IF NOT EXISTS hub_former_names (key_id TEXT NOT NULL, name TEXT NOT NULL, "
     "PRIMARY KEY (key_id, name))"),
    # row 1's hash -> the journal id it came under: a journal's rows are not taken under another
    "CREATE TABLE IF NOT EXISTS hub_firsts (hash TEXT PRIMARY KEY, journal_id TEXT NOT NULL)",
    # the hub's own judgement of each row (audit.py), made as it was received: the event
    # version the row said, when the hub got it (its clock), the Check as JSON
    ("CREATE TABLE IF NOT EXISTS hub_audit (seq INTEGER PRIMARY KEY, event_version INTEGER, "
     "received TEXT NOT NULL, result TEXT NOT NULL)"),
    # the name a row is held under, when not its own (exports: hub_station)
    "CREATE TABLE IF NOT EXISTS hub_row_names (seq INTEGER PRIMARY KEY, station TEXT NOT NULL)",
)
RENAMED = "renamed_seq:"  # hub_meta: a renamed key's journal's last row at its last rename
HANDLED = "handled:"  # hub_meta: an alarm group the director marked handled -> its count then
ROW_FIELDS = ("time_utc", "time_local", "station", "mode", "game_table", "round", "words",
              "acceptable", "lexicon_name", "fingerprint", "rule", "recheck_of",
              "secondary_agrees", "flags")
HUB_NAME = "(hub)"
CHECK = "check"  # a held row's key for the hub's judgement of it (JSON of a Check, or None)


class HubJournal:
    """The hub's merged journal; one writer (the hub process), called from one thread at a time."""

    def __init__(self, path: str):
        self.journal = Journal.open(path, split_window=0)
        self.path = self.journal.path

        def setup(conn):
            for statement in HUB_SCHEMA:
                conn.execute(statement)
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('station', ?)",
                         (HUB_NAME,))
        self.journal._write(setup)

    def close(self) -> None:
        self.journal.close()

    def tokens(self) -> tuple[str, str]:
        """(station token, director token), made on the first start and kept in the journal."""
        def get(conn):
            found = dict(conn.execute("SELECT key, value FROM hub_meta").fetchall())
            for key in ("station_token", "director_token"):
                if key not in found:
                    found[key] = secrets.token_urlsafe(16)
                    conn.execute("INSERT INTO hub_meta (key, value) VALUES (?, ?)",
                                 (key, found[key]))
            return found["station_token"], found["director_token"]
        return self.journal._write(get)

    def join_code(self) -> str:
        """The join code (a third secret: `adjudicator join` and the lists served with it),
        made on the first start and kept in the journal as the tokens are."""
        def get(conn):
            found = conn.execute("SELECT value FROM hub_meta WHERE key = 'join_code'").fetchone()
            if found:
                return found[0]
            code = secrets.token_urlsafe(12)
            conn.execute("INSERT INTO hub_meta (key, value) VALUES ('join_code', ?)", (code,))
            return code
        return self.journal._write(get)

    def last_event(self) -> dict | None:
        """The event as last journaled ({"event": ..., "division": [...]}), or None."""
        found = self.journal._query("SELECT value FROM hub_meta WHERE key = 'event'")
        return json.loads(found[0][0]) if found else None

    def record_event(self, event: dict, who: str, what: str) -> None:
        """A change of the event (to_dict shape, its version in it), journaled with who made it,
        when and what it changed; the event as it now is kept under `event`."""
        version = int(event["event"]["version"])
        change = {"version": version, "who": who, "what": what, "event": event,
                  "when": datetime.now(timezone.utc).isoformat(timespec="seconds")}

        def put(conn):
            conn.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES ('event', ?)",
                         (json.dumps(event, sort_keys=True),))
            conn.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)",
                         (f"event_change:{version:06d}", json.dumps(change, sort_keys=True)))
        self.journal._write(put)

    def event_changes(self) -> list[dict]:
        """Every journaled change of the event, oldest first."""
        return [json.loads(v) for (v,) in self.journal._query(
            "SELECT value FROM hub_meta WHERE key LIKE 'event_change:%' ORDER BY key")]

    def handled(self) -> dict[str, int]:
        """The alarm groups the director marked handled (handled.py), each with its count then."""
        return {k[len(HANDLED):]: int(v) for k, v in self.journal._query(
            "SELECT key, value FROM hub_meta WHERE key LIKE ?", (HANDLED + "%",))}

    def mark_handled(self, group: str, count: int | None) -> None:
        """GROUP marked handled at COUNT alarms; None: the mark goes (its cause ended)."""
        self.journal._write(lambda conn: conn.execute(
            "DELETE FROM hub_meta WHERE key = ?", (HANDLED + group,)) if count is None else
            conn.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)",
                         (HANDLED + group, str(count))))

    def acked(self) -> dict[str, int]:
        """{station journal id: highest sequence held without a gap}."""
        return dict(self.journal._query("SELECT journal_id, acked FROM hub_stations"))

    def keys(self) -> tuple[list[StationKey], dict[str, str]]:
        """The station keys kept (every one that sent a valid row, or was accepted) and the
        station names bound to them."""
        former: dict[str, set[str]] = {}
        for key_id, name in self.journal._query("SELECT key_id, name FROM hub_former_names"):
            former.setdefault(key_id, set()).add(name)
        marks = {key[len(RENAMED):]: int(value) for key, value in self.journal._query(
            "SELECT key, value FROM hub_meta WHERE key LIKE ?", (RENAMED + "%",))}
        keys = [StationKey(k, bytes.fromhex(secret), name, address, joined, accepted == 1,
                           journal_id, True, state=accepted,
                           former=frozenset(former.get(k, ())), renamed_seq=marks.get(k, 0))
                for k, secret, name, address, joined, accepted, journal_id in self.journal._query(
                    "SELECT key_id, secret, station, address, joined, accepted, journal_id "
                    "FROM hub_keys")]
        return keys, dict(self.journal._query("SELECT name, key_id FROM hub_names"))

    def keep_key(self, key: StationKey, takes: str = "") -> None:
        """Store KEY as it is now (the director accepted it); TAKES: the name it now holds (the
        one it waited under, or one it takes in place of the key that held it), bound to it
        from now on, so a restarted hub keeps whose name is whose."""
        def keep(conn) -> None:
            _keep(conn, key, key.journal_id, ())
            if takes:
                conn.execute("INSERT OR REPLACE INTO hub_names (name, key_id) VALUES (?, ?)",
                             (takes, key.key_id))
        self.journal._write(keep)

    def rename_key(self, key: StationKey, name: str) -> None:
        """The director renamed KEY: NAME is its one name from now on (its old one is free for
        another station, and one KEY may still send under: key.former)."""
        def keep(conn) -> None:
            conn.execute("DELETE FROM hub_names WHERE key_id = ?", (key.key_id,))
            conn.execute("INSERT OR REPLACE INTO hub_names (name, key_id) VALUES (?, ?)",
                         (name, key.key_id))
            conn.execute("DELETE FROM hub_former_names WHERE key_id = ?", (key.key_id,))
            conn.executemany("INSERT INTO hub_former_names (key_id, name) VALUES (?, ?)",
                             [(key.key_id, n) for n in sorted(key.former)])
            conn.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)",
                         (RENAMED + key.key_id, str(key.renamed_seq)))
        self.journal._write(keep)

    def set_state(self, key: StationKey) -> None:
        """KEY rejected by the director or dropped from a full waiting list: kept so (its
        journal stays its own, its rows count nowhere), its names free for others."""
        def keep(conn) -> None:
            _keep(conn, key, key.journal_id, ())
            conn.execute("DELETE FROM hub_names WHERE key_id = ?", (key.key_id,))
        self.journal._write(keep)

    def rows_of(self, journal_id: str) -> list[dict]:
        """Every held row of one station journal (a station the director has just accepted)."""
        return self._rows("WHERE c.origin_journal = ?", (journal_id,))

    def _rows(self, where: str = "", args: tuple = ()) -> list[dict]:
        """Held rows in order, each with the hub's judgement of it ("check": JSON, or None)."""
        cols = ("seq", "origin_journal", "origin_seq") + ROW_FIELDS
        return [dict(zip(cols + (CHECK,), r)) for r in self.journal._query(
            f"SELECT {', '.join('c.' + c for c in cols)}, a.result FROM challenges c "
            f"LEFT JOIN hub_audit a ON a.seq = c.seq {where} ORDER BY c.seq", args)]

    def accept(self, journal_id: str, rows: Iterable[Mapping], station: str = "",
               key: StationKey | None = None, limit: int | None = None,
               audit: Callable[[str, Mapping], Check] | None = None,
               named: Callable[[str, int], str] | None = None) -> tuple[int, list[dict]]:
        """Insert the rows that follow what is held for JOURNAL_ID; (acked seq, rows added).

        Rows already held are skipped (a resend), rows after a gap are left for the resend;
        a row whose chain link is wrong is RowsRefused, naming it. One transaction for the batch.
        STATION: the journal's own station name (its meta), which its row 1 chains from.
        LIMIT: rows held at most for this journal (a station not accepted yet), checked in the
        transaction, so concurrent batches cannot pass it together (Full when none fit).
        AUDIT(journal id, station row) -> the hub's judgement of each row added, kept beside it
        in the same transaction (a row is held with its judgement, or not at all).
        NAMED(station, seq) -> the name row SEQ is held under (identity.row_name), kept in
        hub_row_names when it is not the row's own.
        """
        journal_id = str(journal_id)
        if not journal_id:
            raise RowsRefused("a batch without the station's journal id")
        ordered = sorted(rows, key=lambda r: int(r["seq"]))
        added: list[dict] = []
        judged: list[tuple] = []  # hub_audit's rows for this batch
        renamed: list[tuple] = []  # hub_row_names' rows for this batch
        received = datetime.now(timezone.utc).isoformat()

        def body(conn) -> int:
            if key is not None:
                _owned(conn, key, journal_id, {str(r.get("station")) for r in ordered})
            held = conn.execute("SELECT acked, last_hash FROM hub_stations WHERE journal_id = ?",
                                (journal_id,)).fetchone()
            acked, last_hash = held if held else (0, None)
            for row in ordered:
                seq = int(row["seq"])
                if seq <= acked:
                    continue  # sent again after a lost answer: held once
                if limit is not None and seq > limit:
                    if not added:
                        raise Full(f"a new station holds {limit} rows at most until the "
                                   "director accepts it")
                    break
                if seq != acked + 1:
                    break  # a gap: the station resends from acked
                _check_link(row, last_hash, journal_id, station)
                if seq == 1:
                    _first(conn, journal_id, row["hash"])
                hub_row = {f: row[f] for f in ROW_FIELDS}
                hub_row["origin_journal"], hub_row["origin_seq"] = journal_id, seq
                if row["recheck_of"] is not None:
                    found = conn.execute("SELECT seq FROM challenges WHERE origin_journal = ? "
                                         "AND origin_seq = ?", (journal_id, row["recheck_of"])
                                         ).fetchone()
                    hub_row["recheck_of"] = found[0] if found else None
                [(hub_seq, _)] = self.journal._insert_all(conn, [hub_row], True, True)
                added.append({**hub_row, "seq": hub_seq, "origin_seq": seq})
                if audit is not None:
                    claimed = row.get(ROW_EVENT_VERSION)
                    found = _json(audit(journal_id, row))
                    judged.append((hub_seq, claimed if type(claimed) is int else None,  # noqa: E721
                                   received, found))
                    added[-1][CHECK] = found
                held_as = named(str(row["station"]), seq) if named is not None else ""
                if held_as and held_as != row["station"]:
                    renamed.append((hub_seq, held_as))
                acked, last_hash = seq, row["hash"]
            if renamed:
                conn.executemany("INSERT OR REPLACE INTO hub_row_names (seq, station) "
                                 "VALUES (?, ?)", renamed)
            if judged:
                conn.executemany("INSERT OR REPLACE INTO hub_audit (seq, event_version, "
                                 "received, result) VALUES (?, ?, ?, ?)", judged)
            if added and key is not None:
                _keep(conn, key, journal_id, {str(r["station"]) for r in added})
            if acked:
                conn.execute("INSERT OR REPLACE INTO hub_stations (journal_id, acked, last_hash,"
                             " station) VALUES (?, ?, ?, ?)", (journal_id, acked, last_hash,
                             str(ordered[-1]["station"]) if ordered else ""))
            return acked

        try:
            acked = self.journal._write(body, checkpoint=False)
        except (KeyError, TypeError, ValueError) as e:
            raise RowsRefused(f"a row from station journal {journal_id} is incomplete: {e}") from e
        if added:
            self.journal._anchor(added[-1]["seq"], self._head_hash())
        return acked, added

    def _head_hash(self) -> str:
        return self.journal._query("SELECT value FROM meta WHERE key = 'head_hash'")[0][0]

    def all_rows(self) -> list[dict]:
        """Every held row (for the board after a restart): origin, station, table, verdict,
        the hub's judgement..."""
        return self._rows()


_JSON: dict[Check, str] = {}  # a Check's JSON (most are alike: "agrees" at one version)


def _json(check: Check) -> str:
    found = _JSON.get(check)
    if found is None:
        if len(_JSON) > 1024:
            _JSON.clear()
        found = _JSON[check] = check.to_json()
    return found


def _keep(conn, key: StationKey, journal_id: str, names) -> None:
    conn.execute("INSERT OR REPLACE INTO hub_keys (key_id, secret, station, address, joined, "
                 "accepted, journal_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (key.key_id, key.secret.hex(), key.name, key.address, key.joined,
                  1 if key.accepted else min(key.state, 0), journal_id))
    for name in names:
        if base_name(name) and base_name(name) not in key.former:
            conn.execute("INSERT OR IGNORE INTO hub_names (name, key_id) VALUES (?, ?)",
                         (base_name(name), key.key_id))


def _owned(conn, key: StationKey, journal_id: str, names) -> None:
    """The journal and the names are KEY's or nobody's (checked again in the write, so two
    keys racing for one name cannot both have it)."""
    held = conn.execute("SELECT key_id FROM hub_keys WHERE journal_id = ? AND key_id != ?",
                        (journal_id, key.key_id)).fetchone()
    if held is not None:
        raise Claimed(f"station journal {journal_id} belongs to another station's key")
    own = conn.execute("SELECT journal_id FROM hub_keys WHERE key_id = ?", (key.key_id,)
                       ).fetchone()
    if own is not None and own[0] and own[0] != journal_id:
        raise Claimed("this station's key already sends another station journal")
    names = {n for n in names if base_name(n) not in key.former}  # its own, whoever holds it
    for name in names:
        held = conn.execute("SELECT key_id FROM hub_names WHERE name = ? AND key_id != ?",
                            (base_name(name), key.key_id)).fetchone()
        if held is not None:
            raise Claimed(f"the station name {base_name(name)!r} belongs to another station's "
                          "key: give this station another name")
    own = {n for (n,) in conn.execute("SELECT name FROM hub_names WHERE key_id = ?",
                                      (key.key_id,))}
    if len({base_name(n) for n in names} | own) > 1 and not key.accepted:
        raise Claimed(f"a station sends under one name: this station's is {sorted(own)[0]!r}"
                      if own else "a station sends under one name")


def _first(conn, journal_id: str, hash_: str) -> None:
    """Row 1 of a journal is taken under one journal id only: a journal made before journal
    ids were chained (its row 1 starts from 64 zeros) cannot be replayed under a second id."""
    held = conn.execute("SELECT journal_id FROM hub_firsts WHERE hash = ?", (hash_,)).fetchone()
    if held is not None and held[0] != journal_id:
        raise RowsRefused(f"row 1 of station journal {journal_id} was already sent as station "
                      f"journal {held[0]}'s (a journal replayed under another id)")
    conn.execute("INSERT OR IGNORE INTO hub_firsts (hash, journal_id) VALUES (?, ?)",
                 (hash_, journal_id))


def _check_link(row: Mapping, last_hash: str | None, journal_id: str, station: str) -> None:
    """The row must be the station's chained row: its own hash right, following the last held."""
    try:
        own = chain.link(row["prev_hash"], row)
    except (KeyError, TypeError, ValueError) as e:
        raise RowsRefused(f"row {row.get('seq')} of station journal {journal_id} is incomplete: "
                      f"{e}") from e
    if own != row["hash"]:
        raise RowsRefused(f"row {row['seq']} of station journal {journal_id} does not match its "
                      "hash (changed after it was recorded)")
    if last_hash is not None and row["prev_hash"] != last_hash:
        raise RowsRefused(f"row {row['seq']} of station journal {journal_id} does not follow the "
                      "row before it (the station's chain differs from what the hub holds)")
    if last_hash is None and row["prev_hash"] not in (
            chain.genesis(journal_id, station or str(row["station"])),
            chain.genesis(journal_id, str(row["station"])), chain.GENESIS):
        raise RowsRefused(f"row 1 of station journal {journal_id} does not start that journal's "
                      "chain (its journal id or station name is not the one it was recorded "
                      "under)")
