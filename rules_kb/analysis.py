"""French text analysis for the full-text index (Whoosh).

The same chain analyses what is indexed and what is searched:

1. tokens: rule numbers and P/T as they are written (``420.5c``, ``2/2``),
   words with their elided article (``l'endurance``);
2. lowercase;
3. elision: ``l'``, ``d'``, ``qu'``, ``s'``… are removed (``l'endurance`` →
   ``endurance``; ``aujourd'hui`` is kept);
4. French stop words (``le``, ``de``, ``est``…) are dropped;
5. accents are folded (``créature`` → ``creature``), so that a query typed
   without accents finds the accented text;
6. French Snowball stemming (``blessures`` → ``blessur``), except for tokens
   holding a digit.

Importing this module imports Whoosh's analysis package (about 30 ms); the
lookup path (``show``) never imports it.
"""

from __future__ import annotations

import unicodedata

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StopFilter
from whoosh.lang import stopwords_for_language
from whoosh.lang.snowball.french import FrenchStemmer

#: Rule numbers and P/T stay whole; words keep an elided article for ElisionFilter.
TOKEN_PATTERN = r"\d+(?:[./]\d+)*[a-z]?|\w+(?:['’]\w+)?"

#: Articles and pronouns that French elides before a vowel (as Lucene's French analyzer).
ELIDED = frozenset(
    {"l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"}
)

#: Whoosh's French stop words less the game's terms among them ("aura"), plus
#: frequent words of players' questions.
STOP_WORDS = (frozenset(stopwords_for_language("fr")) - {"aura", "auras"}) | frozenset(
    {"a", "les", "ça", "ca", "cette", "cet", "si", "alors", "quoi", "comment", "quand",
     "quel", "quelle", "quels", "quelles", "dont", "peut", "peuvent", "faire", "fait",
     "oui", "non", "bien", "tout", "tous", "toute", "toutes", "y", "contre"}
)


def fold_accents(text: str) -> str:
    """``"créature"`` → ``"creature"``: remove combining marks after NFKD decomposition."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class ElisionFilter(Filter):
    """Removes an elided article or pronoun: ``l'endurance`` → ``endurance``."""

    def __call__(self, tokens):
        for token in tokens:
            text = token.text
            for apostrophe in ("'", "’"):
                head, found, tail = text.partition(apostrophe)
                if found and head in ELIDED and tail:
                    text = tail
                    break
            token.text = text.replace("’", "'")
            yield token


class AccentFoldingFilter(Filter):
    """Folds accents: ``dégâts`` → ``degats``."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = fold_accents(token.text)
            yield token


class FrenchStemFilter(Filter):
    """French Snowball stemming of words; tokens holding a digit are left as they are."""

    def __init__(self) -> None:
        self._stem = FrenchStemmer().stem
        self._cache: dict[str, str] = {}

    def __getstate__(self):
        return {}

    def __setstate__(self, state):
        self.__init__()

    def __eq__(self, other):
        return type(other) is type(self)

    def __call__(self, tokens):
        cache = self._cache
        for token in tokens:
            text = token.text
            if not token.stopped and not any(char.isdigit() for char in text):
                stemmed = cache.get(text)
                if stemmed is None:
                    stemmed = cache[text] = self._stem(text)
                token.text = stemmed
            yield token


def french_analyzer():
    """The analyzer of the indexed French text fields (title, text, examples)."""
    return (
        RegexTokenizer(TOKEN_PATTERN)
        | LowercaseFilter()
        | ElisionFilter()
        | StopFilter(stoplist=STOP_WORDS, minsize=1)
        | AccentFoldingFilter()
        | FrenchStemFilter()
    )


def number_analyzer():
    """The analyzer of the ``number`` field: rule numbers only, lowercased."""
    return RegexTokenizer(r"\d+(?:\.\d+[a-z]?)?") | LowercaseFilter()


def analyze(text: str) -> list[tuple[str, str]]:
    """``(term, original word)`` pairs of ``text`` through :func:`french_analyzer`.

    Stop words are left out. Used to explain which words of a question matched.
    """
    analyzer = french_analyzer()
    return [
        (token.text, text[token.startchar : token.endchar])
        for token in analyzer(text, chars=True, removestops=True)
    ]
