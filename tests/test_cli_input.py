"""What the command line takes from a user (issue 20): several words without
quotes, bytes that are not UTF-8, texts too long, files whose name announces
another format, empty scenarios, a file given for the corpus folder."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import usage
from cli.commands import parse, words_parameter
from rules_kb.operations import MAX_TEXT


@pytest.mark.parametrize(
    ("words", "quoted"),
    [
        (["search", "blessures", "fatales"], ["search", "blessures fatales"]),
        (["define", "taille", "max", "main"], ["define", "taille max main"]),
        (["ask", "ma", "2/2", "meurt", "?"], ["ask", "ma 2/2 meurt ?"]),
        (["graph", "effet", "de", "remplacement"], ["graph", "effet de remplacement"]),
    ],
)
def test_several_words_make_one_text(words, quoted):
    """The issue's ``rules-kb search blessures fatales`` (exit 2 before)."""
    joined, alone = parse(words), parse(quoted)
    dest = words_parameter(words[0])
    assert getattr(joined, dest) == getattr(alone, dest) == quoted[1]


def test_words_around_options_and_minus_counters():
    options = parse(["ask", "ma", "créature", "-n", "2", "a", "-1/-1", "elle", "meurt"])
    assert options.question == "ma créature a -1/-1 elle meurt" and options.limit == 2
    assert parse(["ask", "-1/-1", "la", "tue ?"]).question == "-1/-1 la tue ?"
    assert parse(["search", "--limit", "3", "blessures", "fatales"]).query == "blessures fatales"


def test_the_commands_answer_the_same_with_or_without_quotes(run_cli):
    assert (
        run_cli("search", "blessures", "fatales", "--json").json()
        == run_cli("search", "blessures fatales", "--json").json()
    )
    result = run_cli("define", "taille", "max", "main")
    assert result.exit_code == 0 and "Taille maximale de main" in result.stdout
    answer = run_cli("ask", "ma", "2/2", "meurt", "?", "--json").json()
    assert answer["question"] == "ma 2/2 meurt ?"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["search", "blessures", "--zz", "fatales"], "Option inconnue : '--zz'."),
        (["show", "420.5", "420.6"], "Argument en trop (420.6)"),
        (["check", "a.toml", "b.toml"], "Argument en trop (b.toml)"),
        (["search"], "Il manque l'argument 'REQUÊTE'."),
    ],
)
def test_what_is_left_is_still_an_error_naming_the_command(run_cli, args, expected):
    """The hint names the command typed, never always ``ask``."""
    result = run_cli(*args)
    assert result.exit_code == 2 and expected in result.error
    assert f"Utilisation : rules-kb {args[0]}" in result.error
    assert "rules-kb ask" not in result.stderr or args[0] == "ask"


def test_bytes_that_are_not_utf8_are_said_in_french(run_cli):
    """The issue: a Latin-1 terminal's « é » became a typo fix (« ature →
    autre ») or ``\\udcff`` in a message. Python reads such a byte as a lone
    surrogate (PEP 383)."""
    result = run_cli("ask", "ma cr\udce9ature meurt ?")
    assert result.exit_code == 2 and result.stdout == ""
    message = result.error
    assert "L'argument QUESTION contient l'octet 0xE9 après « ma cr », qui n'est pas de l'UTF-8" in message
    assert "lu en Latin-1, ce serait « ma créature meurt ? »" in message
    assert "\udce9" not in result.stderr and "udce9" not in result.stderr
    assert "corrigée" not in result.stderr
    note = run_cli("export", "420.5", "--note", "\udcff\udcfe")
    assert note.exit_code == 2 and "La valeur de --note contient l'octet 0xFF au début" in note.error


def test_a_file_name_may_hold_any_bytes(run_cli, tmp_path):
    """Names of files and folders are the system's: not refused for their bytes."""
    result = run_cli("check", str(tmp_path / "absent\udcff.toml"))
    assert result.exit_code == 1 and "lecture impossible" in result.stderr


