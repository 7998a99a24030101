"""Compute the vectors of the bundled glossary's sentences, as package data.

    .venv/bin/python bench/embed_glossary.py          # rewrite rules_kb/data/glossary-vectors.{json,i8}
    .venv/bin/python bench/embed_glossary.py --check  # exit 1 when they are out of date

Embeds every sentence of every definition of the bundled corpus's glossary
(:func:`rules_kb.engines.definitions.sentence_texts`, about 1 500 texts, a
minute or two on two cores) with the model of :mod:`rules_kb.engines.dense`
and writes them where the build reuses them
(:func:`rules_kb.engines.definitions.definition_data`), so that a first use of
the bundled corpus embeds nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from indexer import parse_corpus
from rules_kb.core.corpus import load_manifest, locate_corpus
from rules_kb.engines import definitions, dense


def bundled_glossary():
    """The glossary entries of the bundled corpus, in corpus order."""
    folder = locate_corpus(None, "corpus fourni")
    return parse_corpus(folder, load_manifest(folder), "", lambda *_: None).glossary


def main() -> int:
    parser = argparse.ArgumentParser(description="Vecteurs des phrases du glossaire fourni (données du paquet).")
    parser.add_argument("--check", action="store_true", help="vérifier seulement qu'ils sont à jour")
    args = parser.parse_args()
    entries = bundled_glossary()
    if args.check:
        wanted = {dense.text_key(text) for entry in entries for text in definitions.sentence_texts(entry)}
        fresh = wanted <= set(definitions.package_rows().keys)
        print("à jour" if fresh else "périmés : relancez bench/embed_glossary.py")
        return 0 if fresh else 1

    def progress(description: str, done: int, total: int) -> None:
        print(f"\r{description} : {done}/{total}", end="", file=sys.stderr, flush=True)

    count = definitions.write_package_rows(entries, progress)
    print(f"\n{count} vecteurs écrits dans {definitions.VECTORS_ROWS.parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
