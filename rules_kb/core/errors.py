"""Exceptions a user can cause, each with a French message saying what was wrong.

The messages name no command or option: a front end (the CLI) adds what to
type next, reading the attributes (the bad input and where it was found).
"""

from __future__ import annotations

import enum
import errno

from rules_kb.core.text import shortened

_OS_ERRORS = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.EISDIR: "c'est un dossier, pas un fichier",
    errno.EEXIST: "un fichier de ce nom existe déjà",
    errno.ENOSPC: "plus de place sur le disque",
    errno.EROFS: "système de fichiers en lecture seule",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ELOOP: "trop de liens symboliques en chaîne",
}


def describe_os_error(error: OSError) -> str:
    """A short French description of a file-system error (``"permission refusée"``)."""
    return _OS_ERRORS.get(error.errno, error.strerror or str(error))


class Remedy(enum.Enum):
    """What the user can do about an error, for a front end to say in its own
    words (the CLI names its commands and options; the library never does)."""

    REPLACE = "replace"
    """The output exists: ask explicitly to replace it."""
    SEARCH_RULE = "search-rule"
    """No rule number is close: search with words of the rule."""
    SEARCH_TERM = "search-term"
    """No glossary entry fits: search the term in the whole corpus."""
    SEARCH_CARD = "search-card"
    """No FAQ card has the name: search among the cards."""
    LIST_EXAMPLES = "list-examples"
    """No bundled example has the name: list them."""
    START_FROM_EXAMPLE = "start-from-example"
    """No scenario to check: start from a bundled example."""
    BOOK_IN_HTML = "book-in-html"
    """The rulebook exists only in HTML; all the data exist as a dump."""
    BOOK_FOLDER = "book-folder"
    """The rulebook is a folder: name one."""
    SELECT = "select"
    """Nothing selected for an export: say what to export."""
    NO_SELECTION_WITH_BOOK = "no-selection-with-book"
    """The whole rulebook takes no selection."""


class RulesKbError(Exception):
    """Base class of every error rules-kb reports to a user.

    ``remedy`` (a :class:`Remedy`, or None) says what the user can do next;
    the message itself names no command.
    """

    remedy: Remedy | None = None

    def with_remedy(self, remedy: Remedy) -> RulesKbError:
        """This error, with ``remedy`` (for ``raise Error(…).with_remedy(…)``)."""
        self.remedy = remedy
        return self


class CorpusError(RulesKbError):
    """The corpus folder, its manifest or one of its documents cannot be used.

    ``path`` is the file or folder at fault.
    """

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


class UnknownRuleError(RulesKbError):
    """No rule has this number. ``number`` is what was asked, ``nearest`` the
    closest existing numbers (canonical strings, nearest first); ``beyond``
    the edition whose last rule ``number`` follows (``""``: it falls among
    the rules), ``nearest`` then being that edition's last rules in order."""

    def __init__(self, number: str, nearest: tuple[str, ...], edition: str = "", beyond: str = "") -> None:
        self.number = number
        self.nearest = nearest
        self.edition = edition
        self.beyond = beyond
        where = f" dans l'édition {edition}" if edition else ""
        hint = f" Numéros les plus proches : {', '.join(nearest)}." if nearest else ""
        if beyond and nearest:
            where = f" : il vient après la dernière règle de l'édition {beyond}, {nearest[-1]}"
            hint = f" Dernières règles : {', '.join(nearest)}."
        super().__init__(f"Aucune règle ne porte le numéro « {number} »{where}.{hint}")
        if not nearest:
            self.remedy = Remedy.SEARCH_RULE


class UnknownEditionError(RulesKbError):
    """No document of the corpus has this edition. ``known`` lists those that exist."""

    def __init__(self, edition: str, known: tuple[str, ...]) -> None:
        self.edition = edition
        self.known = known
        super().__init__(
            f"L'édition « {shortened(edition)} » n'existe pas dans le corpus. "
            f"Éditions disponibles : {', '.join(known)}."
        )


class UnknownTermError(RulesKbError):
    """No glossary entry fits a term; ``close`` are the nearest headwords."""

    def __init__(self, term: str, close: tuple[str, ...]) -> None:
        self.term = term
        self.close = close
        hint = (
            "Vouliez-vous dire : " + ", ".join(f"« {name} »" for name in close) + " ?"
            if close
            else "Aucun terme proche."
        )
        super().__init__(f"Aucune entrée du glossaire ne correspond à « {shortened(term, 80)} ». {hint}")
        self.remedy = Remedy.SEARCH_TERM


class LaterKeywordError(RulesKbError):
    """A term is a keyword of later rules than the corpus's editions, with no
    nearest notion in the corpus; ``term`` as typed, ``meaning`` what it is,
    in French (:mod:`rules_kb.engines.later_keywords`)."""

    def __init__(self, term: str, meaning: str) -> None:
        self.term = term
        self.meaning = meaning
        super().__init__(
            f"« {shortened(term, 80)} » : {meaning}. Le glossaire des règles du corpus ne le définit pas ; "
            "décrivez ce que fait la capacité avec les mots des règles."
        )
        self.remedy = Remedy.SEARCH_TERM


class QueryError(RulesKbError):
    """A search or question cannot be run (empty, or only stop words)."""


class IndexBuildError(RulesKbError):
    """The index could not be written to the cache folder. ``path`` is that folder."""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


class OutputError(RulesKbError):
    """A file or folder cannot be written (it exists, is of the wrong kind,
    or is not writable). ``path`` is the file or folder at fault."""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


class ExportError(RulesKbError):
    """An export cannot be made as asked (unknown format, nothing selected,
    a rulebook without a folder…)."""
