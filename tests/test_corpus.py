"""The corpus folder: bundled manifest, locating a corpus, manifest errors, cache keys."""

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer import read_document
from rules_kb import loader
from rules_kb.core.corpus import bundled_corpus, load_manifest, locate_corpus
from rules_kb.core.errors import CorpusError
from rules_kb.core.model import DocumentKind
from rules_kb.loader import fingerprint
from rules_kb.lookup.rules import show
from rules_kb.search import search

MANIFEST_ENTRY = """
[[document]]
id = "{id}"
file = "{file}"
kind = "{kind}"
language = "fr"
edition = "2004"
date = "{date}"
title = "Titre"
origin = "Un document de test."
"""


def _write_corpus(folder: Path, entries: str, files: dict[str, str | bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.toml").write_text(entries, encoding="utf-8")
    for name, content in files.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def _entry(**values):
    defaults = {"id": "doc", "file": "doc.txt", "kind": "rules", "date": "2004-06-01"}
    defaults.update(values)
    return MANIFEST_ENTRY.format(**defaults)


def test_bundled_manifest_lists_the_five_documents():
    documents = load_manifest(bundled_corpus())
    assert [d.id for d in documents] == ["cr-2004", "cr-2011-611", "cr-2011-201", "faq-tsp-2006", "cours-2"]
    kinds = {d.id: d.kind for d in documents}
    assert kinds["cr-2004"] is DocumentKind.RULES
    assert kinds["cr-2011-611"] is DocumentKind.RULES_EXCERPT
    assert kinds["faq-tsp-2006"] is DocumentKind.FAQ
    assert kinds["cours-2"] is DocumentKind.COURSE
    editions = {d.id: d.edition for d in documents}
    assert editions == {
        "cr-2004": "2004",
        "cr-2011-611": "2011",
        "cr-2011-201": "2011",
        "faq-tsp-2006": "2006-faq",
        "cours-2": "cours",
    }
    for document in documents:
        assert document.title and document.origin and document.language == "fr"
        assert Path(document.path).is_file()


def test_bundled_documents_are_the_shared_sources_unchanged():
    sources = bundled_corpus().parent.parent / "shared" / "sources"
    if not sources.is_dir():
        sources = Path(__file__).resolve().parents[2] / "shared" / "sources"
    assert sources.is_dir(), "../shared/sources est attendu à côté du projet"
    originals = {path.read_bytes() for path in sources.glob("0*.txt")}
    bundled = {Path(d.path).read_bytes() for d in load_manifest(bundled_corpus())}
    assert bundled == originals


def test_locate_prefers_argument_then_environment(tmp_path, monkeypatch):
    folder = _write_corpus(tmp_path / "mine", _entry(), {"doc.txt": "100. Généralités\n"})
    monkeypatch.setenv("RULES_KB_CORPUS", str(folder))
    assert locate_corpus() == folder.resolve()
    assert locate_corpus(bundled_corpus()) == bundled_corpus().resolve()
    monkeypatch.delenv("RULES_KB_CORPUS")
    assert locate_corpus() == bundled_corpus().resolve()


@pytest.mark.parametrize(
    ("manifest", "files", "expected"),
    [
        ("", {}, "ne décrit aucun document"),
        ("[[document]\n", {}, "ligne 1 : TOML invalide (colonne 11) : « ]] » attendu à la fin du nom de table."),
        ("[[document]]\nid = \n", {}, "ligne 2 : TOML invalide (colonne 6) : valeur invalide"),
        (_entry(kind="livre"), {"doc.txt": ""}, "kind « livre » inconnu"),
        (_entry(date="1er juin 2004"), {"doc.txt": ""}, "date « 1er juin 2004 » invalide"),
        (_entry(file="absent.txt"), {}, "« absent.txt » est introuvable"),
        (_entry() + "couleur = 'bleu'\n", {"doc.txt": ""}, "clé inconnue « couleur »"),
        (_entry().replace('title = "Titre"\n', ""), {"doc.txt": ""}, "la clé « title » manque"),
        (_entry().replace('title = "Titre"', "title = 3"), {"doc.txt": ""}, "« title » doit être un texte"),
        (_entry() + _entry(), {"doc.txt": ""}, "l'id « doc » est déjà utilisé"),
        ("titre = 'x'\n", {}, "clé inconnue « titre »"),
        (_entry() + "cites_edition = 2011\n", {"doc.txt": ""}, "« cites_edition » doit être un texte"),
        (
            _entry() + "cites_edition = '1999'\n",
            {"doc.txt": ""},
            "cites_edition « 1999 » n'est l'édition d'aucun document",
        ),
    ],
)
def test_manifest_errors_are_french_and_name_the_problem(tmp_path, manifest, files, expected):
    folder = _write_corpus(tmp_path / "corpus", manifest, files)
    with pytest.raises(CorpusError) as raised:
        load_manifest(folder)
    assert expected in str(raised.value)
    assert "manifest.toml" in str(raised.value) or "absent.txt" in str(raised.value)


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ("# " + "x" * 1_000_000, "est trop grand (plus de 1\u202f000\u202f000 octets)"),
        ("x = " + "[" * 100_000, "ligne 1 : ligne de 100\u202f004 caractères"),
        ("x = " + "[\n" * 1_000, "ligne 33 : listes ou tables imbriquées sur plus de 32 niveaux"),
        ("a" + ".a" * 50_000 + " = 1", "au plus 10\u202f000 par ligne"),
    ],
)
def test_oversized_manifests_are_refused_before_parsing(tmp_path, manifest, expected, monkeypatch):
    import tomllib

    def never(*args, **kwargs):
        raise AssertionError("tomllib read an oversized manifest")

    folder = _write_corpus(tmp_path / "corpus", manifest, {})
    monkeypatch.setattr(tomllib, "loads", never)
    with pytest.raises(CorpusError) as raised:
        load_manifest(folder)
    assert expected in str(raised.value) and "manifest.toml" in str(raised.value)


