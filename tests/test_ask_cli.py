"""``rules-kb ask`` on the command line: sections, options, JSON, errors."""

import pytest

from rules_kb.checker.scenario import parse_scenario


def test_sections_of_an_answer(run_cli):
    """Read in five seconds: the verdict first, the first rule's whole text, what was understood."""
    result = run_cli("ask", "ma 2/2 a pris 2 dégâts elle meurt ?")
    assert result.exit_code == 0
    out = result.stdout
    assert out.index("Verdict : ") < out.index("Règles") < out.index("Compris : ")
    assert "détruit" in out.split("Règles")[0]
    assert "Une créature avec des blessures fatales et une endurance supérieure à 0 est détruite. " in out
    assert "La régénération peut remplacer cet événement." in out  # 420.5c whole, not cut
    assert out.split("Règles")[1].lstrip().startswith("1. 420.5c")
    assert "« dégâts » → Blessures" in out
    assert "Glossaire" not in out and "Score" not in out  # behind --all and --explain
    every = run_cli("ask", "ma 2/2 a pris 2 dégâts elle meurt ?", "--all").stdout
    assert "Glossaire" in every and "Blessures —" in every


def test_a_typical_answer_fits_a_screen(run_cli):
    """At most 25 lines at 80 columns (issue 19), counting wrapped lines."""
    import textwrap

    for question in ("ma 2/2 a pris 2 dégâts elle meurt ?", "il a trample et je bloque avec une 1/1"):
        out = run_cli("ask", question).stdout
        lines = sum(max(1, len(textwrap.wrap(line, 80))) for line in out.rstrip().splitlines())
        assert lines <= 25, (question, lines)


def test_faq_rulings_section(run_cli):
    out = run_cli("ask", "je peux répondre à un sort avec flash ?").stdout
    assert "Décisions FAQ" in out and "Nouvelle capacité mot-clé : Flash" in out
    assert out.split("Décisions FAQ")[1].count("  • ") <= 3


def test_keyword_rulings_only_about_that_keyword(kb):
    """A card with trample is asked about for trample only when its ruling speaks of it."""
    from rules_kb.ask import ask
    from rules_kb.core.text import fold

    answer = ask(kb, "il a trample et je bloque avec une 1/1")
    assert all("pietinement" in fold(ruling.text) or ruling.card == "" for ruling in answer.rulings)


def test_explain_shows_how_it_was_found(run_cli):
    out = run_cli("ask", "il a trample", "--explain").stdout
    assert "Requête lancée sur l'index" in out and "title:" in out
    assert "Concepts reconnus" in out and "lexique, ligne" in out and "Score" in out


def test_scenario_option_prints_toml_that_check_reads(run_cli, tmp_path):
    result = run_cli("ask", "ma 2/2 a pris 2 dégâts", "--scenario")
    assert result.exit_code == 0
    parse_scenario(result.stdout, "situation.toml")
    path = tmp_path / "situation.toml"
    path.write_text(result.stdout, encoding="utf-8")
    checked = run_cli("check", str(path), "--json").json()
    assert checked["rounds"][0]["events"][0]["rule"] == "420.5c"


def test_scenario_option_without_a_board_is_a_french_error(run_cli):
    result = run_cli("ask", "il a trample", "--scenario")
    assert result.exit_code == 1
    assert "Pas de scénario pour cette question" in result.stderr
    assert "Traceback" not in result.stderr


def test_json_shape(run_cli):
    data = run_cli("ask", "ma 2/2 a pris 2 dégâts elle meurt ?", "--json", "--limit", "3").json()
    assert set(data) >= {"question", "concepts", "rules", "glossary", "rulings", "checker", "verification"}
    assert len(data["rules"]) == 3
    assert {"text", "kind", "target"} <= set(data["concepts"][0])
    assert {"number", "edition", "score", "why", "parts", "text"} <= set(data["rules"][0])
    assert data["rules"][0]["text"].endswith("La régénération peut remplacer cet événement.")
    assert data["checker"]["rounds"][0]["events"][0]["rule"] == "420.5c"
    assert data["verification"]["applied"] == ["420.5c"] and data["verification"]["scenario"].startswith("#")
    assert "Blessures" in data["glossary"]
    plain = run_cli("ask", "il a trample", "--json").json()
    assert plain["checker"] is None and plain["unknown"] is False


