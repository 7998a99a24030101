"""Whole-process timings of rules-kb commands, as ratios to ``python -c pass``.

Usage (from the project root, after ``pip install -e .``)::

    python bench/run.py                         # 9 rounds, the table
    python bench/run.py --runs 15 --json        # the results as JSON
    python bench/run.py --check                 # exit code 1 when a budget is not met
    python bench/run.py --rules-kb /autre/.venv/bin/rules-kb --json-out autre.json

Each command runs as a user runs it: a new ``rules-kb`` process, output
discarded, the cache already built (a first untimed run builds it), the
measured checkout's modules compiled to bytecode first (as an installed
package has them). Machines differ, so a command is measured against the
interpreter itself: each round times ``python -c pass`` (this interpreter,
``sys.executable``), then every command once, side by side on the same
machine at the same moment; a command's ratio is its median divided by the
median of ``python -c pass``.

Budgets are ratios: show, define, search, --help ≤ 10, check ≤ 12, ask ≤ 20, a 60-word story ≤ 30 (issue 34)
(with the embedding model: a short question, a question the checker does not
judge, a story of 40 words). The exports keep absolute budgets (HTML ≤ 300 ms, a question in Markdown
≤ 400 ms, the offline book ≤ 3 s), as do two scenarios of 80 creatures with
a static ability each (:func:`many_statics`: 80 Crusades ≤ 1 s, a chain of
80 dependencies ≤ 1.5 s) and the first build (``rules-kb index``
into an empty cache folder, the bundled vectors reused) ≤ 3 s; their ratio is printed too. The cache
lives in a temporary RULES_KB_HOME, so the user's cache is left alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The example scenarios copied into the cache folder for ``check``.
EXAMPLES = ("blessures-fatales", "couches-dependance")
QUESTION = "ma 2/2 a pris 2 dégâts elle meurt ?"
STORY = (
    "je lance un sort qui détruit un artefact ciblé mais avant qu'il se résolve mon adversaire renvoie "
    "l'artefact dans sa main, mon sort fait quand même quelque chose ?"
)  # issue 18's second question
#: A story of 60 words, as a player tells it at the table (issue 34's budget: ≤ 30×).
LONG_STORY = (
    "alors voilà, on joue depuis vingt minutes, j'ai trois terrains et une créature 2/2 sur la table, mon "
    "adversaire attaque avec son 3/3 volant, je ne peux pas bloquer, puis pendant son deuxième tour il lance "
    "un éphémère qui donne -1/-1 à ma créature qui avait déjà pris un dégât plus tôt dans le tour, est-ce "
    "qu'elle meurt tout de suite ?"
)
#: The project's packages, compiled to bytecode before timing.
PACKAGES = ("rules_kb", "cli", "indexer")

#: (name, arguments, budget, unit): a budget is a ratio to ``python -c pass`` ("×") or
#: seconds ("s"). ``{home}``: the cache folder.
CASES = (
    ("show", ["show", "420.5c"], 10.0, "×"),
    ("define", ["define", "contrecarer"], 10.0, "×"),
    ("search", ["search", "blessures fatales"], 10.0, "×"),
    ("--help", ["--help"], 10.0, "×"),
    ("check", ["check", "{home}/blessures-fatales.toml"], 12.0, "×"),  # a state-based action
    ("check (couches)", ["check", "{home}/couches-dependance.toml"], 12.0, "×"),  # layers, a dependency
    ("ask", ["ask", QUESTION], 20.0, "×"),  # judged by the checker
    ("ask (sans vérification)", ["ask", "il a trample et je bloque avec une 1/1"], 20.0, "×"),
    ("ask (récit)", ["ask", STORY], 20.0, "×"),
    ("ask (récit de 60 mots)", ["ask", LONG_STORY], 30.0, "×"),
    ("check (80 croisades)", ["check", "{home}/croisades-80.toml"], 1.0, "s"),  # issue 23: 80 static abilities
    ("check (chaîne de 80)", ["check", "{home}/chaine-80.toml"], 1.5, "s"),  # each effect waits for the one before
    ("export (HTML)", ["export", "420.5", "--format", "html"], 0.300, "s"),
    ("export (question, md)", ["export", "--ask", "ma 2/2 a pris 2 dégâts", "--format", "md"], 0.400, "s"),
    ("export --all (livre)", ["export", "--all", "-o", "{home}/livre", "--force"], 3.0, "s"),
    ("construction (index)", ["index"], 3.0, "s"),  # the first build: into an empty cache folder
)
#: The case timed into a new empty cache folder each time.
BUILD = "construction (index)"


# -- a French command line (shared by the bench scripts) ---------------------------------------

#: argparse's messages for a malformed command line, in French.
_MESSAGES = (
    (r"unrecognized arguments: (.*)", "argument(s) inconnu(s) : {0}"),
    (r"the following arguments are required: (.*)", "il manque {0}"),
    (r"argument (\S+): expected one argument", "l'option {0} attend une valeur"),
    (r"argument (\S+): expected (\d+) arguments", "l'option {0} attend {1} valeurs"),
    (r"argument (\S+): invalid (\w+) value: (.*)", "valeur invalide pour {0} : {2}"),
    (r"argument (\S+): ignored explicit argument (.*)", "l'option {0} n'attend pas de valeur ({1})"),
    (r"argument (\S+): (.*)", "{0} : {1}"),
)


class FrenchHelp(argparse.HelpFormatter):
    """argparse's help with a French usage line."""

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        super().add_usage(usage, actions, groups, "Utilisation : " if prefix is None else prefix)


