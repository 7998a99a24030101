"""Compute the vectors of the bundled corpus's rules and situations, as package data.

    .venv/bin/python bench/embed_corpus.py          # rewrite rules_kb/data/vectors.{json,i8}
    .venv/bin/python bench/embed_corpus.py --check  # exit 1 when they are out of date

Embeds every rule of ``corpus/`` and every situation of
``rules_kb/data/situations.jsonl`` with the model of
:mod:`rules_kb.engines.dense` (a few minutes on two cores) and writes them
where the build reuses them, so that a first use of the bundled corpus
embeds nothing. ``tests/test_dense.py`` fails when they are out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from indexer import parse_corpus
from rules_kb.core.corpus import load_manifest, locate_corpus
from rules_kb.engines import dense
from rules_kb.engines.situations import corpus_situations


def bundled_texts() -> dict[str, str]:
    """Text key → text of the bundled corpus's rules and situations."""
    folder = locate_corpus(None, "corpus fourni")
    corpus = parse_corpus(folder, load_manifest(folder), "", lambda *_: None)
    return dense.corpus_texts(corpus, corpus_situations(corpus))


def main() -> int:
    parser = argparse.ArgumentParser(description="Vecteurs du corpus fourni (données du paquet).")
    parser.add_argument("--check", action="store_true", help="vérifier seulement qu'ils sont à jour")
    args = parser.parse_args()
    texts = bundled_texts()
    _, current = dense.read_package_rows()
    if args.check:
        fresh = current == dense.fingerprint(texts)
        print("à jour" if fresh else "périmés : relancez bench/embed_corpus.py")
        return 0 if fresh else 1

    def progress(description: str, done: int, total: int) -> None:
        print(f"\r{description} : {done}/{total}", end="", file=sys.stderr, flush=True)

    count = dense.write_package_rows(texts, progress)
    print(f"\n{count} vecteurs écrits dans {dense.VECTORS_ROWS.parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
