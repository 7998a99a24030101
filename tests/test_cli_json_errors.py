"""Issue 38, point 7: with --json, every answer on standard output is JSON, errors included:
the command line's own mistakes (Click's, over-long texts, options that do not go together)
print the JSON error shape ``{"error": {"type", "message"}}`` too, in French."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CASES = [
    (("graph", "420.5c", "--format", "svg", "--json"), 1, "Format « svg » inconnu"),
    (("graph", "420.5c", "--format", "dot", "--json"), 2, "il ne va pas avec --format dot"),
    (("show", "4" * 5000, "--json"), 1, "L'argument NUMÉRO est trop long : 5\u202f000 caractères"),
    (("search", "x", "--limit", "99999", "--json"), 2, "n'est pas dans l'intervalle"),
    (("search", "--json"), 2, "Il manque l'argument"),
    (("show", "420.5c", "--json", "--bogus"), 2, "Option inconnue : '--bogus'"),
    (("check", "--json"), 2, "Indiquez un fichier de scénario"),
    (("define", "xyzzy", "--json"), 1, "Aucune entrée du glossaire"),
]


@pytest.mark.parametrize(("args", "code", "said"), CASES)
def test_every_error_with_json_is_json(run_cli, args, code, said):
    result = run_cli(*args)
    assert result.exit_code == code
    error = json.loads(result.stdout)["error"]
    assert said in error["message"] and error["type"]
    assert "Traceback" not in result.stderr


def test_without_json_the_mistake_stays_a_french_line(run_cli):
    result = run_cli("graph", "420.5c", "--format", "svg")
    assert result.exit_code == 1 and result.stdout == "" and "Format « svg » inconnu" in result.stderr


WORDS = st.sampled_from(["show", "define", "search", "graph", "check", "export", "corpus", "list", "420.5c",
                         "--limit", "0", "-n", "--edition", "1999", "--format", "svg", "--depth", "9", "--kind",
                         "carte", "--bogus", "x" * 2500, "piétinement", "--", "-"])  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(WORDS, max_size=5))
def test_any_command_line_with_json_prints_json(run_cli, words):
    """Whatever the words, with --json standard output is one JSON document (or empty for --help);
    after « -- », « --json » is a word, and after an option taking a value, that value."""
    result = run_cli(*words, "--json")
    assert "Traceback" not in result.stderr
    if "--" in words or (words and words[-1] in ("--limit", "-n", "--edition", "--format", "--depth", "--kind")):
        return  # « --json » is then a word, or the option's value
    if result.stdout.strip():
        json.loads(result.stdout)
    else:
        assert result.exit_code == 0 or result.stderr == ""
