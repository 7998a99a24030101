"""Issue 23: every document parser, the manifest, the lexicon and the
mechanisms file, fed the real documents damaged — lines cut, dropped,
repeated or swapped, numbers made huge, control characters, markup and
stray numbering put in — give records and diagnostics, or the project's
French error; never an exception.

Mutating the bundled documents reaches the parsers' real paths (numbered
rules, glossary headwords, FAQ questions, course headings) far more often
than random text does; ``st.text()`` tests of each parser sit beside their
module's tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexer import PARSERS, ParsedDocument
from rules_kb.core.corpus import bundled_corpus, load_manifest
from rules_kb.core.errors import CorpusError
from tests.fuzz import campaign

CORPUS = bundled_corpus()
DOCUMENTS = load_manifest(CORPUS)

#: What a damaged or hostile document may hold, put in at random places.
_PIECES = [
    "", "\x00", "\x01", "\x1b[31m", "\x7f", "\x85", "\u2028", "\ufeff", "\ufffd", "[/b]", "<b>", "&amp;", "</p>",
    "420.5c", "420.", "611.3l", "1" * 5000, "999.9z", "0.", "100. ", "Q :", "R :", "Exemple :", "Glossaire",
    "Crédits", "—", "\t", "    ", "* ", "1.", "a)", "Voir règle 9" + "9" * 4400 + ".", "(voir 502.9)",
]  # fmt: skip


@st.composite
def damaged(draw, lines: list[str]) -> str:
    """A window of ``lines`` (up to 120 lines), damaged a few ways."""
    start = draw(st.integers(0, max(0, len(lines) - 1)))
    window = lines[start : start + draw(st.integers(1, 120))]
    for _ in range(draw(st.integers(0, 8))):
        position = draw(st.integers(0, max(0, len(window) - 1)))
        how = draw(st.sampled_from(["cut", "drop", "repeat", "swap", "insert", "huge", "join"]))
        line = window[position] if window else ""
        if how == "cut":
            window[position : position + 1] = [line[: draw(st.integers(0, len(line)))]] if window else []
        elif how == "drop" and window:
            del window[position]
        elif how == "repeat" and window:
            window.insert(position, line)
        elif how == "swap" and len(window) > 1:
            other = draw(st.integers(0, len(window) - 1))
            window[position], window[other] = window[other], window[position]
        elif how == "insert":
            piece = draw(st.sampled_from(_PIECES))
            cut = draw(st.integers(0, len(line)))
            window[position : position + 1] = [line[:cut] + piece + line[cut:]]
        elif how == "huge":
            window[position : position + 1] = ["".join("9" * 4400 if char.isdigit() else char for char in line[:40])]
        elif how == "join" and len(window) > 1:
            window[position : position + 2] = [" ".join(window[position : position + 2])]
    return "\n".join(window)


def _lines(document) -> list[str]:
    from indexer import read_document

    return read_document(document).splitlines()


@pytest.mark.parametrize("document", DOCUMENTS, ids=[document.id for document in DOCUMENTS])
def test_every_parser_reads_its_damaged_document(document):
    lines = _lines(document)
    parser = PARSERS[document.kind]

    @campaign(40)
    @given(text=damaged(lines))
    def parses(text):
        parsed = parser(text, document)
        assert isinstance(parsed, ParsedDocument)
        for diagnostic in parsed.diagnostics:
            assert diagnostic.document == document.id and diagnostic.line >= 0
            assert len(diagnostic.message) < 500  # a huge line is quoted shortened
        for rule in parsed.rules:
            assert len(str(rule.number)) <= 12

    parses()


_MANIFEST = (CORPUS / "manifest.toml").read_text(encoding="utf-8").splitlines()


@campaign(60)
@given(text=damaged(_MANIFEST))
def test_a_damaged_manifest_gives_documents_or_a_french_error(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("manifeste")
    (folder / "manifest.toml").write_text(text, encoding="utf-8")
    for document in DOCUMENTS:
        (folder / Path(document.path).name).write_text("100. Généralités\n", encoding="utf-8")
    try:
        documents = load_manifest(folder)
    except CorpusError as error:
        assert "manifest.toml" in str(error) or "document" in str(error)
        assert len(str(error)) < 1500
    else:
        assert all(Path(document.path).is_file() for document in documents)


def _data_lines(name: str) -> list[str]:
    from importlib.resources import files

    return files("rules_kb.data").joinpath(name).read_text(encoding="utf-8").splitlines()


@campaign(60)
@given(text=damaged(_data_lines("lexicon.tsv")))
def test_a_damaged_lexicon_parses_or_names_its_line(text):
    from rules_kb.engines.lexicon import LexiconError, parse_lexicon

    try:
        entries = parse_lexicon(text)
    except LexiconError as error:
        assert "ligne" in str(error) and len(str(error)) < 1500
    else:
        assert all(entry.form and entry.target and entry.source for entry in entries)


def _jsonl_reader(name: str):
    if name == "mechanisms.jsonl":
        from rules_kb.ask.mechanisms import read_mechanisms

        return read_mechanisms
    from rules_kb.engines.situations import read_situations

    return read_situations


@pytest.mark.parametrize("name", ["mechanisms.jsonl", "situations.jsonl"])
def test_a_damaged_data_file_reads_or_names_its_line(tmp_path_factory, name):
    """The mechanisms and the situations (JSON lines): records, or a French error naming the line."""
    from rules_kb.core.jsonl import JsonLinesError

    read = _jsonl_reader(name)

    @campaign(40)
    @given(text=damaged(_data_lines(name)))
    def reads(text):
        path = tmp_path_factory.mktemp("donnees") / name
        path.write_text(text, encoding="utf-8")
        try:
            records = read(path)
        except JsonLinesError as error:
            assert "ligne" in str(error) and len(str(error)) < 1500
        else:
            assert isinstance(records, tuple)

    reads()


@campaign(30)
@given(text=damaged(_lines(DOCUMENTS[0])))
def test_a_damaged_html_document_reads_as_text(tmp_path_factory, text):
    """An HTML document is converted to text then parsed: markup, entities and control characters come out as text."""
    from html import escape

    from indexer import parse_corpus

    folder = tmp_path_factory.mktemp("html")
    page = "<html><body>" + "".join(f"<p>{escape(line)}</p>" for line in text.splitlines()) + "</body></html>"
    (folder / "regles.html").write_text(page, encoding="utf-8")
    document = DOCUMENTS[0]._replace(path=str(folder / "regles.html"))
    corpus = parse_corpus(folder, (document,))
    assert all(diagnostic.document == document.id for diagnostic in corpus.diagnostics)
