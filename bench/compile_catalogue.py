"""Compile Click's and Typer's French catalogue (:mod:`cli.french`), as package data.

    .venv/bin/python bench/compile_catalogue.py          # rewrite cli/locale/fr/LC_MESSAGES/messages.mo
    .venv/bin/python bench/compile_catalogue.py --check  # exit 1 when it is out of date

``cli/locale/fr/LC_MESSAGES/messages.po`` is written by hand: every message
of the installed ``click`` and ``typer`` packages, in French. This script
compiles it with Babel (``read_po``, ``write_mo``: the output depends only on
the .po and Babel's version, which the ``Generated-By`` header names, hence
the pin in the ``test`` extra) into the ``messages.mo`` beside it, which
gettext reads at run time.

``--check`` exits 1 when the .mo is not what the .po compiles to, or when the
.po lacks a msgid of the installed click or typer (a newer version added
messages: they are listed, to translate in the .po, then run this script
again). The msgids are found the way ``pybabel extract`` finds them, keywords
``_``, ``gettext`` and ``ngettext:1,2``. ``tests/test_catalogue.py`` checks
the same, and that every translation keeps its msgid's placeholders.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "cli" / "locale" / "fr" / "LC_MESSAGES"
PO = FOLDER / "messages.po"
MO = FOLDER / "messages.mo"

#: The packages whose messages the catalogue translates.
PACKAGES = ("click", "typer")
#: How they call gettext: ``from gettext import gettext as _`` and ``ngettext``.
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}

#: A msgid as Babel gives it: a string, or (singular, plural).
MessageId = str | tuple[str, ...]


def catalogue(path: Path | None = None) -> Catalog:
    """The .po (:data:`PO` unless told), parsed."""
    with (path or PO).open("rb") as file:
        return read_po(file)


def compiled_bytes(path: Path | None = None) -> bytes:
    """What the .po compiles to: the bytes ``messages.mo`` must hold."""
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(path))
    return buffer.getvalue()


def package_folder(name: str) -> Path:
    """Where an installed package's modules are, without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"Le paquet {name} n'est pas installé.")
    return Path(spec.origin).parent


def installed_msgids() -> dict[MessageId, list[str]]:
    """Every msgid of the installed click and typer → where it is (``click/core.py:104``)."""
    found: dict[MessageId, list[str]] = {}
    for name in PACKAGES:
        extracted = extract_from_dir(str(package_folder(name)), method_map=[("**.py", "python")], keywords=KEYWORDS)
        for filename, lineno, message, _comments, _context in extracted:
            found.setdefault(message, []).append(f"{name}/{filename}:{lineno}")
    return found


def missing_msgids(path: Path | None = None) -> list[MessageId]:
    """The msgids of the installed click and typer that the .po lacks (singular and plural alike)."""
    catalog = catalogue(path)
    present = {message.id for message in catalog if message.id}
    return [message for message in installed_msgids() if message not in present]


def shown(path: Path) -> str:
    """A path as messages name it: from the checkout's root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compiler le catalogue français de click et typer (cli/locale).")
    parser.add_argument(
        "--check", action="store_true", help="vérifier seulement que le .mo et le .po sont à jour (code 1 sinon)"
    )
    args = parser.parse_args(argv)
    if not args.check:
        MO.write_bytes(compiled_bytes())
        print(f"{shown(MO)} écrit.")
        return 0
    status = 0
    if not MO.exists() or MO.read_bytes() != compiled_bytes():
        print(f"{shown(MO)} n'est pas à jour : lancez « python bench/compile_catalogue.py ».")
        status = 1
    missing = missing_msgids()
    if missing:
        count = f"{len(missing)} message" + ("s" if len(missing) > 1 else "")
        print(f"{shown(PO)} ne traduit pas {count} de click ou typer, à ajouter en français :")
        for message in missing:
            print("  " + " | ".join(repr(text) for text in ([message] if isinstance(message, str) else message)))
        status = 1
    if status == 0:
        print("Le catalogue est à jour.")
    return status


if __name__ == "__main__":
    sys.exit(main())
