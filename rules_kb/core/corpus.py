"""Finding a corpus folder and reading its manifest (``manifest.toml``).

The corpus used is, in order: the folder given by the caller, the folder in
the ``RULES_KB_CORPUS`` environment variable, or the corpus bundled with
the package. Reading the documents themselves is the parsers' work
(:func:`indexer.read_document`).
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

from rules_kb.core.errors import CorpusError, describe_os_error
from rules_kb.core.model import Document, DocumentKind
from rules_kb.core.text import shortened, spaced

MANIFEST = "manifest.toml"
CORPUS_ENV = "RULES_KB_CORPUS"

_REQUIRED_KEYS = ("id", "file", "kind", "language", "edition", "date", "title", "origin")
#: Keys a [[document]] may have: ``cites_edition``, the edition whose rule
#: numbers the document's references use (a course written for later rules).
_OPTIONAL_KEYS = ("cites_edition",)
_DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


#: ``progress(description, completed, total)``: called as the reading and
#: building of a corpus advance (the CLI shows a progress bar).
Progress = Callable[[str, int, int], None]


def no_progress(description: str, completed: int, total: int) -> None:
    """A :data:`Progress` that shows nothing."""


#: The folder of the rules_kb package.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bundled_corpus() -> Path:
    """The corpus shipped with rules-kb.

    In an installed wheel it is ``rules_kb/corpus``; in a source checkout
    (editable install) it is the ``corpus/`` folder beside ``rules_kb/``.
    """
    installed = Path(PACKAGE) / "corpus"
    if (installed / MANIFEST).is_file():
        return installed
    return Path(PACKAGE).parent / "corpus"


def locate_corpus(folder: str | os.PathLike[str] | None = None, given_as: str = "dossier donné") -> Path:
    """The corpus folder to use: ``folder``, else ``$RULES_KB_CORPUS``, else the bundled one.

    ``given_as`` says, in the messages, how ``folder`` was given (the CLI
    passes its option's name). Raises :class:`CorpusError` if the chosen
    folder does not exist, is a file (the manifest itself: its folder is
    named) or has no ``manifest.toml``.
    """
    chosen = folder or os.environ.get(CORPUS_ENV) or None
    path = Path(chosen).expanduser() if chosen else bundled_corpus()
    origin = given_as if folder else (CORPUS_ENV if chosen else "corpus intégré")
    try:
        path.stat()
    except OSError as error:
        if error.errno != errno.ENOENT:  # a name too long, a folder one cannot enter
            raise CorpusError(
                f"Le dossier de corpus « {shortened(str(path))} » ({origin}) est illisible : {describe_os_error(error)}. "
                "Indiquez un dossier qui contient un manifest.toml et ses documents.",
                str(path),
            ) from None
    if path.is_file():
        hint = (
            f"le {MANIFEST} lui-même : indiquez son dossier, « {path.parent} »."
            if path.name == MANIFEST
            else f"un fichier : indiquez le dossier qui contient le {MANIFEST} et ses documents."
        )
        raise CorpusError(f"« {path} » ({origin}) n'est pas un dossier de corpus mais {hint}", str(path))
    if not path.is_dir():
        raise CorpusError(
            f"Le dossier de corpus « {path} » ({origin}) n'existe pas. "
            "Indiquez un dossier qui contient un manifest.toml et ses documents.",
            str(path),
        )
    if not (path / MANIFEST).is_file():
        raise CorpusError(
            f"Le dossier de corpus « {path} » ({origin}) n'a pas de fichier {MANIFEST}. "
            "Chaque document doit y être décrit dans une table [[document]] (voir la documentation : « Le corpus »).",
            str(path),
        )
    return path.resolve()


#: The largest manifest read, in bytes (the bundled one is a few kilobytes).
MAX_MANIFEST_BYTES = 1_000_000


def load_manifest(folder: Path) -> tuple[Document, ...]:
    """Read and check ``folder/manifest.toml``; documents in manifest order.

    Raises :class:`CorpusError` naming the file, the entry and the key at
    fault: unreadable or invalid TOML (in French, with its line, as a
    scenario's: :mod:`rules_kb.core.toml_syntax`), over
    :data:`MAX_MANIFEST_BYTES` bytes, nested too deep or with too long a
    line (refused before parsing), missing or unknown keys, wrong types,
    unknown ``kind``, malformed ``date``, duplicate ``id``, missing file.
    """
    import tomllib  # deferred: tomllib (2 ms), read only when a corpus changed (rules_kb.loader's stamps)

    path = folder / MANIFEST
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_MANIFEST_BYTES + 1)  # a device or a huge file stops here
        if len(raw) > MAX_MANIFEST_BYTES:
            raise CorpusError(
                f"{path} est trop grand (plus de {spaced(MAX_MANIFEST_BYTES)} octets) ; un manifeste "
                "décrit ses documents en quelques kilo-octets.",
                str(path),
            )
        text = raw.decode("utf-8")
        # A text of at most MAX_LINE characters and MAX_DEPTH brackets can hold neither fault: the
        # bundled manifest is not scanned, and the lookup commands do not import the scanner.
        if len(text) > 10_000 or text.count("[") + text.count("{") > 32:
            from rules_kb.core import toml_syntax  # deferred: as the comment above says

            refused = toml_syntax.refused(text)
            if refused:
                raise CorpusError(f"{path}, ligne {refused[1]} : {refused[0]}", str(path))
        data = tomllib.loads(text)
    except UnicodeDecodeError as error:
        raise CorpusError(f"{path} n'est pas un texte UTF-8 ({error.reason}).", str(path)) from None
    except OSError as error:
        raise CorpusError(f"Impossible de lire {path} : {describe_os_error(error)}.", str(path)) from None
    except tomllib.TOMLDecodeError as error:
        from rules_kb.core import toml_syntax  # deferred: only for a broken manifest

        message, line = toml_syntax.describe(error, text)
        raise CorpusError(f"{path}{f', ligne {line}' if line else ''} : {message}", str(path)) from None

    unknown_top = sorted(set(data) - {"document"})
    if unknown_top:
        raise CorpusError(
            f"{path} : clé inconnue « {unknown_top[0]} » ; seules des tables [[document]] sont attendues.",
            str(path),
        )
    entries = data.get("document", [])
    if not isinstance(entries, list) or not entries:
        raise CorpusError(f"{path} ne décrit aucun document : ajoutez des tables [[document]].", str(path))

    documents: list[Document] = []
    seen: set[str] = set()
    kinds = ", ".join(kind.value for kind in DocumentKind)
    for position, entry in enumerate(entries, start=1):
        where = f"{path}, document n° {position}"
        if not isinstance(entry, dict):
            raise CorpusError(f"{where} : une table [[document]] est attendue.", str(path))
        unknown = sorted(set(entry) - set(_REQUIRED_KEYS) - set(_OPTIONAL_KEYS))
        if unknown:
            raise CorpusError(
                f"{where} : clé inconnue « {unknown[0]} ». "
                f"Clés acceptées : {', '.join(_REQUIRED_KEYS + _OPTIONAL_KEYS)}.",
                str(path),
            )
        for key in _REQUIRED_KEYS:
            if key not in entry:
                raise CorpusError(f"{where} : la clé « {key} » manque.", str(path))
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise CorpusError(f"{where} : « {key} » doit être un texte non vide, pas {entry[key]!r}.", str(path))
        if not _ID_RE.match(entry["id"]):
            raise CorpusError(
                f"{where} : id « {entry['id']} » invalide (minuscules, chiffres, « . », « _ », « - »).",
                str(path),
            )
        if entry["id"] in seen:
            raise CorpusError(f"{where} : l'id « {entry['id']} » est déjà utilisé.", str(path))
        seen.add(entry["id"])
        try:
            kind = DocumentKind(entry["kind"])
        except ValueError:
            raise CorpusError(
                f"{where} : kind « {entry['kind']} » inconnu. Valeurs acceptées : {kinds}.", str(path)
            ) from None
        if not _DATE_RE.match(entry["date"]):
            raise CorpusError(
                f"{where} : date « {entry['date']} » invalide ; format attendu AAAA-MM-JJ (ou AAAA).",
                str(path),
            )
        cites_edition = entry.get("cites_edition", "")
        if not isinstance(cites_edition, str):
            raise CorpusError(f"{where} : « cites_edition » doit être un texte, pas {cites_edition!r}.", str(path))
        file = folder / entry["file"]
        try:
            found = file.is_file()
        except OSError as error:  # a name too long, a loop of links
            raise CorpusError(
                f"{where} : le fichier « {shortened(entry['file'])} » est illisible ({describe_os_error(error)}).",
                str(folder),
            ) from None
        if not found:
            raise CorpusError(
                f"{where} : le fichier « {shortened(entry['file'])} » est introuvable dans {folder}.", str(file)
            )
        documents.append(
            Document(
                id=entry["id"],
                file=entry["file"],
                kind=kind,
                language=entry["language"],
                edition=entry["edition"],
                date=entry["date"],
                title=entry["title"],
                origin=entry["origin"],
                path=str(file),
                cites_edition=cites_edition.strip(),
            )
        )
    editions = {document.edition for document in documents}
    for position, document in enumerate(documents, start=1):
        if document.cites_edition and document.cites_edition not in editions:
            raise CorpusError(
                f"{path}, document n° {position} : cites_edition « {document.cites_edition} » "
                f"n'est l'édition d'aucun document. Éditions présentes : {', '.join(sorted(editions))}.",
                str(path),
            )
    return tuple(documents)