@pytest.mark.parametrize("command", ["define", "search", "ask", "show", "graph"])
def test_a_huge_argument_is_refused_with_its_limit(run_cli, command):
    """The issue: ``define`` echoed a 100 KB argument twice (206 KB on standard error)."""
    result = run_cli(command, "a" * 102_400)
    assert result.exit_code == 1 and result.stdout == ""  # refused for what it says, as the library does
    longest = "40" if command == "show" else "2\u202f000"  # a rule number's declared length, a text's
    assert f"trop long : 102\u202f400 caractères, {longest} au plus" in result.stderr
    assert len(result.stderr) < 1000


def test_show_with_a_5000_digit_number_ends_in_french_with_exit_1(run_cli):
    """Issue 23's acceptance: ``rules-kb show $(python -c 'print("1"*5000)')``."""
    result = run_cli("show", "1" * 5000)
    assert result.exit_code == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert "trop long : 5\u202f000 caractères" in result.stderr and len(result.stderr) < 300
    shorter = run_cli("show", "1" * 40)  # within the limit (40): refused by the library, not echoed whole
    assert shorter.exit_code == 1 and "n'est pas un numéro de règle" in shorter.stderr and len(shorter.stderr) < 300


def test_a_text_at_the_limit_is_taken():
    assert parse(["search", "a" * MAX_TEXT]).query == "a" * MAX_TEXT
    assert parse(["search", *["ab"] * (MAX_TEXT // 3)]).query  # 2 000 characters joined, spaces included


def test_words_beyond_the_limit_once_joined_are_refused(capsys):
    assert parse(["define", *["mot"] * 600]) == 1  # 2 399 characters joined
    assert "L'argument TERME est trop long" in capsys.readouterr().err


_ARGUMENT = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from("\udce9\udcff-"), max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["search", "define", "ask", "graph", "show", "export", "check"]),
       words=st.lists(_ARGUMENT, max_size=5))  # fmt: skip
def test_any_command_line_parses_or_gives_a_french_usage_error(capsys, command, words):
    result = parse([command, *words])
    captured = capsys.readouterr()
    if isinstance(result, int):
        assert result in (0, 1, 2)
        if result:
            assert "Erreur" in captured.err and "Traceback" not in captured.err
    else:
        assert isinstance(result, SimpleNamespace)
        dest = words_parameter(command)
        if dest:
            text = getattr(result, dest)
            assert isinstance(text, str) and len(text) <= MAX_TEXT and not usage.undecoded(text)


def test_unknown_output_suffixes_are_errors_and_write_nothing(run_cli, tmp_path):
    """The issue: ``export 420.5 -o sba.pdf`` wrote Markdown, ``graph 420 -o
    v.svg --format mermaid`` wrote Mermaid into a .svg."""
    pdf = run_cli("export", "420.5", "-o", str(tmp_path / "sba.pdf"))
    assert pdf.exit_code == 1 and "Extension « .pdf » inconnue" in pdf.stderr
    svg = run_cli("graph", "420", "-o", str(tmp_path / "v.svg"), "--format", "mermaid")
    assert svg.exit_code == 1 and "pas du Mermaid" in svg.stderr
    assert list(tmp_path.iterdir()) == []
    mermaid = run_cli("graph", "420", "-o", str(tmp_path / "v.mmd"))
    assert mermaid.exit_code == 0 and (tmp_path / "v.mmd").read_text().startswith("flowchart LR")


def test_graph_json_and_another_format_contradict(run_cli):
    """The issue: ``graph --json --format mermaid`` gave JSON silently."""
    result = run_cli("graph", "420", "--json", "--format", "mermaid")
    assert result.exit_code == 2 and result.stderr == ""  # issue 38: with --json, the error is JSON
    assert "--json donne le graphe en JSON : il ne va pas avec --format mermaid" in result.json()["error"]["message"]
    assert run_cli("graph", "420", "--json", "--format", "json").json()["center"] == "rule:2004:420"


def test_an_empty_scenario_file_is_an_error(run_cli, tmp_path):
    empty = tmp_path / "vide.toml"
    empty.write_text("# à remplir\n", encoding="utf-8")
    result = run_cli("check", str(empty))
    assert result.exit_code == 1 and result.stdout == ""
    assert "le texte est vide" in result.stderr and "rules-kb check --example" in result.stderr


def test_a_file_for_the_corpus_folder_and_a_bad_manifest(run_cli, tmp_path):
    file = tmp_path / "corpus.toml"
    file.write_text("", encoding="utf-8")
    result = run_cli("show", "420", "--corpus", str(file))
    assert result.exit_code == 1 and "n'est pas un dossier de corpus mais un fichier" in result.stderr
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "manifest.toml").write_text('[[document]]\nid = "a"\nfile = \n', encoding="utf-8")
    bad = run_cli("show", "420", "--corpus", str(folder))
    message = " ".join(bad.stderr.split())
    assert bad.exit_code == 1 and "manifest.toml, ligne 3 : TOML invalide (colonne 8) : valeur invalide" in message
    assert "Invalid" not in message


