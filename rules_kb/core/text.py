"""Text normalisation: ONE family of functions, each built on the one before.

- :func:`strip_accents` — ``"Créature"`` → ``"Creature"``;
- :func:`fold` — lowercase and no accents: ``"Créature"`` → ``"creature"``;
- :func:`fold_aligned` — the same, one character for one, so that a
  position in the folded text is a position in the text;
- :func:`words` — the folded words (letters and digits; hyphens and
  apostrophes separate words): ``"Sur-type d'un"`` → ``["sur", "type", "d", "un"]``;
- :func:`singular` — a folded word without its final plural ``s``/``x``;
- :func:`key` — the key under which words are compared (scenario words,
  keyword names): the singular of each word, one space between them;
- :func:`term_key` — the same for names, whose hyphenated and elided words
  stay whole (glossary headwords, rule titles, card names: "Terrain-artefact"
  is not "Terrain").

And :func:`rejoin`, which re-joins hard-wrapped lines, and
:func:`first_sentence`, which shortens a text for a list. No heavy import:
the whole family uses :mod:`re` and :mod:`unicodedata`.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"[^\W_]+")
_TERM_WORD_RE = re.compile(r"[\w'’-]+")


def strip_accents(text: str) -> str:
    """``"Dégâts"`` → ``"Degats"``: combining marks removed after NFKD decomposition, case kept."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def fold(text: str) -> str:
    """Lowercase and strip accents: ``"Table des Matières"`` → ``"table des matieres"``."""
    return strip_accents(text.casefold())


def fold_aligned(text: str) -> str:
    """Lowercase and no accents, one character for one: a character whose
    folded form is not one character (``"ﬁ"``) is kept as it is, so that
    every position in the result is the same position in ``text``."""
    out = []
    for char in text:
        plain = strip_accents(char.lower())
        out.append(plain if len(plain) == 1 else char)
    return "".join(out)


def words(text: str) -> list[str]:
    """The folded words of ``text``: runs of letters and digits (``"l'endurance"`` → ``["l", "endurance"]``)."""
    return _WORD_RE.findall(fold(text))


def singular(word: str) -> str:
    """A folded word without a final plural ``s`` or ``x`` (words of more than three letters)."""
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


def key(text: str) -> str:
    """How names are compared: :func:`words` in the :func:`singular`, one
    space between them (``"Blessures fatales"`` → ``"blessure fatale"``,
    ``"Sur-type"`` → ``"sur type"``, ``"créature’s"`` → ``"creature s"``)."""
    return " ".join(singular(word) for word in words(text))


def term_key(text: str) -> str:
    """How names are compared: :func:`key`, but a word keeps its hyphens and
    apostrophes (``"Terrain-artefact"`` → ``"terrain-artefact"``,
    ``"Blessures fatales"`` → ``"blessure fatale"``)."""
    return " ".join(singular(word) for word in _TERM_WORD_RE.findall(fold(text)))


def rejoin(text: str) -> str:
    """Re-join hard-wrapped lines: every run of white space becomes one space."""
    return _SPACES_RE.sub(" ", text).strip()


def spaced(number: int) -> str:
    """``number`` with French digit groups, narrow no-break spaces between them (``"1 000 000"``)."""
    return f"{number:,}".replace(",", "\u202f")


def shortened(text: str, limit: int = 60) -> str:
    """``text`` as a message quotes it: whole up to ``limit`` characters,
    else its start, "…" and its length (``"1111… (5 000 caractères)"``)."""
    if len(text) <= limit:
        return text
    return f"{text[: limit // 2]}… ({spaced(len(text))} caractères)"


def first_sentence(text: str, limit: int = 140) -> str:
    """The first sentence of ``text`` (up to ``". "``), cut at ``limit`` characters with "…"."""
    text = " ".join(text.split())
    end = text.find(". ")
    sentence = text if end < 0 else text[: end + 1]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


#: The French months, January first.
MONTHS = (
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
)  # fmt: skip


def french_date(iso: str) -> str:
    """An ISO date as French writes it: ``"2004-06-01"`` → ``"1er juin 2004"``
    (the first of a month is *premier*), ``"2006-08"`` → ``"août 2006"``,
    ``"2009"`` → ``"2009"``; anything else is returned as given."""
    parts = iso.split("-")
    if not all(part.isdigit() for part in parts) or not 1 <= len(parts) <= 3:
        return iso
    if len(parts) >= 2 and not 1 <= int(parts[1]) <= 12:
        return iso
    month = MONTHS[int(parts[1]) - 1] if len(parts) >= 2 else ""
    if len(parts) == 3:
        day = int(parts[2])
        return f"{'1er' if day == 1 else day} {month} {parts[0]}"
    return f"{month} {parts[0]}".strip()
