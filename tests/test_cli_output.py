"""How the CLI writes (issue 20, part C1): any console encoding, wrapping in a
terminal (hanging indents, French non-breaking spaces, no trailing spaces),
plain text in a pipe, the pager, help in French with examples, ``--version``,
shell completion; and every example of the README and of ``docs/`` under
``PYTHONIOENCODING=ascii`` and ``COLUMNS=40``."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import app, output, render
from cli.commands import SHELLS, parse
from rules_kb.operations import BY_NAME, Front
from tests.conftest import flat
from tests.test_docs import DOCS, documented_pages

SCRIPT = Path(sys.executable).with_name("rules-kb")
NBSP = "\u00a0"
_STYLE = re.compile(r"\x1b\[[0-9;]*m")


class Console(io.TextIOWrapper):
    """A console stream of a given encoding, strict as Python makes it, that may claim to be a terminal."""

    def __init__(self, encoding: str = "utf-8", tty: bool = False) -> None:
        super().__init__(io.BytesIO(), encoding=encoding, errors="strict", write_through=True)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def text(self) -> str:
        return self.buffer.getvalue().decode(self.encoding, "replace")  # export writes its UTF-8 bytes as they are


@pytest.fixture
def fresh_consoles():
    """Rich reads the width and the terminal's nature when its console is made: make them anew."""
    render.console._rich = render.err_console._rich = None
    yield
    render.console._rich = render.err_console._rich = None


def run_in(monkeypatch, args, encoding="utf-8", tty=False, stdin: bytes = b""):
    """Run ``rules-kb args`` in this process on console streams of ``encoding``; (code, stdout, stderr)."""
    out, err = Console(encoding, tty), Console(encoding, tty)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding=encoding))
    code = app.run(list(args))
    return code, out.text(), err.text()