def test_corpus_list_says_the_kinds_in_french(run_cli):
    text = run_cli("corpus", "list").stdout
    assert "cr-2004  règles complètes, édition 2004" in text and "faq-tsp-2006  FAQ, édition" in text
    assert "rules-excerpt" not in text and "course," not in text
    assert {document["kind"] for document in run_cli("corpus", "list", "--json").json()["documents"]} == {
        "rules", "rules-excerpt", "faq", "course",
    }  # fmt: skip


def test_show_helps_with_the_number(run_cli):
    look_alike = run_cli("show", "42O.5")
    assert look_alike.exit_code == 1 and "vouliez-vous dire 420.5 ?" in look_alike.stderr
    beyond = " ".join(run_cli("show", "999.9").stderr.split())
    assert (
        "il vient après la dernière règle de l'édition 2004, 507.4. Dernières règles : 507.3b, 507.3c, 507.3d, 507.4."
        in beyond
    )
    version = run_cli("show", "502.16")
    assert "similarité 100" not in version.stdout


@pytest.mark.parametrize(
    "arguments",
    [("check", "{long}.toml"), ("check", "{long}/x.toml"), ("export", "420.5c", "-o", "{long}.md"),
     ("export", "--all", "-o", "{long}"), ("ask", "x", "--corpus", "{long}"), ("ask", "--file", "{long}"),
     ("show", "420.5c", "--corpus", "/tmp/" + "d/" * 2100)],
)  # fmt: skip
def test_a_path_no_system_takes_is_refused_in_french(run_cli, arguments):
    """Issue 23's fuzzing: a 3 000-character file name crashed check, export and --corpus (OSError, name too long)."""
    result = run_cli(*(argument.format(long="a" * 3000) for argument in arguments))
    assert result.exit_code == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert "n'est pas un chemin possible" in result.stderr and len(result.stderr) < 500


def test_an_unforeseen_system_error_is_a_french_line(run_cli, monkeypatch):
    """The last resort: a file error the library did not foresee is one French line, exit 1, no traceback."""
    import errno

    from cli import app

    def failing(options):
        raise OSError(errno.ENAMETOOLONG, "File name too long", "/tmp/x")

    monkeypatch.setitem(app.COMMANDS, "show", failing)
    result = run_cli("show", "420.5c")
    assert result.exit_code == 1 and result.stderr == "Erreur du système : nom de fichier trop long (« /tmp/x »).\n"


def test_a_corpus_folder_named_too_long_is_a_corpus_error(monkeypatch):
    from rules_kb.core.corpus import locate_corpus
    from rules_kb.core.errors import CorpusError

    monkeypatch.setenv("RULES_KB_CORPUS", "/tmp/" + "a" * 3000)
    with pytest.raises(CorpusError, match="est illisible : nom de fichier trop long") as caught:
        locate_corpus(None)
    assert len(str(caught.value)) < 300
