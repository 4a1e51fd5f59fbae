"""Official names: every spelling programs give an official list, and the one check that a
list using such a name holds that list's words."""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from typing import NamedTuple

from adjudicator.errors import LexiconError
from adjudicator.lexicon.known import KnownLexicon, LexiconIdentity, by_id

# Every name Zyzzyva, Quackle, Woogles/macondo/liwords and MAGPIE give an official list (file
# names such as nwl23.dawg, NWL20.kwg, OWL2.dwg, lexicon names such as "America"), spelled as
# they spell it, with the separators " -_.+" removed and upper-cased. Each maps to the official
# list it names, and the ids of known.toml that are that list: a file or lexicon using the name
# must hold exactly one of those (empty: an official list whose words are not known here, so
# nothing can be checked and nothing may speak under its name). Generic names (NWL, CSW) accept
# any edition of their family.
_CSW = ("CSW19", "CSW21", "CSW24")
_NASPA = ("TWL06", "NWL2018", "NWL2020", "NWL2023")
OFFICIAL_NAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    # Collins (WESPA): Zyzzyva CSW19/CSW21/CSW24, Quackle csw19.dawg, Woogles CSW21.kwg
    **{n: ("CSW24", ("CSW24",)) for n in ("CSW24", "CSW2024", "COLLINS2024")},
    **{n: ("CSW21", ("CSW21",)) for n in ("CSW21", "CSW2021", "COLLINS2021")},
    **{n: ("CSW19", ("CSW19",)) for n in ("CSW19", "CSW2019", "COLLINS2019")},
    **{n: ("CSW15", ()) for n in ("CSW15", "CSW2015", "COLLINS2015")},
    **{n: ("CSW12", ()) for n in ("CSW12", "CSW2012", "COLLINS2012")},
    **{n: ("CSW07", ()) for n in ("CSW07", "CSW2007", "CSWAPR07", "CSWFEB07", "COLLINS2007")},
    **{n: ("SOWPODS", ()) for n in ("SOWPODS", "OSWI", "OSW")},
    **{n: ("CSW", _CSW) for n in ("CSW", "COLLINS", "COLLINSSCRABBLEWORDS")},
    # NASPA: Zyzzyva NWL2018/NWL2020/NWL2023/OWL2, Quackle nwl18.dawg/twl06.dawg, Woogles and
    # MAGPIE NWL18/NWL20/NWL23.kwg and "America" (liwords' variant list, not known here)
    **{n: ("NWL2023", ("NWL2023",)) for n in ("NWL2023", "NWL23", "NASPA2023")},
    **{n: ("NWL2020", ("NWL2020",)) for n in ("NWL2020", "NWL20", "NASPA2020")},
    **{n: ("NWL2018", ("NWL2018",)) for n in ("NWL2018", "NWL18", "NASPA2018", "OWL4")},
    **{n: ("TWL06", ("TWL06",)) for n in ("TWL06", "TWL2006", "OWL2", "OWL2LWL", "OTCWL2006")},
    **{n: ("OWL2.1", ()) for n in ("OWL21", "TWL2011")},
    **{n: ("OTCWL2014", ()) for n in ("OTCWL2014", "OTCWL14", "OWL3", "TWL2014", "TWL14",
                                      "OTCWL2016", "OTCWL16", "OWL31", "TWL2016", "TWL16")},
    **{n: ("TWL98", ()) for n in ("TWL98", "TWL1998", "OWL", "OWLLWL", "OWL1", "TWL2")},
    **{n: ("NWL", _NASPA) for n in ("NWL", "TWL", "NASPA", "NASPAWORDLIST")},
    **{n: ("NSWL", ()) for n in ("NSWL", "NSWL2020", "NSWL20", "NSWL2023", "NSWL23", "OSWL")},
    **{n: ("America", ()) for n in ("AMERICA",)},
    **{n: ("OSPD", ()) for n in ("OSPD", "OSPD4", "OSPD41", "OSPD5", "OSPD6", "OSPD7", "OSPD8")},
    **{n: ("CEL", ()) for n in ("CEL", "ECWL", "CWL")},
    # the embedded default: a damaged ENABLE must not speak as ENABLE either
    **{n: ("ENABLE", ("ENABLE",)) for n in ("ENABLE", "ENABLE2K")},
}
# Titles in a list's own header line, e.g. CSW19.txt's "Collins Scrabble Words (2019). ...",
# or "NASPA Word List 2023 Edition": the family and the year name the list.
_TITLES = (
    (r"(?i)\bcollins\s+scrabble\s+words\D{0,3}(\d{4})", "CSW"),
    (r"(?i)\b(?:naspa\s+word\s+list|NWL)\D{0,3}(\d{4})", "NWL"),
    (r"(?i)\bofficial\s+tournament\s+and\s+club\s+word\s+list\D{0,3}(\d{4})", "OTCWL"),
)  # compiled at their first use (re keeps them): a kiosk's start reads no title
# Hashes that official lists carry inside their own files: the first bytes of a Quackle v1
# header's word hash (Quackle's data/lexica/copyrights.txt keys), and the two CRC-16 values of
# Zyzzyva's LEX-Checksums.txt. A file carrying one claims that list whatever its name.
QUACKLE_HASHES = {"f4fec274": "CSW19", "41da74af": "NWL2018", "64bdbe65": "TWL06"}
ZYZZYVA_CHECKSUMS = {(64294, 37642): "CSW19"}
_SEPARATORS = re.compile(r"[\s\-_.+]+")
_PARTS = re.compile(r"[\W_]+")  # what parts a name as read is cut into: "csw 24 (l)", "csw/24"


