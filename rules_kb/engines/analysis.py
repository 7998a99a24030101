"""French text analysis: the one chain that turns a text into index terms.

The same chain analyses what is indexed and what is searched, what the rule
graph links and what ``ask`` recognises:

1. tokens: rule numbers and P/T as they are written (``420.5c``, ``2/2``),
   words with their elided article (``l'endurance``): :data:`TOKEN_PATTERN`;
2. lowercase;
3. elision: ``l'``, ``d'``, ``qu'``, ``s'``… are removed (``l'endurance`` →
   ``endurance``; ``aujourd'hui`` is kept); ``’`` becomes ``'``;
4. French stop words (``le``, ``de``, ``est``…): :func:`stop_words`;
5. accents are folded (``créature`` → ``creature``), so that a query typed
   without accents finds the accented text;
6. French Snowball stemming (``blessures`` → ``blessur``), except for stop
   words and tokens holding a digit.

:func:`analyze` is that chain in plain Python (of Whoosh, only the stop words
of ``whoosh.lang``: ``ask`` and ``search`` answer without loading Whoosh's
search machinery); the
Whoosh index reads the very same tokens through
:class:`rules_kb.engines.whoosh_analysis.ChainTokenizer`.
Stems come from Whoosh's French Snowball stemmer, the index's own.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import types
from collections.abc import Iterator
from typing import NamedTuple

from whoosh.lang import stopwords_for_language

from rules_kb.core.text import strip_accents

#: Rule numbers and P/T stay whole; words keep an elided article for the elision step.
TOKEN_PATTERN = r"\d+(?:[./]\d+)*[a-z]?|\w+(?:['’]\w+)?"
_TOKEN_RE = re.compile(TOKEN_PATTERN)

#: Articles and pronouns that French elides before a vowel (as Lucene's French analyzer).
ELIDED = frozenset({"l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"})

#: Words of the game among Whoosh's French stop words: kept.
GAME_WORDS = frozenset({"aura", "auras"})
#: Frequent words of players' questions, stopped besides Whoosh's French stop words.
QUESTION_STOP_WORDS = frozenset(
    {"a", "les", "ça", "ca", "cette", "cet", "si", "alors", "quoi", "comment", "quand",
     "quel", "quelle", "quels", "quelles", "dont", "peut", "peuvent", "faire", "fait",
     "oui", "non", "bien", "tout", "tous", "toute", "toutes", "y", "contre"}
)  # fmt: skip


def stop_words() -> frozenset[str]:
    """The stop words: Whoosh's French ones (``whoosh.lang``, read when first
    asked for) less :data:`GAME_WORDS`, plus :data:`QUESTION_STOP_WORDS`."""
    global _stop_words
    if _stop_words is None:
        _stop_words = (frozenset(stopwords_for_language("fr")) - GAME_WORDS) | QUESTION_STOP_WORDS
    return _stop_words


_stop_words: frozenset[str] | None = None


class Token(NamedTuple):
    """One token of a text: ``term`` as indexed (folded, stemmed), its
    ``[start, end)`` characters in the text, ``stopped`` for a stop word
    (only when stop words are kept) and ``position`` as Whoosh numbers it
    (stop words removed: the first word keeps its place, the next follow)."""

    term: str
    start: int
    end: int
    stopped: bool
    position: int


def elide(word: str) -> str:
    """``"l'endurance"`` → ``"endurance"`` (lowercase input); ``’`` becomes ``'``."""
    for apostrophe in ("'", "’"):
        head, found, tail = word.partition(apostrophe)
        if found and head in ELIDED and tail:
            word = tail
            break
    return word.replace("’", "'")


#: How many words each memo of the analysis keeps (:func:`term`, :func:`stem`),
#: the least recently used dropped beyond: their keys are the words a user
#: types, so a server that kept them all would grow with every new word it is
#: asked. Above the words of the bundled corpus and its situations (5 000
#: words as written, 3 500 stems), so that a build analyses none twice.
MEMO_SIZE = 16_384


