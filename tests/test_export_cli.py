"""``rules-kb export`` as a judge uses it: files, standard output, the
rulebook folder, refusals and French errors."""

from __future__ import annotations

from lxml import html as lxml_html


def _said(text: str) -> str:
    """Output with Rich's line wrapping undone."""
    return " ".join(text.split())


def test_export_section_to_html_file(run_cli, tmp_path):
    target = tmp_path / "sba.html"
    result = run_cli("export", "420.5", "--format", "html", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert "Extrait HTML écrit dans" in _said(result.stderr) and "12 règle(s)" in _said(result.stderr)
    tree = lxml_html.fromstring(target.read_bytes())
    assert tree.xpath("//article/@data-number") == ["420.5"] + [f"420.5{c}" for c in "abcdefghijk"]
    assert tree.xpath('//dt[@id="g-blessures-fatales"]')


def test_second_export_without_force_refuses_and_keeps_the_first(run_cli, tmp_path):
    target = tmp_path / "sba.html"
    assert run_cli("export", "420.5", "-o", str(target)).exit_code == 0
    first = target.read_bytes()
    again = run_cli("export", "418.5a", "-o", str(target))
    assert again.exit_code == 1
    assert "existe déjà ; ajoutez --force" in _said(again.stderr) and "Traceback" not in again.stderr
    assert target.read_bytes() == first
    assert run_cli("export", "418.5a", "-o", str(target), "--force").exit_code == 0
    assert b"418.5a" in target.read_bytes() and target.read_bytes() != first


def test_format_follows_the_file_suffix(run_cli, tmp_path):
    target = tmp_path / "extrait.json"
    assert run_cli("export", "420.5c", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").lstrip().startswith('{\n  "format": "rules-kb-export"')


def test_ask_to_markdown_on_standard_output(run_cli):
    result = run_cli("export", "--ask", "ma 2/2 a pris 2 dégâts", "--format", "md")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# Extrait des règles — question « ma 2/2 a pris 2 dégâts »")
    assert "> **420.5c** Une créature avec des blessures fatales" in result.stdout
    assert "**Vérification de « ma 2/2 a pris 2 dégâts » :**" in result.stdout
    assert run_cli("export", "420.5c", "-o", "-").stdout.startswith("# Extrait des règles — 420.5c")


def test_note_and_no_annotations(run_cli):
    result = run_cli("export", "418.5a", "--note", "Pour la table 12", "--no-annotations")
    assert "> **Note de l'arbitre :** Pour la table 12" in result.stdout
    assert "## Glossaire" not in result.stdout and "[1]" not in result.stdout and "Exemple" not in result.stdout


def test_term_card_search_selections(run_cli):
    result = run_cli("export", "--term", "Couche", "--card", "Guide griffon", "--search", "tampon horaire", "-n", "2")
    assert result.exit_code == 0, result.stderr
    assert "terme « Couche »" in result.stdout and "## Carte : Guide griffon" in result.stdout
    assert "> **418.5a**" in result.stdout


def test_export_json_report(run_cli, tmp_path):
    result = run_cli("export", "420.5c", "--json")
    data = result.json()
    assert data["format"] == "md" and data["output"] is None and data["rules"] == ["2004:420.5c"]
    assert data["content"].startswith("# Extrait des règles")
    target = tmp_path / "x.html"
    data = run_cli("export", "420.5c", "-o", str(target), "--json").json()
    assert data["output"] == str(target) and data["content"] is None and "Blessures fatales" in data["glossary"]


def test_rulebook_folder(run_cli, tmp_path):
    folder = tmp_path / "livre"
    result = run_cli("export", "--all", "--format", "html", "-o", f"{folder}/")
    assert result.exit_code == 0, result.stderr
    assert (folder / "index.html").is_file() and (folder / "regles-2004-4.html").is_file()
    again = run_cli("export", "--all", "-o", str(folder))
    assert again.exit_code == 1 and "contient déjà un livre" in _said(again.stderr)
    assert run_cli("export", "--all", "-o", str(folder), "--force").exit_code == 0


def test_user_errors_are_french_with_exit_code_1(run_cli, tmp_path):
    cases = {
        ("export",): "Rien à exporter",
        ("export", "42x"): "n'est ni un numéro de règle ni une plage",
        ("export", "999"): "Aucune règle ne porte le numéro",
        ("export", "420.5", "--format", "pdf"): "Format « pdf » inconnu",
        ("export", "--term", "zzzzqx"): "Aucune entrée du glossaire",
        ("export", "--card", "Carte inexistante de test"): "Aucune carte de la FAQ",
        ("export", "--all"): "indiquez-le avec -o",
        ("export", "--search", "xqzwv"): "La recherche « xqzwv » ne trouve aucune règle. Rien à exporter",
        ("export", "--all", "420", "-o", str(tmp_path / "l")): "ne donnez pas de sélection avec --all",
        ("export", "420.5", "-o", str(tmp_path)): "est un dossier",
    }
    for args, message in cases.items():
        result = run_cli(*args)
        assert result.exit_code == 1, args
        assert message in _said(result.stderr), (args, result.stderr)
        assert "Traceback" not in result.stderr
    error = run_cli("export", "999", "--json").json()
    assert "Aucune règle" in error["error"]["message"]


def test_an_output_named_as_a_folder_is_no_file_name(run_cli, tmp_path, monkeypatch):
    """Issue 38, point 8: « -o livre/ » names a folder; an excerpt is one file, so nothing is
    written (Path would drop the slash and write a file « livre »), and the book goes into it."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("export", "420.5c", "-o", "livre/")
    assert result.exit_code == 1 and "« livre/ » se termine par « / » : c'est un nom de dossier" in result.stderr
    assert not (tmp_path / "livre").exists()
    book = run_cli("export", "--all", "--format", "html", "-o", "livre/")
    assert book.exit_code == 0, book.stderr
    assert (tmp_path / "livre" / "index.html").is_file()