class Claim(NamedTuple):
    """An official name a list gives itself, and how: its file name, its header, a checksum."""

    official: str  # the list named, e.g. NWL2023 for "nwl23"
    accepted: tuple[str, ...]  # known ids that are that list (none: it cannot be checked here)
    how: str  # "its file name nwl23.dawg", "its header line", ...
    by_look: bool = False  # the name only looks like the official one ("СSW24", "CSW2l")


def claim_of_name(name: str, how: str) -> Claim | None:
    """The official list NAME (a file's stem, a lexicon name) speaks for, or None.

    The whole name counts ("NWL 2018", "owl2+lwl"), and so does its first part when it names
    an edition ("CSW21 (1)", "csw21-fixed", "NWL23_club"), or its first two parts either way
    round ("CSW 24 (1)", "CSW/24", "2024 CSW"): a copy or a variant still reads as that
    official list, and so does a name that only looks like one (_look_alike). A family name
    alone before more ("CSW-club", "TWL-tiny") names none."""
    whole = _normal(name)
    first = re.split(r"[^A-Za-z0-9]", name.strip(), maxsplit=1)[0].upper()
    entry = OFFICIAL_NAMES.get(whole) or (OFFICIAL_NAMES.get(first)
                                          if any(c.isdigit() for c in first) else None)
    by_look = False
    if entry is None:  # as people read it: look-alike letters, invisible ones, fullwidth
        entry = _look_alike(name)
        by_look = entry is not None
        if entry is not None:
            odd = next((c for c in name if not c.isascii()), None)  # the one to look at
            how = f"{how}, which reads as {entry[0]}" + (
                f" (U+{ord(odd):04X} {unicodedata.name(odd, 'a character')} in it)"
                if odd else "")
    if entry is None:
        entry = _title_entry(name)
    return Claim(entry[0], entry[1], how, by_look) if entry else None


def _look_alike(name: str) -> tuple[str, tuple[str, ...]] | None:
    """The official list NAME reads as, or None. As people read it (_look): look-alike letters
    ("СSW24" with a Cyrillic Es, "ϹSW24" with a lunate sigma, fullwidth "ＣＳＷ２４"), marks
    over or under a letter ("CṢW24"), "VV" for "W" ("NVVL2023"), invisible characters; then
    the whole name, or its first part, or its first two parts either way round, when they
    name an edition ("CSW 24 (1)", "CSW/24", "2024 CSW", "Collins 2019 club")."""
    whole = _look(name)
    found = _by_look().get(_SEPARATORS.sub("", whole))
    if found is not None:
        return found
    parts = [p for p in _PARTS.split(whole) if p]
    candidates = parts[:1] + (["".join(parts[:2]), parts[1] + parts[0]] if len(parts) > 1 else [])
    return next((_editions()[c] for c in candidates if c in _editions()), None)


def _look(name: str) -> str:
    """NAME as people read it: Unicode TR39's skeleton of it as it is (before NFKC turns a
    lunate sigma Ϲ into Σ), then lookalike.name_key (compatibility forms, case, blanks, the
    skeleton again), every combining mark taken off, and "vv" read as "w"."""
    from adjudicator.text.lookalike import name_key, skeleton  # only for a name no program spells exactly

    key = unicodedata.normalize("NFD", name_key(skeleton(name)))
    key = "".join(c for c in key if not unicodedata.combining(c)
                  and unicodedata.category(c) not in ("Mn", "Me", "Mc"))
    return key.replace("vv", "w")


