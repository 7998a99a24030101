"""Real French words: a typo is corrected only when it is not one.

``ask`` and ``define`` take a word that neither the rules nor a phrase of
the concepts know for a typo of the closest known word
(:mod:`rules_kb.build.concepts`), but a player's story is full of real
words the rules never use: "sauver" is not a typo of "sauter", nor
"bestiole" of anything. The list of real words is package data,
``rules_kb/data/french-words.txt.gz``: every word of :data:`MIN_LENGTH`
letters or more to which the ``wordfreq`` package gives a Zipf frequency
of at least :data:`MIN_ZIPF` in French (about once in ten million words),
folded (lowercase, no accents), one a line after a first line that says
how it was made. ``bench/french_words.py`` writes it; a test fails when it
is not what that script makes. It is read on the first doubtful word only.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from rules_kb.core.text import fold

#: The list, in the package's data folder.
WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "french-words.txt.gz"
#: The shortest word listed (shorter words are never corrected).
MIN_LENGTH = 5
#: The least Zipf frequency (log10 of occurrences per billion words) of a listed word.
MIN_ZIPF = 2.0

_words: frozenset[str] | None = None


def french_words() -> frozenset[str]:
    """The folded real words of the list (empty when the file is missing or damaged)."""
    global _words
    if _words is None:
        try:
            lines = gzip.decompress(WORDS_FILE.read_bytes()).decode("utf-8").splitlines()
        except (OSError, EOFError, ValueError):
            lines = []
        _words = frozenset(lines[1:])
    return _words


def is_french_word(word: str) -> bool:
    """Whether ``word`` (any case, accents or not) is a real French word of the list."""
    return fold(word) in french_words()