def test_missing_folder_and_missing_manifest(tmp_path):
    with pytest.raises(CorpusError, match="n'existe pas"):
        locate_corpus(tmp_path / "nulle-part")
    with pytest.raises(CorpusError, match="n'a pas de fichier manifest.toml"):
        locate_corpus(tmp_path)


def test_a_file_given_for_the_corpus_folder_says_so(tmp_path):
    """The issue: ``--corpus FILE`` said the folder did not exist."""
    folder = _write_corpus(tmp_path / "mine", _entry(), {"doc.txt": "100. Généralités\n"})
    with pytest.raises(CorpusError) as raised:
        locate_corpus(folder / "doc.txt", given_as="--corpus")
    assert str(raised.value) == (
        f"« {folder / 'doc.txt'} » (--corpus) n'est pas un dossier de corpus mais un fichier : "
        "indiquez le dossier qui contient le manifest.toml et ses documents."
    )
    with pytest.raises(CorpusError) as raised:
        locate_corpus(folder / "manifest.toml")
    assert f"mais le manifest.toml lui-même : indiquez son dossier, « {folder} »." in str(raised.value)


def test_unreadable_document_is_a_clear_error(tmp_path):
    folder = _write_corpus(tmp_path / "corpus", _entry(), {"doc.txt": b"100. G\xe9n\xe9ralit\xe9s\n"})
    [document] = load_manifest(folder)
    with pytest.raises(CorpusError, match="n'est pas un texte UTF-8"):
        read_document(document)


def test_fingerprint_changes_with_any_file(tmp_path):
    folder = _write_corpus(tmp_path / "corpus", _entry(), {"doc.txt": "100. Généralités\n"})
    documents = load_manifest(folder)
    first = fingerprint(folder, documents, [])
    assert fingerprint(folder, documents, []) == first
    (folder / "doc.txt").write_text("100. Généralités\n100.1. Nouveau.\n", encoding="utf-8")
    assert fingerprint(folder, documents, []) != first


