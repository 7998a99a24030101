"""Save what the rules-kb CLI answers, to compare its behaviour before and after a change.

Usage (from a checkout whose rules-kb is installed in the interpreter running this script)::

    python bench/snapshot.py --out avant.json
    python bench/snapshot.py --out avant.json --rules-kb /autre/.venv/bin/rules-kb
    python bench/snapshot.py --out show.json --only "show 420"      # a quick rerun
    python bench/snapshot.py --compare avant.json après.json
    python bench/snapshot.py --compare avant.json après.json --only define

A run records, for each invocation, ``{"args": [...], "code", "stdout",
"stderr", "files"}`` (``files``: the files the invocation created or changed
in the working folder, name → text). The invocations, in this order:

1. every ``rules-kb …`` line of the ``sh`` blocks of the README and of the
   pages of ``docs/`` (trailing ``# comments`` removed), run by bash in one
   temporary working folder, in their order (the README, then the pages in
   the order of ``mkdocs.yml``'s plan; so ``check --example blessures-fatales > ours.toml`` then
   ``check ours.toml`` work), with ``rules-kb`` replaced by the script given
   by ``--rules-kb``; a line with no redirection and no ``--json`` runs a
   second time with ``--json`` appended. Their ``args`` start with
   ``rules-kb``; ``line`` keeps the documented line;
2. sweeps, run in this process through ``cli.app.main(args)`` (so from the
   checkout installed in this interpreter), in the same working folder:
   ``show`` of every rule of edition 2004 and a few others, ``define`` of
   every glossary headword and of misspelt terms, ``search`` and ``ask`` of
   many queries (every question of ``tests/eval/tuning.jsonl``),
   ``check`` of every bundled example, ``graph``, ``corpus``, ``export``
   and ``index``; each with and without ``--json``.

The cache (RULES_KB_HOME: the variable's folder, or a new temporary one) is
built first, unrecorded, so every invocation finds it built. Before saving,
the cache folder, the working folder, the checkout of the imported ``cli``
package, 64-hex-digit fingerprints and today's dates (ISO timestamps, French
export dates) are replaced by ``<HOME>``, ``<TMP>``, ``<CHECKOUT>``,
``<FINGERPRINT>`` and ``<DATE>``.

``--compare`` matches invocations by their ``args``. A JSON output is
compared as data, exactly (the paths that differ are printed); a text
output (and each file) after folding every run of white space into one space
(rendering may stop hard-wrapping at 80 columns); both counts, exact and
with white space folded, are printed. Exit code 1 when something differs
(with ``--exact``, white space counts too).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:  # run as a script (python bench/snapshot.py): this folder is on sys.path, not the checkout
    from run import FrenchParser
except ImportError:  # run as a module (python -m bench.snapshot)
    from bench.run import FrenchParser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The site's plan, whose ``nav`` orders the pages of ``docs/``.
MKDOCS = ROOT / "mkdocs.yml"
QUESTIONS = ROOT / "tests" / "eval" / "tuning.jsonl"

#: ``show`` beyond the rules of 2004: (number, extra options).
SHOW_EXTRA = (("611.2a", ["--edition", "2011"]), ("201.3", ["--edition", "2011"]), ("420.5n", []),
              ("502.16", []), ("502.57", []))  # fmt: skip
#: ``define`` beyond the headwords: misspelt or odd queries.
DEFINE_EXTRA = ("blessure fatale", "pietinement", "contrecarer", "APNAP", "couche", "tampon", "remplacment",
                "points de vie", "zzzzyx")  # fmt: skip
#: ``search`` queries, before the first :data:`SEARCH_HEADWORDS` glossary headwords.
SEARCH_QUERIES = ("blessures fatales", "endurance 0", "creature", "420.5c", '"blessures fatales"', "suspension",
                  "Guide griffon", "l'endurance", "dégâts", "le la", "AND", "titre:couche",
                  "pouvoir NOT mana")  # fmt: skip
SEARCH_HEADWORDS = 40
#: ``ask --explain`` for the first questions of the evaluation file.
EXPLAINED_QUESTIONS = 20
#: Commands run once each at the end (``index`` last: it rebuilds the cache).
LAST = (
    ["graph", "418.5a"],
    ["graph", "Couche", "--depth", "2", "--relation", "uses-term", "--json"],
    ["graph", "420", "--format", "mermaid"],
    ["corpus", "list"],
    ["corpus", "list", "--json"],
    ["corpus", "check"],
    ["corpus", "check", "--json"],
    ["corpus", "dump", "--json"],
    ["export", "420.5", "--format", "json"],
    ["export", "420.5c"],
    ["export", "--term", "Couche", "--format", "md"],
    ["index", "--json"],
)
_MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre")  # fmt: skip
_FINGERPRINT = re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{64}(?![0-9a-fA-F])")
#: How many differing JSON paths are printed per invocation.
SHOWN_PATHS = 5


# -- normalising ------------------------------------------------------------------------------


def _date_pattern(days: list[datetime.date]) -> re.Pattern:
    """ISO timestamps and French dates (« 24 novembre 2026 à 17:47 ») of ``days``."""
    iso = "|".join(re.escape(day.isoformat()) for day in days)
    french = "|".join(rf"{'1er' if day.day == 1 else day.day}\s+{_MONTHS[day.month - 1]}\s+{day.year}" for day in days)
    return re.compile(
        rf"(?:{iso})(?:[T ]\d{{2}}:\d{{2}}(?::\d{{2}}(?:\.\d+)?)?(?:Z|[+-]\d{{2}}:?\d{{2}})?)?"
        rf"|(?:{french})(?:\s+à\s+\d{{1,2}}[:h]\d{{2}})?"
    )


class Normaliser:
    """Replaces the paths, fingerprints and dates of one run by placeholders."""

    def __init__(self, home: str, work: str, checkout: str) -> None:
        today = datetime.date.today()
        self.places = sorted(
            ((os.path.realpath(home), "<HOME>"), (home, "<HOME>"), (os.path.realpath(work), "<TMP>"),
             (work, "<TMP>"), (checkout, "<CHECKOUT>")),
            key=lambda place: -len(place[0]),
        )  # fmt: skip
        self.dates = _date_pattern([today, today - datetime.timedelta(days=1), today + datetime.timedelta(days=1)])

    def __call__(self, text: str) -> str:
        """``text`` with its placeholders."""
        for path, placeholder in self.places:
            text = text.replace(path, placeholder)
        text = _FINGERPRINT.sub("<FINGERPRINT>", text)
        return self.dates.sub("<DATE>", text)


# -- the invocations --------------------------------------------------------------------------


def strip_comment(line: str) -> str:
    """``line`` without a trailing shell ``# comment`` (a ``#`` outside quotes, after a blank)."""
    quote = None
    for at, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at].rstrip()
    return line.rstrip()