def test_unknown_question_says_so(run_cli):
    result = run_cli("ask", "blabla truc machin")
    assert result.exit_code == 0
    assert "Je ne sais pas répondre" in result.stdout and "Termes les plus proches" in result.stdout
    data = run_cli("ask", "blabla truc machin", "--json").json()
    assert data["unknown"] is True and data["rules"] == [] and data["nearest"]


def test_unknown_edition_is_a_french_error(run_cli):
    result = run_cli("ask", "trample", "--edition", "1999")
    assert result.exit_code == 1
    assert "1999" in result.stderr and "Traceback" not in result.stderr


# -- the question from a file or standard input (issue 23) -------------------------------------


def _stdin(monkeypatch, data: bytes) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_ask_reads_its_question_from_a_file_or_standard_input(run_cli, tmp_path, monkeypatch):
    question = tmp_path / "question.txt"
    question.write_text("\ufeffma 2/2 a pris 2 dégâts\nelle meurt ?\n", encoding="utf-8")
    from_file = run_cli("ask", "--file", str(question), "--json")
    assert from_file.exit_code == 0 and from_file.json()["rules"][0]["number"] == "420.5c"
    assert from_file.json()["question"] == "ma 2/2 a pris 2 dégâts\nelle meurt ?"
    _stdin(monkeypatch, "ma 2/2 a pris 2 dégâts elle meurt ?".encode())
    from_stdin = run_cli("ask", "-", "--json")
    assert from_stdin.exit_code == 0 and from_stdin.json()["rules"][0]["number"] == "420.5c"


def test_a_one_megabyte_question_is_refused_in_french_after_reading_8_kb(run_cli, tmp_path, endless_stdin):
    """Issue 23's acceptance: a 1 MB ``ask`` from a file or standard input ends with a French message, exit 1."""
    import io

    big = tmp_path / "grosse.txt"
    big.write_bytes(b"ma 2/2 meurt ? " * 70_000)
    for arguments in (("--file", str(big)), ("--file", "/dev/zero")):
        result = run_cli("ask", *arguments)
        assert result.exit_code == 1 and result.stdout == "" and "Traceback" not in result.stderr
        assert "dépasse 2\u202f000 caractères" in result.stderr and len(result.stderr) < 400
    result = run_cli("ask", "-")
    assert result.exit_code == 1 and "l'entrée standard dépasse 2\u202f000 caractères" in result.stderr
    assert sum(endless_stdin) <= 8001 + io.DEFAULT_BUFFER_SIZE


def test_a_question_file_that_cannot_be_read_is_a_french_error(run_cli, tmp_path):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("ma créature meurt ?".encode("cp1252"))
    cases = {str(tmp_path / "absent.txt"): "introuvable", str(tmp_path): "est un dossier", str(latin): "pas en UTF-8"}
    for path, words in cases.items():
        result = run_cli("ask", "--file", path, "--json")
        assert result.exit_code == 1 and words in result.json()["error"]["message"], path
    both = run_cli("ask", "ma 2/2", "--file", str(latin))
    assert both.exit_code == 2 and "pas les deux" in both.stderr
    nothing = run_cli("ask")
    assert nothing.exit_code == 2 and "QUESTION" in nothing.stderr


def test_a_question_read_whole_up_to_the_limit(tmp_path):
    """Multibyte characters up to the limit are read, and a character cut by the read is not an error."""
    from rules_kb.ask.question import MAX_QUESTION, read_question
    from rules_kb.core.errors import QueryError

    exact = tmp_path / "exact.txt"
    exact.write_text("é" * MAX_QUESTION, encoding="utf-8")
    assert read_question(str(exact)) == "é" * MAX_QUESTION
    over = tmp_path / "over.txt"
    over.write_text("é" * (MAX_QUESTION + 1), encoding="utf-8")
    with pytest.raises(QueryError, match="2\u202f001 caractères ; 2\u202f000 au plus"):
        read_question(str(over))
    wide = tmp_path / "wide.txt"
    wide.write_text("😀" * 3000, encoding="utf-8")  # 12 000 bytes: the read stops inside a character
    with pytest.raises(QueryError, match="dépasse"):
        read_question(str(wide))