@functools.lru_cache(maxsize=MEMO_SIZE)
def stem(word: str) -> str:
    """The French Snowball stem of a folded word (Whoosh's stemmer, the
    index's); the :data:`MEMO_SIZE` most recently asked are kept."""
    return _french_stemmer()(word)


@functools.cache
def _french_stemmer():
    """Whoosh's French Snowball stemmer (:func:`whoosh_module`)."""
    return whoosh_module("whoosh.lang.snowball.french").FrenchStemmer().stem


def whoosh_module(name: str):
    """The Whoosh module ``name``, imported without ``urllib.request``.

    ``whoosh.compat``, which every Whoosh module imports, imports
    :mod:`urllib.request` (with :mod:`http`, :mod:`email`, :mod:`ssl`)
    only to re-export ``urlretrieve``, which rules-kb never calls: 25 to
    30 ms more for ``search`` and ``ask``, twice Python's own start
    (without this stand-in, ``search`` measured 10.2 times ``python -c
    pass``, over its budget of 10; ``ask`` 22.2 instead of 19.8, budget
    20: issue 35, ``bench/run.py``). While ``whoosh.compat``
    is first imported, a stand-in module answers that one import; its
    ``urlretrieve`` imports and calls the real one, and the stand-in is
    removed at once, so any later ``import urllib.request`` gets the real
    module.
    """
    if "whoosh.compat" in sys.modules or "urllib.request" in sys.modules:
        return importlib.import_module(name)

    def urlretrieve(*args, **kwargs):
        from urllib.request import urlretrieve as real  # deferred: the real one, only if ever called (35 ms)

        return real(*args, **kwargs)

    stand_in = types.ModuleType(
        "urllib.request", "Stand-in while whoosh.compat is imported (rules_kb.engines.analysis)."
    )
    stand_in.urlretrieve = urlretrieve
    sys.modules["urllib.request"] = stand_in
    try:
        return importlib.import_module(name)
    finally:
        if sys.modules.get("urllib.request") is stand_in:
            del sys.modules["urllib.request"]


_DIGIT_RE = re.compile(r"\d")


@functools.lru_cache(maxsize=MEMO_SIZE)
def term(word: str) -> tuple[str, bool]:
    """The index term of one token as the text writes it (steps 2 to 6 of the
    module docstring), and whether it is a stop word (then folded,
    unstemmed); the :data:`MEMO_SIZE` most recently asked are kept."""
    plain = elide(word.lower())
    stopped = not plain or plain in stop_words()
    folded = strip_accents(plain)
    if not stopped and not _DIGIT_RE.search(folded):
        folded = stem(folded)
    return folded, stopped


def analyze(text: str, removestops: bool = True) -> Iterator[Token]:
    """The :class:`Token` of ``text`` through the chain of the module
    docstring. With ``removestops`` False, stop words are yielded too,
    ``stopped`` and unstemmed (folded), so that "en jeu" is not "jeu"."""
    position = None
    for index, match in enumerate(_TOKEN_RE.finditer(text)):
        folded, stopped = term(match.group(0))
        if stopped:
            if not removestops:
                yield Token(folded, match.start(), match.end(), True, index)
            continue
        position = index if position is None else position + 1
        yield Token(folded, match.start(), match.end(), False, position)


def terms(text: str) -> list[str]:
    """The index terms of ``text`` (stop words left out)."""
    return [token.term for token in analyze(text)]


def pairs(text: str) -> list[tuple[str, str]]:
    """``(term, original word)`` pairs of ``text``, stop words left out. Used
    to explain which words of a question matched."""
    return [(token.term, text[token.start : token.end]) for token in analyze(text)]


#: Rule numbers in the ``number`` and ``cites`` fields of the index.
NUMBER_PATTERN = r"\d+(?:\.\d+[a-z]?)?"
_NUMBER_RE = re.compile(NUMBER_PATTERN)


def analyze_numbers(text: str) -> Iterator[Token]:
    """The rule numbers of ``text``, lowercased, as :class:`Token` (the
    analysis of the ``number`` and ``cites`` fields)."""
    for index, match in enumerate(_NUMBER_RE.finditer(text)):
        yield Token(match.group(0).lower(), match.start(), match.end(), False, index)