def test_changed_corpus_is_reindexed_by_itself(tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(bundled_corpus(), folder)
    first = loader.open(folder)
    assert show(first, "420.5c").rule.text.startswith("Une créature avec des blessures fatales")
    path = folder / "regles-completes-2004.txt"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("Une créature avec des blessures fatales", "Une créature blessée à mort"), encoding="utf-8"
    )
    steps = []
    second = loader.open(folder, progress=lambda description, done, total: steps.append((description, done, total)))
    assert second.cache_dir != first.cache_dir
    assert show(second, "420.5c").rule.text.startswith("Une créature blessée à mort")
    assert [h.id for h in search(second, "blessée à mort").hits][:1] == ["420.5c"]
    # the changed rule's text is embedded at build, with a progress bar; the others come from the package data

    assert ("Vecteurs sémantiques des règles et situations", 1, 1) in steps
    vectors = second.dense
    assert vectors.missing == 0 and "rule:2004:420.5c" in vectors.rule_rows


def test_cached_corpus_is_loaded_not_rebuilt(kb, monkeypatch):
    import rules_kb.indexing.cache

    def fail(*args, **kwargs):
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(rules_kb.indexing.cache, "build_cache", fail)
    again = loader.open()
    assert again.cache_dir == kb.cache_dir
    assert len(again.corpus.rules) == len(kb.corpus.rules)


