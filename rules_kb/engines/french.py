"""Real French words: a typo is corrected only when it is not one.

``ask`` and ``define`` take a word that neither the rules nor a phrase of
the concepts know for a typo of the closest known word
(:mod:`rules_kb.engines.concepts`), but a player's story is full of real
words the rules never use: "sauver" is not a typo of "sauter", nor
"bestiole" of anything. The list of real words is package data,
``rules_kb/data/french-words.txt`` (plain text: read in a millisecond,
where decompressing took five): every word of :data:`MIN_LENGTH`
letters or more to which the ``wordfreq`` package gives a Zipf frequency
of at least :data:`MIN_ZIPF` in French (about once in ten million words),
folded (lowercase, no accents), one a line after a first line that says
how it was made. ``bench/french_words.py`` writes it; a test fails when it
is not what that script makes. It is read on the first doubtful word only.
"""

from __future__ import annotations

import mmap
from pathlib import Path

from rules_kb.core.text import fold

#: The list, in the package's data folder.
WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "french-words.txt"
#: The shortest word listed (shorter words are never corrected).
MIN_LENGTH = 5
#: The least Zipf frequency (log10 of occurrences per billion words) of a listed word.
MIN_ZIPF = 2.0

_words: frozenset[str] | None = None


def _listed() -> bytes:
    """The file's bytes: a first line, then the words sorted, one a line
    (empty when the file is missing)."""
    try:
        return WORDS_FILE.read_bytes()
    except OSError:
        return b""


def french_words() -> frozenset[str]:
    """The folded real words of the list (empty when the file is missing or damaged)."""
    global _words
    if _words is None:
        try:
            _words = frozenset(_listed().decode("utf-8").split("\n")[1:]) - {""}
        except ValueError:
            _words = frozenset()
    return _words


def is_french_word(word: str) -> bool:
    """Whether ``word`` (any case, accents or not) is a real French word of
    the list: a binary search in the sorted file, mapped in memory (a few
    pages read: building the set of :func:`french_words` costs 20 ms, more
    than the few words a question asks)."""
    wanted = fold(word).strip().encode("utf-8", "replace")
    if not wanted or b"\n" in wanted:
        return False
    try:
        with WORDS_FILE.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            low, high = data.find(b"\n") + 1, len(data)
            while 0 < low < high:  # the first line start at or after the middle, compared
                middle = (low + high) // 2
                start = data.rfind(b"\n", 0, middle) + 1
                end = data.find(b"\n", start)
                end = len(data) if end < 0 else end
                line = data[start:end]
                if line == wanted:
                    return True
                if line < wanted:
                    low = end + 1
                else:
                    high = start
            return False
    except (OSError, ValueError):  # missing, or empty (mmap of 0 bytes)
        return False


class FrenchWords:
    """The list of real French words as an engine: ``word in words`` is
    :func:`is_french_word` (a :class:`rules_kb.loader.KnowledgeBase` hands
    out :data:`FRENCH_WORDS`)."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and is_french_word(word)


#: The one list of real French words (``rules_kb/data/french-words.txt``).
FRENCH_WORDS = FrenchWords()