class FrenchParser(argparse.ArgumentParser):
    """An argument parser whose help and errors are in French (exit code 2 on an error)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", FrenchHelp)
        kwargs.setdefault("add_help", False)
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        self.add_argument("-h", "--help", action="help", help="affiche cette aide et quitte")

    def error(self, message: str):
        """Print the usage and the French message on standard error; exit code 2."""
        for pattern, french_text in _MESSAGES:
            if found := re.fullmatch(pattern, message, re.DOTALL):
                message = french_text.format(*found.groups())
                break
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog} : erreur : {message}\n")


def find_script(path: str | None) -> str:
    """The rules-kb script to time: ``path``, else the one beside this interpreter, else on PATH."""
    if path:
        if not Path(path).exists():
            sys.exit(f"rules-kb introuvable : {path}")
        return os.path.abspath(path)
    beside = Path(sys.executable).with_name("rules-kb")
    found = str(beside) if beside.exists() else shutil.which("rules-kb")
    if not found:
        sys.exit("rules-kb introuvable : installez le projet (pip install -e .) ou indiquez --rules-kb.")
    return found


def script_python(script: str) -> str:
    """The interpreter of a console script (its ``#!`` line), else this one."""
    with open(script, "rb") as file:
        first = file.readline().decode("utf-8", "replace")
    python = first[2:].strip() if first.startswith("#!") else ""
    return python if python and Path(python).exists() else sys.executable


def compile_checkout(script: str) -> str:
    """Compile the measured installation's packages to bytecode; return its checkout folder."""
    python = script_python(script)
    code = "import cli, os; print(os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__))))"
    with tempfile.TemporaryDirectory() as elsewhere:  # not the current folder: it may hold another checkout
        found = subprocess.run([python, "-c", code], cwd=elsewhere, capture_output=True, text=True, check=True)
    checkout = found.stdout.strip()
    packages = [str(Path(checkout) / name) for name in PACKAGES if (Path(checkout) / name).is_dir()]
    subprocess.run([python, "-m", "compileall", "-q", *packages], stdout=subprocess.DEVNULL, check=True)
    return checkout


def succeed(done: subprocess.CompletedProcess) -> None:
    """Stop with a French message when a command failed."""
    if done.returncode != 0:
        detail = (done.stderr or b"").decode("utf-8", "replace").strip()
        sys.exit(f"« {' '.join(map(str, done.args))} » a échoué (code {done.returncode}) : {detail}")


def time_once(command: list[str], env: dict[str, str]) -> float:
    """Seconds taken by one run of ``command`` (output discarded; it must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    succeed(done)
    return elapsed


def many_statics(count: int, chained: bool) -> str:
    """A scenario of ``count`` creatures, each with a static ability (418.5c's
    worst cases, issue 23): Crusades (« Toutes les créatures blanches gagnent
    +1/+1. »: no dependency), or a chain where each effect makes the next one
    apply (« Les T0 sont aussi des T1. », « Les T1 sont aussi des T2. »…, the
    later timestamps first: every one waits for the one before)."""
    parts = []
    for i in range(count):
        if chained:
            detail, timestamp = f'subtypes = ["T{i}"]', count - i
            ability = (f'text = "Les T{i} sont aussi des T{i + 1}."\naffects_all = {{ subtypes = ["T{i}"] }}\n'
                       f'add_subtypes = ["T{i + 1}"]')  # fmt: skip
        else:
            detail, timestamp = 'colors = ["blanc"]', i + 1
            ability = ('text = "Toutes les créatures blanches gagnent +1/+1."\n'
                       'affects_all = { card_types = ["créature"], colors = ["blanc"] }\nmodify_power_toughness = [1, 1]')  # fmt: skip
        parts.append(f'[[permanent]]\nid = "c{i}"\nname = "C{i}"\ncontroller = "Alice"\ncard_types = ["créature"]\n'
                     f"power = 1\ntoughness = 1\n{detail}\ntimestamp = {timestamp}\n\n"
                     f'[[permanent.static]]\nid = "s{i}"\n{ability}\n')  # fmt: skip
    return "\n".join(parts)


def prepare(script: str, home: str, env: dict[str, str]) -> None:
    """Build the cache (untimed), copy the example scenarios into ``home``
    and write the scenarios of 80 static abilities (:func:`many_statics`)."""
    succeed(subprocess.run([script, "index"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False))
    (Path(home) / "croisades-80.toml").write_text(many_statics(80, chained=False), encoding="utf-8")
    (Path(home) / "chaine-80.toml").write_text(many_statics(80, chained=True), encoding="utf-8")
    for example in EXAMPLES:
        with open(Path(home) / f"{example}.toml", "wb") as scenario:
            command = [script, "check", "--example", example]
            done = subprocess.run(command, env=env, stdout=scenario, stderr=subprocess.PIPE, check=False)
        succeed(done)


def time_case(script: str, name: str, args: list[str], home: str, env: dict[str, str]) -> float:
    """One timed run of a case; the build (:data:`BUILD`) runs into a new empty cache folder."""
    command = [script, *(arg.format(home=home) for arg in args)]
    if name != BUILD:
        return time_once(command, env)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-build-") as fresh:
        return time_once(command, dict(env, RULES_KB_HOME=fresh))


def measure(script: str, runs: int, log=sys.stderr) -> dict:
    """Interleaved timings (seconds): every round, ``python -c pass`` then each case once."""
    checkout = compile_checkout(script)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-") as home:
        env = dict(os.environ, RULES_KB_HOME=home)
        env.pop("RULES_KB_CORPUS", None)
        prepare(script, home, env)
        baseline: list[float] = []
        times: dict[str, list[float]] = {name: [] for name, *_rest in CASES}
        for round_ in range(runs):
            baseline.append(time_once([sys.executable, "-c", "pass"], env))
            for name, args, _budget, _unit in CASES:
                times[name].append(time_case(script, name, args, home, env))
            print(f"  tour {round_ + 1}/{runs}", file=log)
    return {"script": script, "checkout": checkout, "baseline": baseline, "times": times}


def results(measured: dict) -> list[dict]:
    """One row per case: medians (ms), ratio to ``python -c pass``, budget, whether it is met."""
    base = statistics.median(measured["baseline"])
    rows = []
    for name, args, budget, unit in CASES:
        times = measured["times"][name]
        median = statistics.median(times)
        ratio = median / base
        ok = ratio <= budget if unit == "×" else median <= budget
        rows.append({
            "name": name,
            "args": args,
            "median_ms": round(median * 1000, 1),
            "min_ms": round(min(times) * 1000, 1),
            "max_ms": round(max(times) * 1000, 1),
            "pass_ms": round(base * 1000, 1),
            "ratio": round(ratio, 2),
            "budget_ratio": budget if unit == "×" else None,
            "budget_ms": round(budget * 1000) if unit == "s" else None,
            "ok": ok,
        })  # fmt: skip
    return rows


def french(number: float, digits: int) -> str:
    """``number`` with ``digits`` decimals and a decimal comma."""
    return f"{number:.{digits}f}".replace(".", ",")


def budget_text(row: dict) -> str:
    """A budget as printed: « ≤ 5× » or « ≤ 300 ms »."""
    if row["budget_ratio"] is not None:
        return f"≤ {row['budget_ratio']:g}×".replace(".", ",")
    return f"≤ {row['budget_ms']} ms"


def print_table(rows: list[dict], measured: dict) -> None:
    """The French table of the results."""
    print(f"rules-kb : {measured['script']} (code : {measured['checkout']})")
    print(f"python -c pass : {sys.executable} ; {len(measured['baseline'])} tours")
    print(f"{'commande':<25} {'médiane':>11} {'python -c pass':>15} {'ratio':>8} {'budget':>10}  ok/DÉPASSÉ")
    for row in rows:
        flag = "ok" if row["ok"] else "DÉPASSÉ"
        print(f"{row['name']:<25} {french(row['median_ms'], 1):>8} ms {french(row['pass_ms'], 1):>12} ms "
              f"{french(row['ratio'], 2):>7}× {budget_text(row):>10}  {flag}")  # fmt: skip
    over = [row["name"] for row in rows if not row["ok"]]
    print("Tous les budgets sont tenus." if not over else f"Budgets dépassés : {', '.join(over)}.")


def as_json(rows: list[dict], measured: dict) -> dict:
    """The results as one JSON document."""
    return {
        "python": sys.version.split()[0],
        "interpreter": sys.executable,
        "rules_kb": measured["script"],
        "checkout": measured["checkout"],
        "runs": len(measured["baseline"]),
        "pass_ms": rows[0]["pass_ms"],
        "results": rows,
    }


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = FrenchParser(description="Temps des commandes de rules-kb, rapportés à « python -c pass ».")
    parser.add_argument("--runs", type=int, default=9, metavar="N", help="tours de mesure (9 par défaut, 3 au moins)")
    parser.add_argument("--json", action="store_true", help="affiche les résultats en JSON")
    parser.add_argument("--check", action="store_true", help="code de sortie 1 si un budget est dépassé")
    parser.add_argument(
        "--rules-kb", metavar="CHEMIN", help="le script rules-kb à mesurer (par défaut celui de cet interpréteur)"
    )
    parser.add_argument("--json-out", metavar="FICHIER", help="écrit aussi les résultats en JSON dans ce fichier")
    options = parser.parse_args(argv)
    measured = measure(find_script(options.rules_kb), max(3, options.runs))
    rows = results(measured)
    document = json.dumps(as_json(rows, measured), ensure_ascii=False, indent=2) + "\n"
    if options.json_out:
        Path(options.json_out).write_text(document, encoding="utf-8")
    if options.json:
        sys.stdout.write(document)
    else:
        print_table(rows, measured)
    return 1 if options.check and not all(row["ok"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
