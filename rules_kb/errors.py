"""Exceptions a user can cause, each with a French message saying what to try.

The CLI prints ``str(error)`` and exits with code 1; library callers can read
the attributes (the bad input and where it was found).
"""

from __future__ import annotations

import errno

_OS_ERRORS = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.EISDIR: "c'est un dossier, pas un fichier",
    errno.EEXIST: "un fichier de ce nom existe déjà",
    errno.ENOSPC: "plus de place sur le disque",
    errno.EROFS: "système de fichiers en lecture seule",
}


def describe_os_error(error: OSError) -> str:
    """A short French description of a file-system error (``"permission refusée"``)."""
    return _OS_ERRORS.get(error.errno, error.strerror or str(error))


class RulesKbError(Exception):
    """Base class of every error rules-kb reports to a user."""


class CorpusError(RulesKbError):
    """The corpus folder, its manifest or one of its documents cannot be used.

    ``path`` is the file or folder at fault.
    """

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


class UnknownRuleError(RulesKbError):
    """No rule has this number. ``number`` is what was asked, ``nearest`` the
    closest existing numbers (canonical strings, nearest first)."""

    def __init__(self, number: str, nearest: tuple[str, ...], edition: str = "") -> None:
        self.number = number
        self.nearest = nearest
        self.edition = edition
        where = f" dans l'édition {edition}" if edition else ""
        hint = (
            f" Numéros les plus proches : {', '.join(nearest)}."
            if nearest
            else " Essayez « rules-kb search » avec des mots de la règle."
        )
        super().__init__(f"Aucune règle ne porte le numéro « {number} »{where}.{hint}")


class UnknownEditionError(RulesKbError):
    """No document of the corpus has this edition. ``known`` lists those that exist."""

    def __init__(self, edition: str, known: tuple[str, ...]) -> None:
        self.edition = edition
        self.known = known
        super().__init__(
            f"L'édition « {edition} » n'existe pas dans le corpus. "
            f"Éditions disponibles : {', '.join(known)}."
        )


class UnknownTermError(RulesKbError):
    """No glossary entry fits a term; ``close`` are the nearest headwords."""

    def __init__(self, term: str, close: tuple[str, ...]) -> None:
        self.term = term
        self.close = close
        hint = (
            "Termes proches : " + ", ".join(f"« {name} »" for name in close) + "."
            if close
            else "Aucun terme proche."
        )
        super().__init__(
            f"Aucune entrée du glossaire ne correspond à « {term} ». {hint} "
            f"Essayez aussi « rules-kb search \"{term}\" »."
        )


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
