"""The search index answers a query of words as Whoosh would, without Whoosh:
the same analysis, the same query, the same BM25F scores, the same hits."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.core.errors import QueryError
from rules_kb.core.text import strip_accents
from rules_kb.engines.analysis import MEMO_SIZE, TOKEN_PATTERN, analyze, analyze_numbers, elide, stem, stop_words, term
from rules_kb.engines.index import FIELDS, Group, Term, check_query, read_index, uses_syntax, word_query
from rules_kb.engines.store import DATABASE, Store


@pytest.fixture(scope="module")
def store(kb):
    """The cache database of ``kb``, opened by the test (the knowledge base keeps its own to itself)."""
    opened = Store(Path(kb.cache_dir) / DATABASE)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def search_index(kb):
    return kb.index


@pytest.fixture(scope="module")
def whoosh_index(search_index):
    """The Whoosh index written from the same documents (the first query in Whoosh's language writes it)."""
    return search_index.whoosh()


def _reference_chain(numbers: bool = False):
    """The analyzer the index had before: Whoosh's own filters around the same steps."""
    from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StopFilter

    class Elision(Filter):
        def __call__(self, tokens):
            for token in tokens:
                token.text = elide(token.text)
                yield token

    class Fold(Filter):
        def __call__(self, tokens):
            for token in tokens:
                token.text = strip_accents(token.text)
                yield token

    class Stem(Filter):
        def __call__(self, tokens):
            for token in tokens:
                if not token.stopped and not any(char.isdigit() for char in token.text):
                    token.text = stem(token.text)
                yield token

    if numbers:
        return RegexTokenizer(r"\d+(?:\.\d+[a-z]?)?") | LowercaseFilter()
    return (
        RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | Elision()
        | StopFilter(stoplist=stop_words(), minsize=1) | Fold() | Stem()
    )  # fmt: skip


def _whoosh_tokens(analyzer, text: str, removestops: bool):
    return [
        (token.text, token.pos, token.startchar, token.endchar, bool(token.stopped))
        for token in analyzer(text, positions=True, chars=True, removestops=removestops)
    ]


_FRENCH = st.text(alphabet=st.sampled_from(list("abcdeéèêàçôîûœ'’- .,;:?!0123456789/+lLdDqu\u00a0")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(_FRENCH, st.booleans())
def test_the_analysis_is_whooshs_chain(text, removestops):
    mine = [(t.term, t.position, t.start, t.end, t.stopped) for t in analyze(text, removestops)]
    assert mine == _whoosh_tokens(_reference_chain(), text, removestops)
    numbers = [(t.term, t.position, t.start, t.end, t.stopped) for t in analyze_numbers(text)]
    assert numbers == _whoosh_tokens(_reference_chain(numbers=True), text, True)


def test_the_analysis_is_whooshs_chain_on_the_corpus(kb):
    chain = _reference_chain()
    for rule in kb.rules("2004")[:300]:
        for removestops in (True, False):
            mine = [(t.term, t.position, t.start, t.end, t.stopped) for t in analyze(rule.text, removestops)]
            assert mine == _whoosh_tokens(chain, rule.text, removestops), rule.number


def test_the_analysis_memos_are_bounded():
    """Issue 35: the memos keyed by a user's words keep at most :data:`MEMO_SIZE` of them, and still answer right."""
    for index in range(MEMO_SIZE + 100):
        term(f"Zqxmots{index}")
    for memo in (term, stem):
        assert memo.cache_info().maxsize == MEMO_SIZE
        assert memo.cache_info().currsize <= MEMO_SIZE
    assert term.cache_info().currsize == MEMO_SIZE
    assert term("Blessures") == ("blessur", False)
    assert stem("blessures") == "blessur"


def test_tables_hold_whooshs_own_scores(store, whoosh_index, search_index):
    """Every posting of every term, scored by Whoosh's BM25F scorer during a query: the same floats."""
    with whoosh_index.searcher() as searcher:
        reader = searcher.reader()
        count = 0
        for field in FIELDS:
            for term in reader.lexicon(field):
                matcher = searcher.postings(field, term)
                docs, scores = [], []
                while matcher.is_active():
                    docs.append(matcher.id())
                    scores.append(matcher.score())
                    matcher.next()
                assert search_index.postings(field, term.decode("utf-8")) == (tuple(docs), tuple(scores))
                count += 1
        assert store.connection.execute("SELECT count(*) FROM postings").fetchone()[0] == count
        assert search_index.doc_count == reader.doc_count_all()
        for docnum, fields in enumerate(reader.all_stored_fields()):
            stored = search_index.stored(docnum)
            assert all(stored.get(name) == value for name, value in fields.items() if name != "order")


def test_the_whoosh_index_is_written_once_and_whole(kb, store, search_index):
    """Written on first need into the cache folder, then opened from there by another reader."""
    assert (kb.cache_dir / "index").is_dir()
    assert not [path for path in kb.cache_dir.iterdir() if path.name.startswith(".index-")]
    other = read_index(store, kb.cache_dir)
    assert other.whoosh().doc_count_all() == search_index.doc_count


_WORDS = [
    "blessures",
    "fatales",
    "créature",
    "créatures",
    "endurance",
    "0",
    "l'endurance",
    "420.5c",
    "2/2",
    "pile",
    "sort",
    "capacité",
    "déclenchée",
    "légende",
    "aura",
    "jeton",
    "couche",
    "effet",
    "continu",
    "dépend",
    "tampon",
    "horaire",
    "marqueur",
    "+1/+1",
    "joueur",
    "perd",
    "partie",
    "zzz",
    "le",
    "la",
    "de",
    "à",
    "et",
    "d'un",
    "qu'il",
    "suspension",
    "Guide",
    "griffon",
    "régénération",
    "piétinement",
    "502",
    "4",
    "a-b",
    "dégâts",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5), st.sampled_from([None, "2004"]),
       st.sampled_from([(), ("rule",), ("card", "ruling")]))  # fmt: skip
def test_a_query_of_words_finds_what_whoosh_finds(kb, whoosh_index, words, edition, kinds):
    from whoosh.qparser import MultifieldParser, WildcardPlugin
    from whoosh.query import And, Or
    from whoosh.query import Term as WhooshTerm

    text = " ".join(words)
    assert not uses_syntax(text)
    parser = MultifieldParser(list(FIELDS), whoosh_index.schema)
    parser.remove_plugin_class(WildcardPlugin)
    parsed = parser.parse(text)
    query = word_query(text)
    assert str(query if query is not None else "<_NullQuery>") == str(parsed)
    if query is None:
        return
    parts = ([WhooshTerm("edition", edition)] if edition else []) + (
        [Or([WhooshTerm("kind", k) for k in kinds])] if kinds else []
    )
    wanted = (parts[0] if len(parts) == 1 else And(parts)) if parts else None
    index = kb.index
    mine = index.run(query, 30, index.allowed(edition, kinds))
    with whoosh_index.searcher() as searcher:
        theirs = [(hit.docnum, hit.score) for hit in searcher.search(parsed, limit=30, filter=wanted)]
    assert len(mine) == len(theirs)
    for hit, (docnum, score) in zip(mine, theirs):
        assert hit.score == pytest.approx(score, rel=1e-9)
        if hit.docnum != docnum:  # only equal scores may come in another order
            assert score == pytest.approx(dict(theirs).get(hit.docnum, -1), rel=1e-9)


def test_a_query_of_terms_is_written_as_whoosh_writes_it():
    from whoosh.query import Or
    from whoosh.query import Term as WhooshTerm

    terms = [
        ("title", "blessur", 1.0),
        ("examples", "blessur", 0.25),
        ("text", "fatal", 0.5),
        ("examples", "fatal", 0.125),
    ]
    assert str(Group(False, tuple(Term(*t) for t in terms))) == str(
        Or([WhooshTerm(f, x, boost=b) for f, x, b in terms])
    )


@pytest.mark.parametrize("text", ['"blessures fatales"', 'sort "capacité déclenchée" pile'])
def test_quoted_phrases_go_to_whoosh(text):
    assert uses_syntax(text)


@pytest.mark.parametrize(
    "text", ["l'endurance", "qu'il", "2/2", "420.5c", "aujourd’hui", "a-b", "Et ou Donc", "sort^2", "'abc'", '"abc', "(carte)", "[/bold]", "règle : 420.5c"]
)  # fmt: skip
def test_words_stay_words(text):
    assert not uses_syntax(text)
    check_query(text)


@pytest.mark.parametrize(
    ("text", "named"),
    [("titre:couche", "« titre: »"), ("line:5", "« line: »"), ("pouvoir NOT mana", "« NOT »"), ("(a OR b)", "« OR »"),
     ("blessures ANDNOT ANDMAYBE fatales", "« ANDNOT »"), ('NEAR ANDNOT ("', "« ANDNOT »")],
)  # fmt: skip
def test_operators_and_fields_are_refused(text, named):
    """Issue 23: Whoosh's operators and fields raised tracebacks; they are refused, in French."""
    with pytest.raises(QueryError, match="n'est pas accepté") as caught:
        check_query(text)
    assert named in str(caught.value)


def test_stemming_does_not_leave_urllib_behind():
    """The stemmer is imported without urllib.request, which stays importable for real."""
    code = (
        "import sys; from rules_kb.engines.analysis import stem; assert stem('blessures') == 'blessur'; "
        "assert 'urllib.request' not in sys.modules; import whoosh.compat; "
        "import urllib.request; assert hasattr(urllib.request, 'urlopen'); print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_read_only_cache_still_answers_whoosh_queries(tmp_path, monkeypatch):
    """No index/ yet and a cache folder that refuses new folders: the index is written elsewhere, for this process."""
    from rules_kb import loader
    from rules_kb.search import search

    monkeypatch.setenv("RULES_KB_HOME", str(tmp_path))
    kb = loader.open()
    assert not (kb.cache_dir / "index").exists()
    real = tempfile.mkdtemp

    def refuse_cache_folder(*args, **kwargs):
        if Path(kwargs.get("dir") or "") == kb.cache_dir:
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkdtemp", refuse_cache_folder)
    hits = search(kb, '"blessures fatales"', kinds=("rule",)).hits
    assert hits[0].id == "420.5c"
    assert not (kb.cache_dir / "index").exists()


def test_an_unwritable_index_is_a_french_error(tmp_path, monkeypatch):
    from rules_kb import loader
    from rules_kb.core.errors import IndexBuildError
    from rules_kb.search import search

    monkeypatch.setenv("RULES_KB_HOME", str(tmp_path))
    kb = loader.open()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", full_disk)
    with pytest.raises(IndexBuildError, match="Impossible d'écrire l'index de recherche"):
        search(kb, '"couche"')
