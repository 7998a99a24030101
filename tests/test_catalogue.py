"""Click's and Typer's own words in French: ``cli/locale``'s catalogue and :mod:`cli.french`.

The .mo is what ``bench/compile_catalogue.py`` compiles the .po to; the .po
translates every message of the installed click and typer, keeping each
placeholder; and a Typer program, after :func:`cli.french.install`, prints its
help and its command-line errors in French whatever the user's locale.
"""

from __future__ import annotations

import json
import os
import re
import string
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from babel.messages.pofile import write_po

from bench import compile_catalogue
from bench.compile_catalogue import (
    catalogue,
    compiled_bytes,
    installed_msgids,
    missing_msgids,
)

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = catalogue()
MESSAGES = [message for message in CATALOGUE if message.id]
#: Translations that are the English word itself, rightly.
SAME_IN_FRENCH = {"Options", "Arguments", "%(prog)s, version %(version)s"}


def forms(message) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs: French uses msgstr[0] for n = 0 and 1 (the singular), msgstr[1] above."""
    if message.pluralizable:
        return list(zip(message.id, message.string, strict=True))
    return [(message.id, message.string)]


def placeholders(text: str) -> set[str]:
    """What a translation must keep: ``{name!r}``-style fields, ``%(name)s``, Rich markup tags."""
    found = set()
    for _literal, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            found.add("{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    found |= set(re.findall(r"%\(\w+\)[sdr]", text))
    if "[/" in text:  # Rich markup, as in Typer's "Try [blue]'…'[/] for help."
        found |= set(re.findall(r"\[/?[a-z ]*\]", text))
    return found


def without_placeholders(text: str) -> str:
    for placeholder in placeholders(text):
        text = text.replace(placeholder, "X")
    return text


def test_the_mo_is_what_the_po_compiles_to():
    assert compile_catalogue.MO.read_bytes() == compiled_bytes(), "run python bench/compile_catalogue.py"


def test_the_catalogue_is_french_with_two_plural_forms():
    assert str(CATALOGUE.locale) == "fr"
    assert (CATALOGUE.num_plurals, CATALOGUE.plural_expr) == (2, "(n > 1)")


def test_every_message_of_click_and_typer_is_translated():
    installed = installed_msgids()
    assert len(installed) > 50  # the extraction found them: click's and typer's
    assert missing_msgids() == []
    translated = {message.id: message for message in MESSAGES}
    for msgid in installed:
        message = translated[msgid]
        assert not message.fuzzy, msgid
        assert all(text.strip() for _english, text in forms(message)), msgid


@pytest.mark.parametrize("message", MESSAGES, ids=lambda message: str(message.id)[:60])
def test_a_translation_keeps_its_placeholders(message):
    known = set().union(*(placeholders(english) for english, _text in forms(message)))
    for english, text in forms(message):
        assert placeholders(english) <= placeholders(text), (english, text)
        assert placeholders(text) <= known, text  # a field format() is not given raises KeyError


@pytest.mark.parametrize("message", MESSAGES, ids=lambda message: str(message.id)[:60])
def test_a_translation_is_french_typography(message):
    for english, text in forms(message):
        if english not in SAME_IN_FRENCH:
            assert text != english
        plain = without_placeholders(text)
        assert not re.search(r"(?<! )[:;?!]", plain), text  # a space before : ; ? ! (made non-breaking on output)
        assert not re.search(r"«(?! )|(?<! )»", plain), text
        assert '"' not in plain, text


def test_check_reports_a_stale_mo_and_a_missing_msgid(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "messages.mo"
    stale.write_bytes(compiled_bytes() + b"\0")
    shorter = catalogue()
    shorter.delete("Show this message and exit.")
    po = tmp_path / "messages.po"
    with po.open("wb") as file:
        write_po(file, shorter)
    assert missing_msgids(po) == ["Show this message and exit."]
    monkeypatch.setattr(compile_catalogue, "MO", stale)
    monkeypatch.setattr(compile_catalogue, "PO", po)
    assert compile_catalogue.main(["--check"]) == 1
    said = capsys.readouterr().out
    assert "n'est pas à jour" in said and "ne traduit pas 1 message de click ou typer" in said
    assert "'Show this message and exit.'" in said


# -- in a fresh process, with an English locale: cli.french.install(), then Typer -----------

PROGRAM = textwrap.dedent(
    """
    import gettext, json, os, sys
    from typing import Annotated

    from cli import french

    french.install()
    french.install()  # idempotent
    assert "click" not in sys.modules and "typer" not in sys.modules
    import typer
    from typer import rich_utils
    from typer.testing import CliRunner

    app = typer.Typer(add_completion=False)


    @app.command()
    def main(name: str, count: Annotated[int, typer.Option(min=1, max=5, help="Combien.")] = 1) -> None:
        \"\"\"Dit bonjour.\"\"\"


    runner = CliRunner()
    runs = {}
    for args in ([], ["Marc", "--bogus"], ["Marc", "--count", "abc"], ["Marc", "--count", "9"], ["--help"]):
        result = runner.invoke(app, args)
        runs[" ".join(args)] = [result.exit_code, result.output]
    print(json.dumps({
        "language": os.environ["LANGUAGE"],
        "catalogue": gettext.find("messages", str(french.LOCALE)),
        "titles": [rich_utils.OPTIONS_PANEL_TITLE, rich_utils.ARGUMENTS_PANEL_TITLE,
                   rich_utils.COMMANDS_PANEL_TITLE, rich_utils.ERRORS_PANEL_TITLE],
        "runs": runs,
    }))
    """
)


@pytest.fixture(scope="module")
def typer_in_french():
    env = {key: value for key, value in os.environ.items() if key not in ("LC_ALL", "LC_MESSAGES")}
    env.update(LANG="C", LANGUAGE="en", COLUMNS="200")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def shown(output: str) -> str:
    """What the user reads, Rich's panel borders removed and lines joined."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


def test_install_makes_french_the_language_of_the_default_domain(typer_in_french):
    assert typer_in_french["language"] == "fr"
    assert typer_in_french["catalogue"] == str(ROOT / "cli" / "locale" / "fr" / "LC_MESSAGES" / "messages.mo")


def test_typers_panel_titles_are_french(typer_in_french):
    # typer.rich_utils translates them once, at import: install() came first
    assert typer_in_french["titles"] == ["Options", "Arguments", "Commandes", "Erreur"]


@pytest.mark.parametrize(
    "args, said",
    [
        ("", "Il manque l'argument 'NAME'."),
        ("Marc --bogus", "Option inconnue : '--bogus'."),
        ("Marc --count abc", "Valeur non valide pour '--count' : 'abc' n'est pas un nombre valide"),
        ("Marc --count 9", "Valeur non valide pour '--count' : 9 n'est pas dans l'intervalle 1<=x<=5."),
    ],
)
def test_a_malformed_command_line_is_told_in_french(typer_in_french, args, said):
    code, output = typer_in_french["runs"][args]
    text = shown(output)
    assert code == 2
    assert said in text
    assert "Utilisation :" in text and "Erreur" in text
    assert re.search(r"Essayez « \S+ --help » pour l'aide\.", text)
    assert not re.search(r"Usage|Error|Missing|Try '|No such|not a valid|Invalid", text), text


def test_the_help_is_french(typer_in_french):
    code, output = typer_in_french["runs"]["--help"]
    text = shown(output)
    assert code == 0
    assert "Utilisation :" in text
    assert "Arguments" in text and "[requis]" in text
    assert "Combien. [défaut : 1]" in text
    assert "Affiche cette aide et quitte." in text