# -- the console's encoding ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "args", "expected"),
    [
        ("cp1252", ["ask", "trample"], "Piétinement"),  # cp1252 holds é, not ≤ nor ›
        ("ascii", ["show", "420.5c"], "Sous-regle 420.5c"),
    ],
)
def test_the_issues_commands_write_on_any_console(encoding, args, expected):
    """The issue's two commands, as a user runs them: a real process, ``PYTHONIOENCODING``."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([str(SCRIPT), *args], capture_output=True, env=env, check=False)
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    assert expected in done.stdout.decode(encoding)


def test_ascii_console_gets_look_alikes(run_cli, monkeypatch, kb):
    code, out, _ = run_in(monkeypatch, ["show", "420.5c"], "ascii")
    assert code == 0
    assert "Sous-regle 420.5c  - edition 2004" in out
    assert "Contexte : 4 Sorts, capacites et effets > 420" in out  # › became >
    assert '" regle 420.5c "' in out  # « » became "


def test_json_on_an_ascii_console_stays_exact(run_cli, monkeypatch, kb):
    import json

    code, out, _ = run_in(monkeypatch, ["show", "420.5c", "--json"], "ascii")
    assert code == 0
    assert "\\u00e9" in out  # escaped, not transliterated
    assert json.loads(out)["rule"]["text"].startswith("Une créature avec des blessures fatales")


def test_errors_and_help_on_an_ascii_console(run_cli, monkeypatch, kb):
    code, _, err = run_in(monkeypatch, ["show", "999.9"], "ascii")
    assert code == 1 and "999.9" in err and "Traceback" not in err
    code, _, err = run_in(monkeypatch, ["shw", "420"], "ascii")
    assert code == 2 and "Commande inconnue : 'shw'" in err and "Did you" not in err
    code, out, _ = run_in(monkeypatch, ["search", "--help"], "ascii")
    assert code == 0 and "[defaut : 10]" in " ".join(out.split()) and "1<=x<=200" in out


def test_a_chosen_error_handler_is_kept(monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="replace")
    monkeypatch.setattr(sys, "stdout", stream)
    output.prepare_streams()
    assert sys.stdout.errors == "replace"


def test_transliterate_examples():
    assert output.transliterate("« Règle » — 1 ≤ x… œuvre\u00a0: ’") == '" Regle " - 1 <= x... oeuvre : \''
    assert output.transliterate("日本") == "??"


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(["ascii", "cp1252", "latin-1", "utf-8"]))
def test_any_text_writes_on_any_console(text, encoding):
    """Whatever the text (lone surrogates from a badly encoded argument included), writing never raises."""
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = stream
    try:
        output.prepare_streams()
        stream.write(text)
        stream.flush()
    finally:
        sys.stdout, sys.stderr = saved
    written = stream.buffer.getvalue().decode(encoding)
    assert len(written) >= len(text.encode(encoding, "ignore").decode(encoding))


@given(st.text())
def test_transliterate_gives_ascii(text):
    assert output.transliterate(text).isascii()


@given(st.text())
def test_french_spaces_keep_positions(text):
    spaced = output.french_spaces(text)
    assert len(spaced) == len(text)
    assert not re.search(r"\S [:;?!»]|« ", spaced)


# -- plain text in a pipe, wrapping in a terminal -------------------------------------------


def test_piped_output_is_not_wrapped_nor_padded(run_cli):
    result = run_cli("show", "502.16")
    lines = result.stdout.split("\n")
    assert not [line for line in lines if line != line.rstrip()]
    assert max(len(line) for line in lines) > 200  # a paragraph on one line
    assert NBSP not in result.stdout.replace(NBSP + "»", "")  # plain spaces, for grep


def _terminal_lines(monkeypatch, args, columns: int = 40, encoding="utf-8"):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    code, out, err = run_in(monkeypatch, args, encoding)
    assert code == 0, err
    return [_STYLE.sub("", line) for line in out.split("\n")]


def test_terminal_wraps_with_hanging_indents_and_french_spaces(run_cli, monkeypatch, fresh_consoles):
    lines = _terminal_lines(monkeypatch, ["show", "502.16"])
    assert max(len(line) for line in lines) <= 40
    assert not [line for line in lines if line != line.rstrip(" " + NBSP)]
    assert not [line for line in lines if re.match(r"\s*[:;?!»]", line)]  # punctuation never starts a line
    assert not [line for line in lines if re.search(r"«\s*$", line)]  # nor « ends one
    assert f"Sous-règles (1){NBSP}:" in lines
    bullet = next(at for at, line in enumerate(lines) if line.startswith("  • Rappel — Le rappel est"))
    assert lines[bullet + 1].startswith("    ") and not lines[bullet + 1].startswith("     ")  # under the text
    subrule = next(at for at, line in enumerate(lines) if line.startswith("  502.16a"))
    assert lines[subrule + 1].startswith("  ") and lines[subrule + 1][2] != " "  # the block's indent


def test_terminal_on_an_ascii_console(run_cli, monkeypatch, fresh_consoles):
    lines = _terminal_lines(monkeypatch, ["check", str(_example(monkeypatch))], encoding="ascii")
    assert any("Resultat" in line for line in lines)
    assert any(line.startswith("  Joueur") for line in lines)  # the tables, whose cells Rich pads
    assert not [line for line in lines if line != line.rstrip()]


def _example(monkeypatch, name: str = "blessures-fatales") -> Path:
    code, out, _ = run_in(monkeypatch, ["check", "--example", name])
    assert code == 0
    path = Path(os.environ["RULES_KB_HOME"]) / f"{name}.toml"
    path.write_text(out, encoding="utf-8")
    return path


# -- the pager ---------------------------------------------------------------------------------


@pytest.fixture
def pages(monkeypatch, fresh_consoles):
    """What went through the pager (no pager is started), with a 10-line terminal."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(output, "page", lambda text, command, stream: shown.append((command, text)) or True)
    monkeypatch.setenv("LINES", "10")
    monkeypatch.setenv("PAGER", "mon-pager")
    monkeypatch.delenv(output.NO_PAGER_VARIABLE, raising=False)
    return shown


