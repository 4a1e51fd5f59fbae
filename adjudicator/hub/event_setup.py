"""The event in hub.toml: each division's list found and pinned by fingerprint; changes saved.

At start every division's list is resolved (a name on the hub's lexicon shelf, or a file) and
must be an official tournament list (lexicons/known.toml): a list the hub cannot find, an
unofficial one, or one whose pinned fingerprint differs is one line, exit 6 (EventError). The
director's panel changes the event: hub.toml is edited in place (tomlkit: comments and layout
kept), only the values that changed rewritten.
"""

from __future__ import annotations

import os
from dataclasses import replace

from adjudicator.errors import LexiconError
from adjudicator.event.setup import Division, Event, EventError, to_dict
from adjudicator.config.tomlfile import read_toml, write_atomic


def pin_lists(event: Event, config_path: str = "") -> tuple[Event, dict[str, str]]:
    """(EVENT with every division's fingerprint pinned, {fingerprint: compiled file}); a
    division names its list as the hub has it (CSW19, never a path). A relative file is taken
    beside CONFIG_PATH."""
    from adjudicator.lexicon.library import load_lexicon

    lists: dict[str, str] = {}
    divisions = []
    for d in event.divisions:
        spec = d.lexicon
        if config_path and not os.path.isabs(os.path.expanduser(spec)):
            beside = os.path.join(os.path.dirname(os.path.abspath(config_path)), spec)
            spec = beside if os.path.isfile(beside) else spec
        try:
            lex = load_lexicon(os.path.expanduser(spec))
        except LexiconError as e:
            raise EventError(f"division {d.name}: its list {d.lexicon!r} cannot be used: "
                             f"{e}") from None
        known = lex.identity.known
        if known is None or not known.tournament:
            what = "an unrecognised list" if known is None else "not a tournament word list"
            raise EventError(f"division {d.name}: {d.lexicon!r} is {what} ({lex.name}, "
                             f"fingerprint {lex.fingerprint[:12]}): an event judges with an "
                             "official list (see 'adjudicator lexicon list')")
        if d.fingerprint and d.fingerprint != lex.fingerprint:
            raise EventError(f"division {d.name}: {d.lexicon!r} is {known.id} "
                             f"({lex.fingerprint[:12]}), not the list pinned for it "
                             f"({d.fingerprint[:12]})")
        lists[lex.fingerprint] = lex.path
        divisions.append(replace(d, lexicon=known.id, fingerprint=lex.fingerprint))
    return replace(event, divisions=tuple(divisions)), lists


def with_tsh_tables(event: Event, tourney: dict) -> Event:
    """EVENT with tsh's tables for each division that gives none: tsh's `config tables` for
    the division of the same name (its boards' tables); checked again whole (no overlaps)."""
    from adjudicator.event.setup import parse_event, to_dict
    from adjudicator.hub.tsh import NAME_CHARS

    config = tourney.get("config") if isinstance(tourney.get("config"), dict) else {}
    tables = config.get("tables") if isinstance(config.get("tables"), dict) else {}
    by_name = {str(k)[:NAME_CHARS].casefold(): v for k, v in tables.items()}
    shape = to_dict(event)
    for d in shape["division"]:
        numbers = by_name.get(d["name"].casefold())
        if d["tables"] or not isinstance(numbers, list):
            continue
        found = sorted({int(n) for n in numbers[:10_000]
                        if (type(n) is int or isinstance(n, str) and n.isascii()  # noqa: E721
                            and n.isdigit() and len(n) <= 4) and 1 <= int(n) <= 9999})
        d["tables"] = _ranges(found)
    return parse_event(shape["event"], shape["division"], "tsh's tables")


def _ranges(numbers: list[int]) -> str:
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def shelf_lists() -> dict[str, tuple[str, str]]:
    """The official tournament lists the hub can offer: {id: (fingerprint, file)}, from its
    shelf and lexicon folders (the director's panel chooses among these, by name)."""
    from adjudicator.lexicon.compiled import Lexicon
    from adjudicator.lexicon.library import available

    found: dict[str, tuple[str, str]] = {}
    for path in available():
        if not path.lower().endswith(".lex"):
            continue
        try:
            ident = Lexicon.load(path).identity
        except LexiconError:
            continue
        if ident.known is not None and ident.known.tournament:
            found.setdefault(ident.known.id, (ident.fingerprint, path))
    return found


