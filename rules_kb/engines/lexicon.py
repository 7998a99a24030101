"""The players' lexicon: the words players use, mapped to the words of the documents.

The lexicon is data, ``rules_kb/data/lexicon.tsv``: one entry a line, three
columns separated by a tab — the form a player writes (``trample``,
``dégâts``, ``ETB``), the target in the documents' words (a glossary
headword or form, a rule title, a FAQ card name or an expression of the
texts: ``Piétinement``, ``Blessures``, ``Arriver en jeu``) and the source
of the equivalence (the English name of a keyword and its rule, or
"mot de joueur"). A target ``—`` says the form names nothing on its own
(a word of everyday French the documents use in another sense: "mis" is
not the ante); a longer form that holds it still names its target ("la
mise"). Lines starting with ``#`` and blank lines are ignored.
A form may have several targets (one line each).

>>> entries = load_lexicon()
>>> next(e for e in entries if e.form == "trample").target
'Piétinement'
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from rules_kb.core.corpus import PACKAGE
from rules_kb.core.errors import RulesKbError
from rules_kb.core.text import shortened

#: The bundled lexicon, in the package's data folder.
LEXICON_FILE = "lexicon.tsv"


class LexiconEntry(NamedTuple):
    """One line of the lexicon: ``form`` as a player writes it, ``target`` in
    the documents' words, ``source`` of the equivalence, ``line`` (from 1)."""

    form: str
    target: str
    source: str
    line: int


class LexiconError(RulesKbError):
    """A lexicon line is malformed; ``path`` and ``line`` say where."""

    def __init__(self, message: str, path: str, line: int) -> None:
        self.path = path
        self.line = line
        super().__init__(f"Lexique « {path} », ligne {line} : {message}")


def parse_lexicon(text: str, path: str = LEXICON_FILE) -> tuple[LexiconEntry, ...]:
    """The entries of a lexicon text (format in the module docstring), in file order.

    Raises :class:`LexiconError` for a line without exactly three non-empty
    tab-separated columns.
    """
    entries = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        columns = [column.strip() for column in raw.split("\t")]
        if len(columns) != 3 or not all(columns):
            raise LexiconError(
                f"trois colonnes non vides séparées par une tabulation attendues (forme, cible, source), lu : {shortened(raw)!r}",
                path,
                number,
            )
        entries.append(LexiconEntry(columns[0], columns[1], columns[2], number))
    return tuple(entries)


def lexicon_text() -> str:
    """The text of the bundled lexicon."""
    return (Path(PACKAGE) / "data" / LEXICON_FILE).read_text(encoding="utf-8")


def load_lexicon() -> tuple[LexiconEntry, ...]:
    """The bundled lexicon's entries; raises :class:`LexiconError` if it is damaged."""
    return parse_lexicon(lexicon_text())


class Lexicon:
    """The bundled players' lexicon as an engine: :attr:`text` (the file,
    read once) and :attr:`entries` (parsed once; raises
    :class:`LexiconError` if the file is damaged). A
    :class:`rules_kb.loader.KnowledgeBase` hands out :data:`LEXICON`."""

    def __init__(self) -> None:
        self._text: str | None = None
        self._entries: tuple[LexiconEntry, ...] | None = None

    @property
    def text(self) -> str:
        """The text of ``rules_kb/data/lexicon.tsv``."""
        if self._text is None:
            self._text = lexicon_text()
        return self._text

    @property
    def entries(self) -> tuple[LexiconEntry, ...]:
        """The entries, in the file's order."""
        if self._entries is None:
            self._entries = parse_lexicon(self.text)
        return self._entries


#: The one bundled lexicon.
LEXICON = Lexicon()