def test_long_output_on_a_terminal_is_paged(run_cli, monkeypatch, pages):
    code, out, _ = run_in(monkeypatch, ["show", "420"], tty=True)
    assert code == 0 and out == ""
    assert len(pages) == 1 and pages[0][0] == "mon-pager" and "420.5" in pages[0][1]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["show", "420.5c", "--only"], {}),  # shorter than the screen
        (["show", "420", "--no-pager"], {}),
        (["show", "420", "--json"], {}),
        (["show", "420"], {"RULES_KB_NO_PAGER": "1"}),
        (["show", "420"], {"PAGER": "cat"}),
    ],
)
def test_no_pager(run_cli, monkeypatch, pages, args, env):
    monkeypatch.setenv("LINES", "40")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, _ = run_in(monkeypatch, args, tty=True)
    assert code == 0 and "420" in out and pages == []


def test_never_paged_in_a_pipe(run_cli, monkeypatch, pages):
    code, out, _ = run_in(monkeypatch, ["corpus", "dump"], tty=False)
    assert code == 0 and len(out.split("\n")) > 1000 and pages == []


def test_pager_command(monkeypatch):
    tty, pipe = Console(tty=True), Console(tty=False)
    monkeypatch.delenv(output.NO_PAGER_VARIABLE, raising=False)
    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    assert output.pager_command(tty) == "less -R"
    assert output.pager_command(pipe) is None
    monkeypatch.setenv("PAGER", "most")
    assert output.pager_command(tty) == "most"
    monkeypatch.setenv("PAGER", "")
    assert output.pager_command(tty) is None


def test_the_pager_gets_the_text(tmp_path):
    seen = tmp_path / "vu.txt"
    stream = Console("ascii")
    assert output.page("« Règle »\n" * 50, f"cat > {shlex.quote(str(seen))}", stream)
    assert seen.read_text(encoding="ascii") == '" Regle "\n' * 50  # in the console's encoding
    assert not output.page("x\n", "rules-kb-pas-de-tel-pager-7f3a", stream)  # then written without it


# -- help, version, completion ----------------------------------------------------------------


def _commands() -> list[str]:
    return list(app.COMMANDS)


@pytest.mark.parametrize("command", ["", *_commands(), "corpus", "serve", "mcp", "completion"])
def test_help_is_french_and_ends_with_examples_that_parse(run_cli, command, capsys):
    result = run_cli(*command.split(), "--help")
    assert result.exit_code == 0
    text = result.stdout.replace(NBSP, " ")
    assert "Utilisation : rules-kb" in text and "Usage" not in text
    assert "Options" in text and "Show this message" not in text and "Affiche cette aide et quitte." in flat(text)
    if command in BY_NAME:  # every parameter's declared help is shown, arguments included
        for param in BY_NAME[command].params_on(Front.CLI):
            assert " ".join(param.help_on(Front.CLI).split()[:4]) in flat(text), (command, param.name)
    head, _, examples = text.rpartition("Exemples :")
    lines = [line.strip() for line in examples.strip().split("\n") if line.strip()]
    assert head and 2 <= len(lines) <= 3
    for line in lines:
        words = shlex.split(re.sub(r"^source <\((.*)\)$", r"\1", line).split(" > ")[0])
        assert words[0] == "rules-kb"
        assert not isinstance(parse(words[1:]), int), line
        capsys.readouterr()


def test_help_states_defaults_and_bounds_from_the_declarations(run_cli):
    text = flat(run_cli("search", "--help").stdout.replace(NBSP, " "))
    limit = BY_NAME["search"].param("limit")
    assert f"[défaut : {limit.default}]" in text and f"{limit.low}<=x<={limit.high}" in text
    graph = flat(run_cli("graph", "--help").stdout.replace(NBSP, " "))
    assert "[défaut : 1]" in graph and "0<=x<=5" in graph


