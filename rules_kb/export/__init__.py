"""Exports: annotated rule excerpts (Markdown, printable HTML, JSON) and the
whole corpus as an offline hyperlinked rulebook.

>>> from rules_kb.export import SelectionRequest, export_excerpt
>>> result = export_excerpt(kb, SelectionRequest(items=("420.5",)), "html")   # doctest: +SKIP
>>> result.data[:15]                                                          # doctest: +SKIP
b'<!DOCTYPE html>'

The steps are separate: :func:`~rules_kb.export.selection.select` reads
what the judge asked for, :func:`~rules_kb.export.excerpt.build_excerpt`
annotates it, a renderer (:data:`RENDERERS`) writes it;
:func:`~rules_kb.export.book.build_book` makes the rulebook's pages and
:mod:`rules_kb.core.files` writes files and folders whole or not at all.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rules_kb.core.errors import ExportError, Remedy
from rules_kb.core.files import check_file_target, check_folder_target, write_file, write_folder
from rules_kb.export.data import excerpt_dict
from rules_kb.export.excerpt import Excerpt, build_excerpt
from rules_kb.export.markdown import to_markdown
from rules_kb.export.selection import SelectionRequest, select
from rules_kb.loader import KnowledgeBase

__all__ = ["FORMATS", "Exported", "SelectionRequest", "choose_format", "export_book", "export_excerpt", "render"]

#: The formats of ``export --format``, and the file suffixes that imply them.
FORMATS = ("md", "html", "json")
SUFFIXES = {".md": "md", ".markdown": "md", ".txt": "md", ".html": "html", ".htm": "html", ".json": "json"}
_ALIASES = {"markdown": "md", "htm": "html"}


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export made: its ``format``, the ``excerpt`` (None for a
    rulebook), the bytes written to a file or to standard output
    (``data``; empty for a rulebook), ``files`` (a rulebook's file names: its pages and search scripts)
    and ``output``: where it was written (None: standard output, or not
    written yet)."""

    format: str
    excerpt: Excerpt | None
    data: bytes = b""
    files: tuple[str, ...] = ()
    output: Path | None = None


def choose_format(name: str | None, output: str | None = None, default: str = "md") -> str:
    """The export format: ``name`` if given (``"md"``, ``"markdown"``,
    ``"html"``, ``"json"``), else implied by the suffix of ``output``
    (:data:`SUFFIXES`), else ``default``.

    Raises :class:`rules_kb.core.errors.ExportError` for an unknown name,
    for an ``output`` whose suffix implies another format than ``name``
    (``.html`` for Markdown), and for an unknown suffix (``.pdf``): a file
    never gets a text its name does not announce (a name without suffix
    takes any format).
    """
    wanted = ""
    if name:
        wanted = _ALIASES.get(name.strip().lower(), name.strip().lower())
        if wanted not in FORMATS:
            raise ExportError(f"Format « {name} » inconnu. Formats possibles : md (Markdown), html, json.")
    suffix = Path(output).suffix.lower() if output and output != "-" else ""
    implied = SUFFIXES.get(suffix)
    if implied and wanted and implied != wanted:
        raise ExportError(
            f"Un fichier {suffix} annonce le format {implied}, pas {wanted} : pour ce format, nommez le fichier en "
            f"{' ou '.join(key for key, value in SUFFIXES.items() if value == wanted)}."
        )
    if suffix and not implied:
        printable = (
            " Pour un PDF, exportez en HTML (page imprimable) et imprimez-la en PDF depuis le navigateur."
            if suffix == ".pdf"
            else ""
        )
        raise ExportError(
            f"Extension « {suffix} » inconnue pour un extrait : .md (Markdown), .html (page imprimable) "
            f"ou .json.{printable}"
        )
    return wanted or implied or default


def render(excerpt: Excerpt, format: str) -> bytes:
    """``excerpt`` in ``format`` (one of :data:`FORMATS`), as UTF-8 bytes."""
    if format == "html":
        from rules_kb.export.html import to_html  # deferred: lxml, only for HTML

        return to_html(excerpt)
    if format == "json":
        return (json.dumps(excerpt_dict(excerpt), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    return to_markdown(excerpt).encode("utf-8")


def export_excerpt(
    kb: KnowledgeBase,
    request: SelectionRequest,
    format: str = "md",
    annotations: bool = True,
    note: str = "",
    output: str | os.PathLike[str] | None = None,
    force: bool = False,
    now: datetime | None = None,
) -> Exported:
    """Select, annotate and render an excerpt; write it to ``output`` unless
    it is None or ``"-"`` (then the caller prints :attr:`Exported.data`).

    The output is checked before any work, and the file written whole or
    not at all, never over an existing one without ``force``. Raises the
    errors of :func:`~rules_kb.export.selection.select` and
    :class:`rules_kb.core.errors.OutputError`.
    """
    to_file = output is not None and os.fspath(output) != "-"
    if to_file:
        check_file_target(output, force)
    excerpt = build_excerpt(kb, select(kb, request), annotations=annotations, note=note, now=now)
    data = render(excerpt, format)
    written = write_file(output, data, force) if to_file else None
    return Exported(format, excerpt, data, (), written)


def export_book(
    kb: KnowledgeBase,
    output: str | os.PathLike[str] | None,
    format: str = "html",
    force: bool = False,
    now: datetime | None = None,
) -> Exported:
    """Write the offline rulebook (:func:`~rules_kb.export.book.build_book`)
    as the folder ``output``, whole or not at all.

    Raises :class:`rules_kb.core.errors.ExportError` for another format than
    HTML or no folder, and :class:`rules_kb.core.errors.OutputError` (see
    :func:`rules_kb.core.files.write_folder`).
    """
    from rules_kb.export.book import build_book  # deferred: the rulebook's pages (lxml)

    if format != "html":
        raise ExportError("Le livre complet n'existe qu'en HTML.").with_remedy(Remedy.BOOK_IN_HTML)
    if output is None or os.fspath(output) == "-":
        raise ExportError("Le livre complet est un dossier de pages.").with_remedy(Remedy.BOOK_FOLDER)
    check_folder_target(output, force)
    files = build_book(kb, now)
    written = write_folder(output, files, force)
    return Exported("html", None, b"", tuple(files), written)