def shell_words(line: str) -> list[str]:
    """The words of a shell line, redirections (``>``, ``<``, ``|``…) as words of their own."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def has_redirection(line: str) -> bool:
    """Whether the shell line redirects or pipes (outside quotes)."""
    return any(word and set(word) <= set("<>|&;") for word in shell_words(line))


def documented_pages() -> list[Path]:
    """The README, then the pages of ``docs/`` in the order of the site's plan."""
    names = re.findall(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)\s*$", MKDOCS.read_text(encoding="utf-8"), re.MULTILINE)
    return [README, *(ROOT / "docs" / name for name in dict.fromkeys(names))]


def readme_lines(pages: list[Path] | None = None) -> list[str]:
    """The ``rules-kb …`` lines of the ``sh`` blocks of ``pages`` (the README and the docs),
    comments removed, in order."""
    lines = []
    for page in documented_pages() if pages is None else pages:
        inside = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                inside = not inside and line.strip() == "```sh"
                continue
            if inside and line.startswith("rules-kb ") and not line.startswith("rules-kb serve"):
                lines.append(strip_comment(line))
    return lines


def readme_invocations(pages: list[Path] | None = None) -> list[str]:
    """The documented lines to run, each followed by its ``--json`` variant when it has none."""
    found = []
    for line in readme_lines(pages):
        found.append(line)
        if not has_redirection(line) and "--json" not in shell_words(line):
            found.append(line + " --json")
    return found


def _both(args: list[str]) -> list[list[str]]:
    """``args`` with ``--json``, then without."""
    return [[*args, "--json"], list(args)]