def test_damaged_cache_is_rebuilt(monkeypatch, tmp_path):
    monkeypatch.setenv("RULES_KB_HOME", str(tmp_path))
    first = loader.open()
    database = first.cache_dir / "rules-kb.sqlite"
    first.close()
    database.write_bytes(b"not a database")
    again = loader.open()
    assert show(again, "420.5c").rule.number == "420.5c"
    assert database.read_bytes() != b"not a database"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_manifest_gives_documents_or_a_french_error(tmp_path_factory, content):
    folder = tmp_path_factory.mktemp("manifest")
    (folder / "manifest.toml").write_text(content, encoding="utf-8")
    (folder / "doc.txt").write_text("100. Généralités\n", encoding="utf-8")
    try:
        documents = load_manifest(folder)
    except CorpusError as error:
        assert str(folder) in str(error) or "document" in str(error)
    else:
        assert all(Path(d.path).is_file() for d in documents)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["id", "file", "kind", "language", "edition", "date", "title", "origin", "x"]),
        st.one_of(st.text(max_size=12), st.integers(), st.booleans()),
        max_size=9,
    )
)
def test_any_manifest_entry_gives_a_document_or_a_french_error(tmp_path_factory, entry):
    import json

    folder = tmp_path_factory.mktemp("entry")
    lines = ["[[document]]"] + [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in entry.items()]
    (folder / "manifest.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        load_manifest(folder)
    except CorpusError as error:
        assert "manifest.toml" in str(error) or "introuvable" in str(error)


def test_custom_corpus_with_two_editions(tmp_path):
    entries = _entry(id="ancienne", file="a.txt").replace('edition = "2004"', 'edition = "1999"') + _entry(
        id="recente", file="b.txt"
    )
    folder = _write_corpus(
        tmp_path / "corpus",
        entries,
        {
            "a.txt": "100. Généralités\n100.1. Ancien texte.\n100.2. Règle disparue.\n",
            "b.txt": "100. Généralités\n100.1. Nouveau texte.\n",
        },
    )
    kb = loader.open(folder)
    assert kb.editions == ("2004", "1999")
    assert show(kb, "100.1").rule.text == "Nouveau texte."
    assert show(kb, "100.1", edition="1999").rule.text == "Ancien texte."
    assert show(kb, "100.2").rule.edition == "1999"  # found in the other edition
    assert [hit.edition for hit in search(kb, "texte", edition="1999").hits] == ["1999"]


def test_html_documents_are_parsed_like_text(tmp_path):
    """A corpus may give a document as HTML: lxml keeps its blocks, then the same parser runs."""
    fixtures = Path(__file__).parent / "fixtures"
    folder = tmp_path / "html-corpus"
    folder.mkdir()
    (folder / "page.html").write_bytes((fixtures / "rules_page.html").read_bytes())
    (folder / "faq.htm").write_bytes((fixtures / "forum_post.html").read_bytes())
    (folder / "manifest.toml").write_text(
        '[[document]]\nid = "p"\nfile = "page.html"\nkind = "rules-excerpt"\nlanguage = "fr"\n'
        'edition = "2011"\ndate = "2011-02-04"\ntitle = "Page"\norigin = "Fixture."\n\n'
        '[[document]]\nid = "f"\nfile = "faq.htm"\nkind = "faq"\nlanguage = "fr"\n'
        'edition = "2007-faq"\ndate = "2007-03-02"\ntitle = "FAQ"\norigin = "Fixture."\n',
        encoding="utf-8",
    )
    kb = loader.open(folder)
    assert show(kb, "611.3a").rule.text.startswith("L’effet s’applique")
    assert [card.name for card in kb.corpus.cards] == ["Ours runegriffe", "Plaine enneigée"]
    assert search(kb, "runegriffe", kinds=("carte",)).hits[0].id == "Ours runegriffe"


def test_unreadable_html_is_a_french_error(tmp_path):
    from rules_kb.core.model import Document, DocumentKind

    missing = Document("m", "absent.html", DocumentKind.FAQ, "fr", "x", "2006", "M", "o", str(tmp_path / "absent.html"))
    with pytest.raises(CorpusError, match="Impossible de lire le document HTML"):
        read_document(missing)


def test_empty_document_is_a_diagnostic(tmp_path, run_cli):
    """A document with no text (or none its parser recognises) is named by
    ``corpus check``, whatever its kind; the others are read as usual."""
    entries = "".join(
        _entry(id=name, file=f"{name}.txt", kind=kind)
        for name, kind in (("regles", "rules"), ("vide", "faq"), ("blanc", "course"), ("inconnu", "rules"))
    )
    folder = _write_corpus(
        tmp_path / "corpus",
        entries,
        {
            "regles.txt": "100. Généralités\n100.1. Un texte.\n",
            "vide.txt": "",
            "blanc.txt": " \n\n\t\n",
            "inconnu.txt": "Une lettre qui n'a rien de règles.\n",
        },
    )
    kb = loader.open(folder)
    found = {(d.document, d.code, d.line) for d in kb.diagnostics}
    assert found == {
        ("vide", "empty-document", 1),
        ("blanc", "empty-document", 1),
        ("inconnu", "document-without-records", 1),
    }
    assert show(kb, "100.1").rule.text == "Un texte."
    result = run_cli("corpus", "check", "--corpus", str(folder))
    output = " ".join(result.stdout.replace("\u00a0", " ").replace("\u202f", " ").split())
    assert result.exit_code == 0
    assert "Le document « vide » (vide.txt) est vide" in output
    assert "retirez-le du manifeste" in output
    assert run_cli("corpus", "check", "--corpus", str(folder), "--strict").exit_code == 1


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(list(DocumentKind)),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200),
)
def test_any_document_gives_records_or_a_diagnostic(kind, text):
    """Whatever a document holds, it gives a record or ``corpus check`` says why not."""
    from indexer import PARSERS, document_diagnostics
    from rules_kb.core.model import Document

    document = Document("d", "d.txt", kind, "fr", "2004", "2004", "Titre", "Un document de test.", "d.txt")
    parsed = PARSERS[kind](text, document)
    records = sum(len(getattr(parsed, name)) for name in parsed._fields if name != "diagnostics")
    diagnostics = document_diagnostics(text, document, parsed)
    assert records or diagnostics
    if not text.strip():
        assert [d.code for d in diagnostics] == ["empty-document"]


def test_the_quick_test_before_the_scan_matches_the_scanner_limits():
    from rules_kb.core import toml_syntax

    assert (toml_syntax.MAX_LINE, toml_syntax.MAX_DEPTH) == (10_000, 32)  # the numbers load_manifest tests first
