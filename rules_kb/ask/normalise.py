"""A question written fast on a phone, read as the words it stands for.

Players write to a judge as they text: « jpeu repondre qd il ETB sa crea ? ».
Before ``ask`` reads a question, :func:`normalise` rewrites

- the SMS spellings and players' abbreviations of ``rules_kb/data/sms.tsv``
  (« qd » → quand, « ki » → qui, « crea » → créature; one cited line each,
  the common SMS usage or the players' own), a word at a time, never inside
  an elided word (the « c » of « c'est » stays);
- a « j » run into the verb that follows it (« jbloque » → je bloque),
  when the rest is a real French word (:mod:`rules_kb.engines.french`).

Typos are corrected afterwards, by the concepts' reading
(:meth:`rules_kb.engines.concepts.ConceptTable.recognise`): a word neither the
rules nor the French word list know is read as the closest word of the
rules' vocabulary (rapidfuzz's optimal string alignment distance). Accents
need no restoring: every word is compared with its accents folded, in the
index, the concepts and the facts alike.

The rewritten text is what the words, concepts, facts and mechanisms read;
the dense model reads the question as it was written (a multilingual
model knows these spellings better than a table), and what was rewritten is
said in « Compris ».
"""

from __future__ import annotations

import re
from collections.abc import Container
from pathlib import Path
from typing import NamedTuple

from rules_kb.core.text import fold
from rules_kb.loader import french_words

#: The bundled table of SMS spellings.
SMS_FILE = Path(__file__).resolve().parent.parent / "data" / "sms.tsv"
_WORD_RE = re.compile(r"[^\W\d_]+")
_JOINED_RE = re.compile(r"j([bcdfghjklmnpqrstvwxz][a-z]{4,})")


class Rewrite(NamedTuple):
    """A word rewritten: the ``original`` as typed at ``[start, end)`` of the
    question, and its ``replacement``."""

    original: str
    replacement: str
    start: int
    end: int

    @property
    def meaning(self) -> str:
        """What is said of it in « Compris »."""
        return f"« {self.original} » → {self.replacement}"


class SmsFileError(ValueError):
    """A line of the SMS table is not valid; ``line`` from 1."""

    def __init__(self, message: str, path: str, line: int) -> None:
        super().__init__(f"{path}, ligne {line} : {message}")
        self.path = path
        self.line = line


def read_sms(path: str | Path = SMS_FILE) -> dict[str, tuple[str, str]]:
    """Form (folded) → (what it stands for, source), from a TSV file of three
    columns with ``#`` comments. Raises :class:`SmsFileError` for a line
    without three non-empty columns or a form that is not one folded word."""
    table: dict[str, tuple[str, str]] = {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        columns = [column.strip() for column in line.split("\t")]
        if len(columns) != 3 or not all(columns):
            raise SmsFileError("trois colonnes non vides attendues (forme, sens, source)", str(path), number)
        form, meaning, source = columns
        if not _WORD_RE.fullmatch(form) or fold(form) != form:
            raise SmsFileError(
                f"forme d'un seul mot, sans accents ni majuscules, attendue : {form!r}", str(path), number
            )
        table[form] = (meaning, source)
    return table


_table: dict[str, tuple[str, str]] | None = None


def sms_table() -> dict[str, tuple[str, str]]:
    """The bundled SMS table, read once."""
    global _table
    if _table is None:
        _table = read_sms()
    return _table


def as_read(question: str) -> str:
    """``question`` as every signal of ``ask`` reads it, the dense model
    included: its SMS spellings rewritten (:func:`normalise`). The CLI
    embeds it before the corpus opens; ``bench/`` embeds the training and
    evaluation questions so."""
    return normalise(question, french_words())[0]


def normalise(question: str, words: Container[str]) -> tuple[str, tuple[Rewrite, ...]]:
    """``question`` with its SMS spellings rewritten (module docstring), and
    the rewrites in the question's order; ``words`` are the real French words
    (``kb.french_words``: "jdois" is "je dois" only if "dois" is one); never raises."""
    table = sms_table()
    rewrites: list[Rewrite] = []
    for match in _WORD_RE.finditer(question):
        word, start, end = match.group(), match.start(), match.end()
        if question[end : end + 1] in ("'", "’") or question[max(0, start - 1) : start] in ("'", "’"):
            continue  # an elided word: the "c" of "c'est", the "ai" of "j'ai"
        folded = fold(word)
        if folded in table:
            if word.lower() != table[folded][0]:  # "même" typed with its accent is no rewrite
                rewrites.append(Rewrite(word, table[folded][0], start, end))
            continue
        joined = _JOINED_RE.fullmatch(folded)
        if joined and joined.group(1) in words:
            rewrites.append(Rewrite(word, "je " + word[1:], start, end))
    if not rewrites:
        return question, ()
    parts, at = [], 0
    for rewrite in rewrites:
        parts += [question[at : rewrite.start], rewrite.replacement]
        at = rewrite.end
    parts.append(question[at:])
    return "".join(parts), tuple(rewrites)