def save_event(path: str, event: Event, before: Event | None = None,
               from_tsh: frozenset[str] = frozenset()) -> None:
    """EVENT into hub.toml at PATH, in place: [event] name and pin_hash, one [[division]] per
    division; a division whose list is unchanged since BEFORE keeps its lexicon as written (a
    file stays a file), one whose tables came from tsh (FROM_TSH, unchanged) keeps none."""
    import tomlkit

    doc = read_toml(path, "the hub config")
    table = doc.get("event")
    if not isinstance(table, dict):
        table = tomlkit.table()
        doc["event"] = table
    for key, value in (("name", event.name), ("pin_hash", event.pin_hash)):
        if value or key in table:
            if table.get(key) != value:
                table[key] = value
    written = {str(d.get("name", "")).casefold(): d for d in doc.get("division", [])
               if isinstance(d, dict)}
    old = {d.name.casefold(): d for d in (before.divisions if before else ())}
    array = tomlkit.aot()
    for d in event.divisions:
        item = written.get(d.name.casefold())
        if item is None:
            item = tomlkit.table()
        _trim(item)
        was = old.get(d.name.casefold())
        values = {"name": d.name, "challenge_rule": d.challenge_rule.value}
        if was is None or was.fingerprint != d.fingerprint or "lexicon" not in item:
            values["lexicon"] = d.lexicon
        tsh_s = d.name in from_tsh and was is not None and was.tables == d.tables
        if (d.tables or "tables" in item) and not tsh_s:
            values["tables"] = d.tables_text
        for key, value in values.items():
            if item.get(key) != value:
                item[key] = value
        if "fingerprint" in item and item["fingerprint"] != d.fingerprint:
            item["fingerprint"] = d.fingerprint
        array.append(item)
    if "division" in doc and event.divisions:
        doc["division"] = array  # in its place: a delete then append left a blank line a save
    elif event.divisions:
        doc.append("division", array)
    elif "division" in doc:
        del doc["division"]
    write_atomic(path, tomlkit.dumps(doc), "the hub config")


def _trim(item) -> None:
    """ITEM (a [[division]] as read) without the blank lines that end it: the array puts its
    own between tables, so hub.toml keeps its size across saves (it grew a line a save)."""
    from tomlkit.items import Whitespace

    body = item.value.body
    while body and body[-1][0] is None and isinstance(body[-1][1], Whitespace):
        body.pop()


def set_hub_pin(path: str, pin_hash: str) -> None:
    """`adjudicator set-pin --config hub.toml`: the event's PIN hash in hub.toml, in place."""
    import tomlkit

    doc = read_toml(path, "the hub config")
    table = doc.get("event")
    if not isinstance(table, dict):
        table = tomlkit.table()
        doc["event"] = table
    table["pin_hash"] = pin_hash
    write_atomic(path, tomlkit.dumps(doc), "the hub config")


def pin_hash_in(path: str) -> str | None:
    """The event's pin_hash as hub.toml holds it now (set-pin may have run since the start)."""
    import tomllib

    try:
        with open(path, "rb") as f:
            event = tomllib.load(f).get("event")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    pin = event.get("pin_hash") if isinstance(event, dict) else None
    return pin if isinstance(pin, str) and len(pin) <= 400 and pin.isprintable() else None


def is_hub_config(path: str) -> bool:
    """True when PATH reads as a hub's config, not a station's: only hub keys (journal, tsh,
    [event] as a table, [[division]]), and an [event] table, a `tsh` key, or a name saying so
    (hub.toml as `adjudicator hub` writes it holds only its journal). set-pin writes the
    event's PIN there."""
    import tomllib

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    if not set(data) <= {"journal", "tsh", "event", "division"}:
        return False
    if "event" in data:
        return isinstance(data["event"], dict)
    return "tsh" in data or "hub" in os.path.basename(path).lower()


def describe_change(before: Event | None, after: Event) -> str:
    """What a change did, in words for the hub journal ("division A: list CSW19 -> CSW21")."""
    if before is None:
        return "event set"
    said = []
    if before.name != after.name:
        said.append(f"name {before.name!r} -> {after.name!r}")
    if before.pin_hash != after.pin_hash:
        said.append("director PIN changed")
    old = {d.name: d for d in before.divisions}
    for d in after.divisions:
        was: Division | None = old.pop(d.name, None)
        if was is None:
            said.append(f"division {d.name} added ({d.lexicon}, {d.challenge_rule.value})")
            continue
        if was.fingerprint != d.fingerprint or was.lexicon != d.lexicon:
            said.append(f"division {d.name}: list {was.lexicon} -> {d.lexicon}")
        if was.challenge_rule != d.challenge_rule:
            said.append(f"division {d.name}: rule {was.challenge_rule.value} -> "
                        f"{d.challenge_rule.value}")
        if was.tables != d.tables:
            said.append(f"division {d.name}: tables {was.tables_text or 'any'} -> "
                        f"{d.tables_text or 'any'}")
    said += [f"division {name} removed" for name in old]
    return "; ".join(said) or "no change"


def same(a: Event | None, b: Event | None) -> bool:
    """The same event, whatever its version."""
    if a is None or b is None:
        return a is b
    return to_dict(replace(a, version=0)) == to_dict(replace(b, version=0))