def sweeps(dump: dict, questions: list[str], examples: dict[str, Path]) -> list[list[str]]:
    """The in-process invocations (see the module docstring), without duplicates."""
    found: list[list[str]] = []
    numbers = [rule["number"] for rule in dump["rules"] if rule["edition"] == "2004"]
    for number, options in [(number, []) for number in numbers] + list(SHOW_EXTRA):
        found += _both(["show", number, *options])
    terms = [entry["term"] for entry in dump["glossary"]]
    for term in terms + list(DEFINE_EXTRA):
        found += _both(["define", term])
    for query in list(SEARCH_QUERIES) + terms[:SEARCH_HEADWORDS]:
        found += _both(["search", query])
    for question in questions:
        found += _both(["ask", question])
    found += [["ask", question, "--explain"] for question in questions[:EXPLAINED_QUESTIONS]]
    found.append(["check", "--example"])
    for name, path in examples.items():
        found += [["check", "--example", name], *_both(["check", str(path)])]
        found.append(["check", str(path), "--edition", "2006-faq", "--json"])
    found += [list(args) for args in LAST]
    unique: dict[tuple, list[str]] = {}
    for args in found:
        unique.setdefault(tuple(args), args)
    return list(unique.values())


def eval_questions(path: Path = QUESTIONS) -> list[str]:
    """The questions of the evaluation file (one JSON object a line)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()]


# -- running ----------------------------------------------------------------------------------


def folder_state(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``: relative name → (size, modification time)."""
    state = {}
    for path in folder.rglob("*"):
        if path.is_file():
            info = path.stat()
            state[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns)
    return state


def _file_text(path: Path) -> str:
    """A file's text, or a short description of a binary file."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return f"<binaire : {len(data)} octets, sha256 {hashlib.sha256(data).hexdigest()[:16]}>"


def written_files(folder: Path, before: dict, normalise: Normaliser) -> dict[str, str]:
    """The files created or changed under ``folder`` since ``before`` (name → normalised text)."""
    after = folder_state(folder)
    return {
        normalise(name): normalise(_file_text(folder / name))
        for name in sorted(after)
        if before.get(name) != after[name]
    }


def run_shell(line: str, script: str, work: Path, env: dict, normalise: Normaliser) -> dict:
    """Run a documented line with bash in ``work``, ``rules-kb`` being ``script``."""
    before = folder_state(work)
    command = shlex.quote(script) + line[len("rules-kb") :]
    done = subprocess.run(
        ["bash", "-c", command], cwd=work, env=env, capture_output=True, stdin=subprocess.DEVNULL, check=False
    )
    return {
        "args": [normalise(word) for word in shell_words(line)],
        "line": normalise(line),
        "code": done.returncode,
        "stdout": normalise(done.stdout.decode("utf-8", "replace")),
        "stderr": normalise(done.stderr.decode("utf-8", "replace")),
        "files": written_files(work, before, normalise),
    }


def call_main(args: list[str]) -> tuple[int, str, str]:
    """Run ``cli.app.main(args)`` here: (exit code, standard output, standard error)."""
    from cli.app import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)  # with a .buffer, as sys.stdout
    err = io.StringIO()
    saved_argv, saved_stdin = sys.argv, sys.stdin
    sys.argv, sys.stdin = ["rules-kb", *args], io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exit_:
                code = exit_.code
                if isinstance(code, str):  # sys.exit("message"): printed, code 1
                    err.write(code + "\n")
                    code = 1
    finally:
        sys.argv, sys.stdin = saved_argv, saved_stdin
    out.flush()
    return (0 if code is None else code), out.buffer.getvalue().decode("utf-8", "replace"), err.getvalue()


def run_here(args: list[str], work: Path, normalise: Normaliser) -> dict:
    """Run ``args`` in this process (in ``work``) and record what it did."""
    before = folder_state(work)
    code, stdout, stderr = call_main(args)
    return {
        "args": [normalise(arg) for arg in args],
        "code": code,
        "stdout": normalise(stdout),
        "stderr": normalise(stderr),
        "files": written_files(work, before, normalise),
    }


def _json_of(args: list[str]):
    """The JSON output of an in-process invocation (or exit with a French message)."""
    code, stdout, stderr = call_main(args)
    if code != 0:
        sys.exit(f"« rules-kb {' '.join(args)} » a échoué (code {code}) : {stderr.strip()}")
    return json.loads(stdout)


def example_files(folder: Path) -> dict[str, Path]:
    """Every bundled scenario example written to ``folder``: name → file."""
    folder.mkdir()
    files = {}
    for example in _json_of(["check", "--example", "--json"])["examples"]:
        _code, text, _stderr = call_main(["check", "--example", example["name"]])
        files[example["name"]] = folder / f"{example['name']}.toml"
        files[example["name"]].write_text(text, encoding="utf-8")
    return files


def _matches(args: list[str], only: str) -> bool:
    """Whether ``args`` joined by spaces contain ``only`` (always, without it)."""
    return not only or only in " ".join(args)


def snapshot(script: str, only: str = "", log=sys.stderr) -> list[dict]:
    """Every invocation's record (see the module docstring)."""
    import cli

    checkout = str(Path(cli.__file__).resolve().parent.parent)
    print(f"Code mesuré en processus : {checkout} ; script : {script}", file=log)
    own_home = not os.environ.get("RULES_KB_HOME")
    home = os.environ.get("RULES_KB_HOME") or tempfile.mkdtemp(prefix="rules-kb-snapshot-home-")
    os.environ.update(RULES_KB_HOME=home, COLUMNS="80", LINES="25")
    for name in ("RULES_KB_CORPUS", "FORCE_COLOR", "NO_COLOR", "TERM_PROGRAM"):
        os.environ.pop(name, None)
    env = dict(os.environ)
    built = subprocess.run([script, "index"], env=env, capture_output=True, text=True, check=False)  # once, unrecorded
    if built.returncode != 0:
        sys.exit(f"« {script} index » a échoué (code {built.returncode}) : {built.stderr.strip()}")
    work = Path(tempfile.mkdtemp(prefix="rules-kb-snapshot-"))
    normalise = Normaliser(home, str(work), checkout)
    records = []
    here = os.getcwd()
    try:
        for line in readme_invocations():
            if _matches(shell_words(line), only):
                records.append(run_shell(line, script, work, env, normalise))
        os.chdir(work)
        dump = _json_of(["corpus", "dump", "--json"])
        invocations = sweeps(dump, eval_questions(), example_files(work / "exemples"))
        for count, args in enumerate(invocations, 1):
            if _matches(args, only):
                records.append(run_here(args, work, normalise))
            if count % 250 == 0:
                print(f"  {count}/{len(invocations)} invocations en processus", file=log)
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
        if own_home:
            shutil.rmtree(home, ignore_errors=True)
    return records