@functools.lru_cache(maxsize=1)
def _by_look() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every official spelling by how it looks (made once, when a name is not spelled as one)."""
    return {look: entry for spelling, entry in OFFICIAL_NAMES.items()
            for look in _looks(spelling)}


def _looks(spelling: str) -> set[str]:
    """How SPELLING looks written in capitals, in small letters and capitalised: TR39 maps a
    capital I to l but leaves a small i, so "COLLINS" and "Collins" look different to it."""
    return {_SEPARATORS.sub("", _look(form))
            for form in (spelling.upper(), spelling.lower(), spelling.capitalize())}


@functools.lru_cache(maxsize=1)
def _editions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The spellings that name an edition (a year or a number in them: CSW24, OWL2, NWL2023),
    by how they look: a name's first part, or first two parts, claims one of these."""
    return {look: entry for spelling, entry in OFFICIAL_NAMES.items()
            if any(c.isdigit() for c in spelling) for look in _looks(spelling)}


def _normal(name: str) -> str:
    """NAME as OFFICIAL_NAMES keys it: separators " -_.+" removed, upper-cased ("NWL-23": NWL23)."""
    return _SEPARATORS.sub("", name).upper()


def official_id(name: str) -> str | None:
    """The one known list NAME stands for, however a program spells it ("nwl-23", "NWL23",
    "CSW 2021"), or None (a family name, an unknown or unchecked list, any other name)."""
    entry = OFFICIAL_NAMES.get(_normal(name))
    return entry[1][0] if entry is not None and len(entry[1]) == 1 else None


def _title_entry(text: str) -> tuple[str, tuple[str, ...]] | None:
    for pattern, family in _TITLES:
        found = re.search(pattern, text)
        if found:
            year = found.group(1)
            return (OFFICIAL_NAMES.get(f"{family}{year}")
                    or OFFICIAL_NAMES.get(f"{family}{year[2:]}") or (f"{family}{year}", ()))
    return None


def claim_of_title(text: str, how: str) -> Claim | None:
    """The official list a header line names ("Collins Scrabble Words (2019). ..."), or None."""
    entry = _title_entry(text)
    return Claim(entry[0], entry[1], how) if entry else None


def claim_of_id(lexicon_id: str, how: str) -> Claim:
    """A claim that a list is the known list LEXICON_ID (a hash it carries says so)."""
    return Claim(lexicon_id, (lexicon_id,), how)


def refusal(claim: Claim, known: KnownLexicon | None, words: int, fingerprint: str) -> str:
    """Why a list claiming CLAIM is refused, or "" when it is the list it claims to be."""
    if known is not None and known.id in claim.accepted:
        return ""
    what = f"{words:,} words, fingerprint {fingerprint[:12]}"
    if not claim.accepted:
        return (f"{claim.how} names {claim.official}, an official list whose words are not "
                f"known here, so it cannot be checked ({what})")
    wanted = by_id(claim.accepted[0]) if len(claim.accepted) == 1 else None
    expected = f"; {wanted.id} has {wanted.words:,}" if wanted else ""
    return (f"{claim.how} names {claim.official}, but its words are not {claim.official} as "
            f"published ({what}{expected})")


def check_claims(subject: str, claims: list[Claim], known: KnownLexicon | None, words: int,
                 fingerprint: str, hint: str = "") -> None:
    """Refuse (LexiconError, exit 3) a list that claims an official name it is not: no station
    may say CSW21 while judging other words, whatever path the list took."""
    for claim in claims:
        why = refusal(claim, known, words, fingerprint)
        if why:
            raise LexiconError(f"{subject}: {why}; refused" + (f": {hint}" if hint else ""))


def check_named(path: str, ident: LexiconIdentity) -> None:
    """Refuse (LexiconError, exit 3) a compiled list whose own name, or whose file's name
    (CSW21.lex, nwl23.dawg), names an official list its words are not: a director who
    configured CSW21 must get CSW21 or a refusal, whatever name is recorded inside."""
    base = os.path.basename(path)
    inside = claim_of_name(ident.name, f"its name {ident.name}")  # compiled by hand, or long ago
    if inside is not None:
        check_claims(path, [inside], ident.known, ident.word_count, ident.fingerprint,
                     "compile the list again")
    outside = claim_of_name(os.path.splitext(base)[0], f"its file name {base}")
    if outside is not None:
        check_claims(path, [outside], ident.known, ident.word_count, ident.fingerprint,
                     "check the file, or compile it under a name of its own "
                     "('adjudicator compile FILE --name NAME -o OUT')")
