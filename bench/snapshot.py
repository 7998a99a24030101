"""Save what the CLI answers, to compare two versions of rules-kb.

    python bench/snapshot.py --out avant.json            # with this checkout's rules-kb
    python bench/snapshot.py --compare avant.json après.json

A run records, for each invocation, its exit code, standard output and
error, and the files it wrote: every ``rules-kb …`` line of the README's
``sh`` blocks (run in order, in one temporary folder, by a shell, so that
``> ours.toml`` then ``check ours.toml`` work; without redirection, also
with ``--json``), then sweeps run in this process through
:func:`cli.app.main`: ``show`` of every rule of 2004, ``define`` of every
glossary headword, ``search`` and ``ask`` of many queries (the questions of
``tests/eval/questions.jsonl``), ``check`` of every bundled example, and
the ``corpus``, ``index``, ``graph`` and ``export`` commands. Cache paths,
fingerprints and dates are replaced by placeholders.

``--compare`` matches invocations by their arguments; JSON outputs are
compared as data (the paths that differ are printed), texts after folding
every run of white space into one space (output to a file is not wrapped at
80 columns as Rich wraps it), with the exact differences counted too.
Exit code 1 when something differs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FINGERPRINT_RE = re.compile(r"\b[0-9a-f]{64}\b")
_MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
_DATE_RE = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:[+-]\d{2}:?\d{2}|Z)?"
    rf"|\d{{1,2}}(?:er)? (?:{_MONTHS}) \d{{4}}(?: à \d{{1,2}}[:h]\d{{2}})?"
)
#: The checkout whose rules-kb runs (its corpus folder appears in outputs).
CHECKOUT = ""


def _normalise(text: str, home: str, work: str) -> str:
    text = text.replace(home, "<HOME>").replace(work, "<TMP>")
    if CHECKOUT:
        text = text.replace(CHECKOUT, "<CHECKOUT>")
    text = _FINGERPRINT_RE.sub("<FINGERPRINT>", text)
    return _DATE_RE.sub("<DATE>", text)


def readme_commands() -> list[str]:
    """The ``rules-kb`` lines of the README's ``sh`` blocks, comments removed."""
    lines, inside = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and line.startswith("rules-kb ") and not line.startswith("rules-kb serve"):
            lines.append(re.sub(r"\s+#.*$", "", line).strip())
    return lines


def _run_shell(line: str, script: str, work: Path, env: dict, home: str) -> dict:
    before = {path.name for path in work.iterdir()}
    done = subprocess.run(
        ["bash", "-c", script + line[len("rules-kb"):]], cwd=work, env=env, capture_output=True, text=True
    )
    files = {}
    for path in sorted(work.rglob("*")):
        if path.is_file() and path.relative_to(work).parts[0] not in before:
            try:
                files[str(path.relative_to(work))] = _normalise(path.read_text(encoding="utf-8"), home, str(work))
            except UnicodeDecodeError:
                files[str(path.relative_to(work))] = f"<{path.stat().st_size} octets>"
    return {"args": _normalise(line, home, str(work)), "code": done.returncode, "stdout": _normalise(done.stdout, home, str(work)),
            "stderr": _normalise(done.stderr, home, str(work)), "files": files}  # fmt: skip


def _run_here(args: list[str], home: str, work: str) -> dict:
    from cli.app import main

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as done:
            code = done.code
    out.flush()
    text = out.buffer.getvalue().decode("utf-8")
    return {"args": _normalise(" ".join(args), home, work), "code": code, "stdout": _normalise(text, home, work),
            "stderr": _normalise(err.getvalue(), home, work), "files": {}}  # fmt: skip