def test_help_fits_a_narrow_terminal(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    text = run_cli("ask", "--help").stdout
    assert max(len(line) for line in text.split("\n")) <= 40


def test_version(run_cli):
    from importlib.metadata import version

    for flag in ("--version", "-V"):
        result = run_cli(flag)
        assert result.exit_code == 0 and result.stdout == f"rules-kb {version('rules-kb')}\n"


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_scripts_are_clicks_for_this_program(run_cli, shell):
    result = run_cli("completion", shell)
    assert result.exit_code == 0 and app.COMPLETE_VAR in result.stdout and "rules-kb" in result.stdout


def test_completion_of_an_unknown_shell_is_a_usage_error(run_cli):
    result = run_cli("completion", "tcsh")
    assert result.exit_code == 2
    assert "tcsh" in result.error and "bash" in result.error and "Erreur" in result.error


def _bash_complete(line: str, monkeypatch, capsys) -> list[str]:
    """What the program offers bash after ``line`` (the word being typed is its last, maybe empty),
    asked as the completion script asks it."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    monkeypatch.setenv(app.COMPLETE_VAR, "complete_bash")
    monkeypatch.setenv("COMP_WORDS", " ".join(words))
    monkeypatch.setenv("COMP_CWORD", str(len(words) - 1))
    capsys.readouterr()
    assert app.run([]) == 0
    found = capsys.readouterr().out
    return sorted(item for item in found.split("\n") if item)


def test_the_installed_bash_script_completes_commands_and_kinds(tmp_path):
    """The install line of docs/commandes/completion.md, then Tab as bash presses it: the script runs the real program."""
    import shutil

    script = tmp_path / "rules-kb"
    program = shutil.which("rules-kb", path=str(Path(sys.executable).parent))
    done = subprocess.run([program, "completion", "bash"], capture_output=True, text=True, check=True)
    script.write_text(done.stdout, encoding="utf-8")

    def offered(line: str) -> list[str]:
        words = shlex.split(line) + ([""] if line.endswith(" ") else [])
        probe = (
            f"source {shlex.quote(str(script))}\n"
            f"COMP_WORDS=({' '.join(shlex.quote(word) for word in words)}); COMP_CWORD={len(words) - 1}\n"
            f"_rules_kb_completion {shlex.quote(program)}; printf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
        )
        result = subprocess.run(["bash", "--norc", "-c", probe], capture_output=True, text=True, check=True)
        return sorted(item for item in result.stdout.split("\n") if item)

    assert offered("rules-kb sh") == ["show"]
    assert offered("rules-kb corpus ") == ["check", "dump", "list"]
    assert offered("rules-kb search x --kind c") == ["carte", "cours"]


def test_bash_completion(monkeypatch, capsys):
    assert _bash_complete("rules-kb sh", monkeypatch, capsys) == ["show"]
    assert "completion" in _bash_complete("rules-kb ", monkeypatch, capsys)
    assert _bash_complete("rules-kb corpus ", monkeypatch, capsys) == ["check", "dump", "list"]
    assert _bash_complete("rules-kb search --k", monkeypatch, capsys) == ["--kind"]
    assert _bash_complete("rules-kb search x --kind c", monkeypatch, capsys) == ["carte", "cours"]
    assert _bash_complete("rules-kb corpus check --s", monkeypatch, capsys) == ["--strict"]
    assert _bash_complete("rules-kb check --ex", monkeypatch, capsys) == ["--example"]
    assert _bash_complete("rules-kb completion ", monkeypatch, capsys) == ["bash", "fish", "zsh"]


# -- every documented example -----------------------------------------------------------------


#: The examples that start a server, which answers until it is stopped: run by their own tests.
SERVERS = ("rules-kb serve",)


def page_examples(page: Path) -> list[str]:
    """The ``rules-kb …`` commands of a Markdown page, in order: the lines of its ``sh`` blocks
    and its code spans (not in a heading, nor in another code block), comments removed."""
    found = []
    for block in re.split(r"(^```.*?^```)", page.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE):
        if block.startswith("```sh\n"):
            candidates = [re.sub(r"\s+#\s.*$", "", line) for line in block.split("\n")[1:-1]]
        elif block.startswith("```"):
            continue  # TOML, JSON, text: no command
        else:
            prose = "\n".join(line for line in block.split("\n") if not line.startswith("#"))  # not the headings
            candidates = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]
        for candidate in candidates:
            if command := re.search(r"(?<![\w/.-])rules-kb(?![\w.-])( [^)]*)?", candidate):
                found.append(command.group(0).strip())
    return found


def documented_examples() -> list[str]:
    """The examples of the README, then of the docs pages in the site's order, once each."""
    return list(dict.fromkeys(line for page in documented_pages() for line in page_examples(page)))


def test_every_command_page_gives_examples():
    """Each page of docs/commandes/ shows its command at work, so the test below runs it."""
    for page in sorted((DOCS / "commandes").glob("*.md")):
        if page.name != "index.md":
            name = re.match(r"# `rules-kb (\w+)", page.read_text(encoding="utf-8")).group(1)
            assert any(line.startswith(f"rules-kb {name}") for line in page_examples(page)), page.name


def _run_example(monkeypatch, line: str, folder: Path) -> str | None:
    """Run a documented example in ``folder``; what went wrong, or None."""
    words = shlex.shlex(line, posix=True, punctuation_chars="<>|")
    words.whitespace_split = True
    words = list(words)
    args, stdin, target = [], b"", None
    while words:
        word = words.pop(0)
        if word == ">":
            target = folder / Path(words.pop(0)).name
        elif word == "<":
            stdin = (folder / words.pop(0)).read_bytes()
        else:
            args.append(word)
    try:
        code, out, err = run_in(monkeypatch, args[1:], "ascii", stdin=stdin)
    except BaseException:  # noqa: BLE001 - any exception is the failure reported
        return traceback.format_exc()
    if target is not None:
        target.write_text(out, encoding="utf-8")
    if code not in (0, 1) or "Traceback" in err + out:
        return f"code {code}\n{err[-2000:]}"
    return None


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_every_documented_example_runs_on_an_ascii_console_40_columns_wide(
    run_cli, monkeypatch, tmp_path, fresh_consoles, terminal
):
    examples = documented_examples()
    assert len(examples) >= 60 and "rules-kb completion zsh" in examples and "rules-kb --version" in examples
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("RULES_KB_NO_PAGER", "1")
    if terminal:
        monkeypatch.setenv("TTY_COMPATIBLE", "1")
    runs = [line for line in examples if not line.startswith(SERVERS)]  # they serve until stopped: tests/test_serve.py
    failures = {line: problem for line in runs if (problem := _run_example(monkeypatch, line, tmp_path))}
    assert not failures, "\n\n".join(f"{line}\n{problem}" for line, problem in failures.items())


# -- any input: a result or a clear error ------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab é«»:;?!•-1. \n\u00a0"), max_size=200),
    st.integers(min_value=10, max_value=120),
    st.sampled_from(["", "  ", "  • ", "1. "]),
)
def test_any_text_wraps_within_the_width_and_keeps_its_words(text, width, lead):
    """A text printed in a terminal of any width: no line wider, none ending in spaces, every
    character kept in order."""
    stream = Console()
    saved = sys.stdout
    environ = dict(os.environ)
    os.environ.update({"TTY_COMPATIBLE": "1", "COLUMNS": str(width)})
    os.environ.pop("FORCE_COLOR", None)
    sys.stdout = stream
    try:
        console = output.Console()
        console.print(output.Text(lead + text))
        console.print(output.Padding(output.Text(lead + text), (0, 0, 0, 2)))
    finally:
        sys.stdout = saved
        os.environ.clear()
        os.environ.update(environ)
    lines = _STYLE.sub("", stream.text()).split("\n")
    assert all(len(line) <= width for line in lines)
    assert all(line == line.rstrip(" " + NBSP) for line in lines)
    kept = "".join((lead + text).replace(NBSP, " ").split())  # a word wider than a line is cut, not lost
    assert "".join(stream.text().replace(NBSP, " ").split()) == kept + kept


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=30))
def test_completion_of_any_shell_name(name):
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        code = app.run(["completion", name])
        written, error = sys.stdout.getvalue(), sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = saved
    if name in SHELLS:
        assert code == 0 and app.COMPLETE_VAR in written
    elif name in ("-h", "--help"):  # the help, not a shell name
        assert code == 0 and "Utilisation : rules-kb completion" in written
    else:
        assert code == 2 and "Erreur" in error and "Traceback" not in error


@given(st.text(max_size=40))
def test_any_pager_variable(value):
    tty = Console(tty=True)
    saved = os.environ.get("PAGER")
    os.environ["PAGER"] = value.replace("\x00", "")
    try:
        command = output.pager_command(tty)
    finally:
        if saved is None:
            os.environ.pop("PAGER", None)
        else:
            os.environ["PAGER"] = saved
    assert command is None or command.strip() not in ("", "cat")