# -- comparing --------------------------------------------------------------------------------


def json_differences(a, b, path: str = "") -> list[str]:
    """The JSON paths where ``a`` and ``b`` differ, with both values (shortened)."""
    if type(a) is not type(b):
        return [f"{path or '/'} : {a!r:.60} ≠ {b!r:.60}"]
    if isinstance(a, dict):
        found = []
        for key in list(a) + [key for key in b if key not in a]:
            if key not in b:
                found.append(f"{path}/{key} : seulement dans le premier")
            elif key not in a:
                found.append(f"{path}/{key} : seulement dans le second")
            else:
                found += json_differences(a[key], b[key], f"{path}/{key}")
        return found
    if isinstance(a, list):
        found = [] if len(a) == len(b) else [f"{path or '/'} : {len(a)} éléments ≠ {len(b)}"]
        for index, (x, y) in enumerate(zip(a, b)):
            found += json_differences(x, y, f"{path}/{index}")
        return found
    return [] if a == b else [f"{path or '/'} : {a!r:.60} ≠ {b!r:.60}"]


def _parsed(text: str):
    """``text`` as JSON, or None if it is not a JSON document."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def folded(text: str) -> str:
    """``text`` with every run of white space folded into one space."""
    return " ".join(text.split())


def _first_difference(a: str, b: str) -> str:
    """Where two texts first differ, word by word, with a little context."""
    words_a, words_b = a.split(), b.split()
    at = next((n for n, (x, y) in enumerate(zip(words_a, words_b)) if x != y), min(len(words_a), len(words_b)))
    start, end = max(0, at - 6), at + 10
    return f"« {' '.join(words_a[start:end])} » ≠ « {' '.join(words_b[start:end])} »"


def compare_texts(what: str, a: str, b: str, counts: dict, strict: bool = False) -> list[str]:
    """The problems of two texts (JSON as data, text with white space folded, or exactly if
    ``strict``); ``counts["exact"]`` counts the texts that differ at all."""
    if a == b:
        return []
    counts["exact"] += 1
    data_a, data_b = _parsed(a), _parsed(b)
    if data_a is not None and data_b is not None:
        paths = json_differences(data_a, data_b)
        if not paths:  # the same data, laid out otherwise
            return []
        more = f" (et {len(paths) - SHOWN_PATHS} autres)" if len(paths) > SHOWN_PATHS else ""
        return [f"{what} (JSON) : " + " ; ".join(paths[:SHOWN_PATHS]) + more]
    if folded(a) == folded(b):
        return [f"{what} : mêmes mots, blancs différents"] if strict else []
    same_words = sorted(a.split()) == sorted(b.split())
    counts["reordered"] += same_words
    note = " (mêmes mots dans un autre ordre : cellules de tableau ?)" if same_words else ""
    return [f"{what} (texte){note} : {_first_difference(a, b)}"]


def compare_records(old: dict, new: dict, counts: dict, strict: bool = False) -> list[str]:
    """The problems found between two records of the same invocation."""
    problems = [] if old["code"] == new["code"] else [f"code de sortie {old['code']} ≠ {new['code']}"]
    for stream in ("stdout", "stderr"):
        problems += compare_texts(stream, old[stream], new[stream], counts, strict)
    for name in list(old["files"]) + [name for name in new["files"] if name not in old["files"]]:
        a, b = old["files"].get(name), new["files"].get(name)
        if a is None or b is None:
            problems.append(f"fichier {name} : {'absent' if a is None else 'présent'} puis "
                            f"{'absent' if b is None else 'présent'}")  # fmt: skip
        else:
            problems += compare_texts(f"fichier {name}", a, b, counts, strict)
    return problems


def _shown(record: dict) -> str:
    """An invocation as printed: its documented line, or its arguments quoted as in a shell."""
    return record.get("line") or "rules-kb " + shlex.join(record["args"])


def compare(before: list[dict], after: list[dict], only: str = "", strict: bool = False, out=sys.stdout) -> int:
    """Print the differences of two runs; return how many invocations differ."""
    before = [record for record in before if _matches(record["args"], only)]
    after = [record for record in after if _matches(record["args"], only)]
    by_args = {tuple(record["args"]): record for record in after}
    counts = {"exact": 0, "reordered": 0}
    exact_records = differing = 0
    for old in before:
        new = by_args.pop(tuple(old["args"]), None)
        if new is None:
            print(f"ABSENT DU SECOND : {_shown(old)}", file=out)
            differing += 1
            exact_records += 1
            continue
        if any(old[key] != new[key] for key in ("code", "stdout", "stderr", "files")):
            exact_records += 1
        problems = compare_records(old, new, counts, strict)
        if problems:
            differing += 1
            print(f"DIFFÉRENT : {_shown(old)}", file=out)
            for problem in problems:
                print(f"    {problem}", file=out)
    for new in by_args.values():
        print(f"ABSENT DU PREMIER : {_shown(new)}", file=out)
        differing += 1
        exact_records += 1
    print(
        f"{len(before)} invocations comparées ; différences exactes : {exact_records} invocations "
        f"({counts['exact']} sorties ou fichiers) ; différences blancs mis à part : {differing} invocations",
        f"(dont {counts['reordered']} sorties aux mêmes mots dans un autre ordre).",
        file=out,
    )
    return differing


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = FrenchParser(description="Enregistre les réponses de rules-kb, ou compare deux séries.")
    parser.add_argument("--out", metavar="FICHIER", help="fichier JSON où enregistrer la série")
    parser.add_argument("--compare", nargs=2, metavar=("AVANT", "APRÈS"), help="compare deux séries enregistrées")
    parser.add_argument(
        "--rules-kb",
        default=str(Path(sys.executable).with_name("rules-kb")),
        metavar="CHEMIN",
        help="le script rules-kb des lignes du README et de docs/ (par défaut celui de cet interpréteur)",
    )
    parser.add_argument(
        "--only", default="", metavar="MOTIF", help="seulement les invocations qui contiennent ce texte"
    )
    parser.add_argument("--exact", action="store_true", help="avec --compare : les blancs comptent aussi")
    options = parser.parse_args(argv)
    if options.compare:
        missing = [name for name in options.compare if not Path(name).is_file()]
        if missing:
            parser.error(f"série introuvable : {', '.join(missing)}")
        first, second = (json.loads(Path(name).read_text(encoding="utf-8")) for name in options.compare)
        return 1 if compare(first, second, options.only, options.exact) else 0
    if not options.out:
        parser.error("indiquez --out FICHIER ou --compare AVANT APRÈS")
    if not Path(options.rules_kb).exists():
        parser.error(f"script rules-kb introuvable : {options.rules_kb}")
    if importlib.util.find_spec("cli") is None:  # not installed: the checkout we are in
        sys.path.insert(1, os.getcwd())
    records = snapshot(os.path.abspath(options.rules_kb), options.only)
    Path(options.out).parent.mkdir(parents=True, exist_ok=True)
    Path(options.out).write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(records)} invocations enregistrées dans {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