def sweeps(work: Path) -> list[list[str]]:
    """The invocations run in this process (see the module docstring)."""
    from cli.app import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(["corpus", "dump", "--json"])
        except SystemExit:
            pass
    dump = json.loads(out.getvalue())
    numbers = [rule["number"] for rule in dump["rules"] if rule["edition"] == "2004"]
    terms = [entry["term"] for entry in dump["glossary"]]
    found: list[list[str]] = []
    for number in numbers + ["420.5n", "502.16", "502.57"]:
        found += [["show", number, "--json"], ["show", number]]
    found += [["show", "611.2a", "--edition", "2011"], ["show", "201.3", "--edition", "2011", "--json"]]
    for term in terms + ["blessure fatale", "pietinement", "contrecarer", "APNAP", "couche", "tampon", "remplacment",
                         "points de vie", "zzzzyx"]:  # fmt: skip
        found += [["define", term, "--json"], ["define", term]]
    queries = ["blessures fatales", "endurance 0", "creature", "420.5c", '"blessures fatales"', "suspension",
               "Guide griffon", "l'endurance", "dégâts", "le la", "AND", "titre:couche", "pouvoir NOT mana"]  # fmt: skip
    for query in queries + terms[:40]:
        found += [["search", query, "--json"], ["search", query]]
    found += [["search", "Guide griffon", "--kind", "carte"], ["search", "couche", "--kind", "règle", "--edition", "2004", "--json"]]
    questions = [json.loads(line)["question"] for line in (ROOT / "tests/eval/questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    for number, question in enumerate(questions):
        found += [["ask", question, "--json"], ["ask", question]]
        if number < 20:
            found.append(["ask", question, "--explain"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(["check", "--example", "--json"])
        except SystemExit:
            pass
    found.append(["check", "--example"])
    for example in json.loads(out.getvalue())["examples"]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                main(["check", "--example", example["name"]])
            except SystemExit:
                pass
        path = work / f"{example['name']}.toml"
        path.write_text(out.getvalue(), encoding="utf-8")
        found += [["check", "--example", example["name"]], ["check", str(path), "--json"], ["check", str(path)],
                  ["check", str(path), "--edition", "2006-faq", "--json"]]  # fmt: skip
    found += [["graph", "418.5a"], ["graph", "Couche", "--depth", "2", "--relation", "uses-term", "--json"],
              ["graph", "420", "--format", "mermaid"], ["corpus", "list"], ["corpus", "list", "--json"],
              ["corpus", "check"], ["corpus", "check", "--json"], ["corpus", "dump", "--json"],
              ["export", "420.5", "--format", "json"], ["export", "420.5c"], ["export", "--term", "Couche", "--format", "md"],
              ["index", "--json"]]  # fmt: skip
    return found


def snapshot(script: str, only: str = "") -> list[dict]:
    """Every invocation's record (see the module docstring)."""
    home = os.environ.get("RULES_KB_HOME") or tempfile.mkdtemp(prefix="rules-kb-snapshot-")
    os.environ["RULES_KB_HOME"] = home
    os.environ.pop("RULES_KB_CORPUS", None)
    work = Path(tempfile.mkdtemp(prefix="rules-kb-work-"))
    os.environ["COLUMNS"] = "80"
    env = dict(os.environ)
    global CHECKOUT
    import cli

    CHECKOUT = str(Path(cli.__file__).resolve().parent.parent)
    records = []
    try:
        for line in readme_commands():
            if only and only not in line:
                continue
            records.append(_run_shell(line, script, work, env, home))
            if ">" not in line and "<" not in line and "--json" not in line:
                records.append(_run_shell(line + " --json", script, work, env, home))
        for args in sweeps(work):
            if only and only not in " ".join(args):
                continue
            records.append(_run_here(args, home, str(work)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return records


def _json_paths(a, b, path: str = "") -> list[str]:
    if type(a) is not type(b):
        return [f"{path or '/'}: {a!r:.60} ≠ {b!r:.60}"]
    if isinstance(a, dict):
        found = []
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                found.append(f"{path}/{key}: absent d'un côté")
            else:
                found += _json_paths(a[key], b[key], f"{path}/{key}")
        return found
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} éléments ≠ {len(b)}"]
        return [found for x, y, n in zip(a, b, range(len(a))) for found in _json_paths(x, y, f"{path}/{n}")]
    return [] if a == b else [f"{path}: {a!r:.60} ≠ {b!r:.60}"]


def _first_difference(a: str, b: str) -> str:
    words_a, words_b = a.split(), b.split()
    at = next((n for n, (x, y) in enumerate(zip(words_a, words_b)) if x != y), min(len(words_a), len(words_b)))
    return f"{' '.join(words_a[max(0, at - 8):at + 12])!r} ≠ {' '.join(words_b[max(0, at - 8):at + 12])!r}"


def compare(before: list[dict], after: list[dict]) -> int:
    """Print the differences of two runs; the number of invocations that differ."""
    by_args = {record["args"]: record for record in after}
    exact = spaced = layout = 0
    for old in before:
        new = by_args.get(old["args"])
        if new is None:
            print(f"ABSENT : {old['args']}")
            spaced += 1
            continue
        problems = []
        if old["code"] != new["code"]:
            problems.append(f"code {old['code']} ≠ {new['code']}")
        for stream in ("stdout", "stderr"):
            a, b = old[stream], new[stream]
            if a == b:
                continue
            try:
                paths = _json_paths(json.loads(a), json.loads(b))
            except ValueError:
                exact += 1
                if " ".join(a.split()) != " ".join(b.split()):
                    if sorted(a.split()) == sorted(b.split()):
                        layout += 1  # the same words, laid out otherwise (a table's wrapped cells)
                    else:
                        problems.append(f"{stream} (texte) : {_first_difference(a, b)}")
            else:
                if paths:
                    problems.append(f"{stream} (JSON) : " + "; ".join(paths[:5]))
        for name in sorted(set(old["files"]) | set(new["files"])):
            a, b = old["files"].get(name), new["files"].get(name)
            if a != b and (a is None or b is None or " ".join(a.split()) != " ".join(b.split())):
                problems.append(f"fichier {name} différent")
        if problems:
            spaced += 1
            print(f"DIFFÉRENT : {old['args']}")
            for problem in problems:
                print(f"    {problem}")
    print(f"{len(before)} invocations ; {spaced} différentes (blancs mis à part) ; "
          f"{exact} sorties texte différentes par les blancs ou le retour à la ligne, dont {layout} "
          "aux mêmes mots disposés autrement (cellules de tableau).")  # fmt: skip
    return spaced


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="fichier JSON où enregistrer la série")
    parser.add_argument("--compare", nargs=2, metavar=("AVANT", "APRÈS"), help="compare deux séries")
    parser.add_argument("--rules-kb", default=str(Path(sys.executable).with_name("rules-kb")), help="le script rules-kb")
    parser.add_argument("--only", default="", help="seulement les invocations qui contiennent ce texte")
    options = parser.parse_args()
    if options.compare:
        before, after = (json.loads(Path(name).read_text(encoding="utf-8")) for name in options.compare)
        return 1 if compare(before, after) else 0
    if not options.out:
        parser.error("--out ou --compare")
    sys.path.insert(0, str(Path.cwd()))
    records = snapshot(options.rules_kb, options.only)
    Path(options.out).write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(records)} invocations enregistrées dans {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
