"""How rules-kb scales with the corpus: 1×, 4× and 10× the rules.

Usage (from the project root, after ``pip install -e .``)::

    python bench/scale.py                      # 1×, 4× and 10×: the table
    python bench/scale.py --check              # exit code 1 when a limit is not met
    python bench/scale.py --scales 1,4 --rules-kb /autre/.venv/bin/rules-kb
    python bench/scale.py --timeout 600        # give up a build after 10 minutes

For each scale N, a corpus is made in a temporary folder: a copy of the
bundled corpus (every file and ``manifest.toml``), plus, for k = 2 … N,
another copy of the 2004 rules file declared in the manifest as one more
``rules`` document, ``cr-2004-k`` of edition ``2004.k`` (``k`` padded with
zeros to sort as a number; every other key as the 2004 document has it).
Then, in new processes with ``--corpus`` and a temporary RULES_KB_HOME: the
first build of each scale (``rules-kb index --json`` into an empty cache
folder; the median of 3, 1 only from 10×), then, the caches built, ``show
420.5c`` and ``ask "ma 2/2 a pris 2 dégâts elle meurt ?"`` (medians of 7),
every scale in each round, side by side.

Limits: the 10× build takes at most 12 times the 1× build; ``show`` and
``ask`` at 10× at most 1.3 times their 1× time.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import FrenchParser, compile_checkout, find_script, french

CORPUS = ROOT / "corpus"
RULES_FILE = "regles-completes-2004.txt"
QUESTION = "ma 2/2 a pris 2 dégâts elle meurt ?"
#: What is timed: name → arguments (``--corpus`` is added).
COMMANDS = {"show": ["show", "420.5c"], "ask": ["ask", QUESTION]}
#: Limits at 10×, as ratios to the 1× time.
LIMITS = {"construction": 12.0, "show": 1.3, "ask": 1.3}
#: The scale the limits apply to, and the one they compare with.
LIMIT_SCALE, BASE_SCALE = 10, 1


class TooLong(Exception):
    """A build went over the time allowed (``--timeout``)."""


# -- the corpora ------------------------------------------------------------------------------


def toml_value(value) -> str:
    """A TOML literal for a manifest value (text, number, boolean, date, list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


def toml_document(keys: dict) -> str:
    """One ``[[document]]`` table of the manifest."""
    return "[[document]]\n" + "".join(f"{key} = {toml_value(value)}\n" for key, value in keys.items())


def rules_document(manifest: dict) -> dict:
    """The manifest's entry for the 2004 rules file."""
    for document in manifest.get("document", []):
        if document.get("file") == RULES_FILE and document.get("kind") == "rules":
            return document
    sys.exit(f"Le manifeste ne déclare pas {RULES_FILE} comme document « rules ».")


def make_corpus(folder: Path, scale: int, source: Path = CORPUS) -> Path:
    """A copy of ``source`` with the 2004 rules declared ``scale`` times in all (see the docstring)."""
    shutil.copytree(source, folder)
    manifest_path = folder / "manifest.toml"
    text = manifest_path.read_text(encoding="utf-8")
    original = rules_document(tomllib.loads(text))
    tables = []
    for k in range(2, scale + 1):
        name = f"{Path(RULES_FILE).stem}-{k}{Path(RULES_FILE).suffix}"
        shutil.copyfile(folder / RULES_FILE, folder / name)
        suffix = str(k).zfill(len(str(scale)))  # 2004.02 … 2004.10: the editions sort as numbers
        copy = {**original, "id": f"{original['id']}-{k}", "file": name, "edition": f"{original['edition']}.{suffix}"}
        tables.append(toml_document(copy))
    if tables:
        manifest_path.write_text(text.rstrip("\n") + "\n\n" + "\n".join(tables), encoding="utf-8")
        tomllib.loads(manifest_path.read_text(encoding="utf-8"))  # still a valid manifest
    return folder


# -- timing -----------------------------------------------------------------------------------


def run_timed(command: list[str], env: dict, timeout: float | None = None) -> tuple[float, str]:
    """Run ``command`` (it must succeed): (seconds, standard output)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise TooLong from None
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"« {' '.join(command)} » a échoué (code {done.returncode}) :\n{done.stderr.strip()}")
    return elapsed, done.stdout


def build(script: str, scale: int, work: Path, timeout: float | None, log=sys.stderr) -> dict:
    """Make the corpus of ``scale`` in ``work`` and time its first build
    (the median of 3, 1 only from 10×): ``{"scale", "rules", "construction",
    "corpus", "env"}`` — the cache of the last build kept for the commands —
    or ``{"scale", "too_long"}``."""
    corpus = str(make_corpus(work / f"corpus-{scale}", scale))
    builds, counts, env = [], {}, {}
    for _ in range(1 if scale >= 10 else 3):
        env = dict(os.environ, RULES_KB_HOME=tempfile.mkdtemp(dir=work))
        env.pop("RULES_KB_CORPUS", None)
        print(f"  {scale}× : construction…", file=log)
        try:
            seconds, output = run_timed([script, "index", "--corpus", corpus, "--json"], env, timeout)
        except TooLong:
            return {"scale": scale, "too_long": timeout}
        builds.append(seconds)
        counts = json.loads(output)
    return {"scale": scale, "rules": counts.get("rules"), "construction": statistics.median(builds),
            "corpus": corpus, "env": env}  # fmt: skip


def measure(script: str, scales: list[int], runs: int, timeout: float | None, log=sys.stderr) -> dict[int, dict]:
    """The first build of each scale, then ``show`` and ``ask`` (:data:`COMMANDS`)
    side by side: each round runs every command once at every scale, so that
    a change in the machine's load touches every scale alike. Medians, in seconds."""
    rows: dict[int, dict] = {}
    with tempfile.TemporaryDirectory(prefix="rules-kb-scale-") as work:
        for scale in scales:
            rows[scale] = build(script, scale, Path(work), timeout, log)
            if "too_long" in rows[scale]:
                break  # a bigger corpus would take longer still
        built = [row for row in rows.values() if "too_long" not in row]
        times: dict[tuple[int, str], list[float]] = {}
        for round_ in range(runs):
            for row in built:
                for name, args in COMMANDS.items():
                    seconds = run_timed([script, *args, "--corpus", row["corpus"]], row["env"])[0]
                    times.setdefault((row["scale"], name), []).append(seconds)
            print(f"  tour {round_ + 1}/{runs}", file=log)
        for row in built:
            for name in COMMANDS:
                row[name] = statistics.median(times[(row["scale"], name)])
            del row["corpus"], row["env"]
    return rows


def check_limits(rows: dict[int, dict], requested: list[int]) -> list[dict]:
    """Each limit at :data:`LIMIT_SCALE`: its ratio to :data:`BASE_SCALE` and whether it is met
    (None: not asked for; False when it was asked for but could not be measured)."""
    base, top = rows.get(BASE_SCALE, {}), rows.get(LIMIT_SCALE, {})
    asked = BASE_SCALE in requested and LIMIT_SCALE in requested
    checks = []
    for what, limit in LIMITS.items():
        ratio = top[what] / base[what] if what in base and what in top else None
        ok = (ratio <= limit if ratio is not None else False) if asked else None
        checks.append({"what": what, "limit": limit, "ratio": ratio, "ok": ok})
    return checks


# -- printing ---------------------------------------------------------------------------------


def print_table(rows: dict[int, dict], checks: list[dict], script: str, checkout: str) -> None:
    """The French table: absolute times and ratios to the first scale."""
    first = rows[min(rows)]
    print(f"rules-kb : {script} (code : {checkout})")
    print(f"{'échelle':<8} {'règles':>7}  {'construction':>20}  {'show':>17}  {'ask':>17}"
          f"   (rapport à {min(rows)}×)")  # fmt: skip
    for scale in sorted(rows):
        row = rows[scale]
        if "too_long" in row:
            print(f"{str(scale) + '×':<8} {'':>7}  construction arrêtée après {row['too_long']:g} s : non mesuré")
            continue
        cells = []
        for what, width in (("construction", 20), ("show", 17), ("ask", 17)):
            ratio = row[what] / first[what] if what in first else None
            cell = f"{row[what] * 1000:.0f} ms" + (f" ×{french(ratio, 2)}" if ratio is not None else "")
            cells.append(f"{cell:>{width}}")
        print(f"{str(scale) + '×':<8} {row['rules'] or '':>7}  " + "  ".join(cells))
    print(f"Limites à {LIMIT_SCALE}× (rapport au temps à {BASE_SCALE}×) :")
    for check in checks:
        measured = "non mesuré" if check["ratio"] is None else f"×{french(check['ratio'], 2)}"
        verdict = {None: "non vérifiée", True: "ok", False: "DÉPASSÉE"}[check["ok"]]
        if check["ok"] is False and check["ratio"] is None:
            verdict = "NON TENUE (non mesurée)"
        print(f"  {check['what']:<13} ≤ ×{french(check['limit'], 1):<5} {measured:>11}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = FrenchParser(description="Temps de rules-kb sur des corpus 1×, 4× et 10× plus grands.")
    parser.add_argument(
        "--scales", default="1,4,10", metavar="LISTE", help="les échelles, séparées par des virgules (1,4,10)"
    )
    parser.add_argument("--runs", type=int, default=7, metavar="N", help="mesures de show et ask par échelle (7)")
    parser.add_argument("--check", action="store_true", help="code de sortie 1 si une limite n'est pas tenue")
    parser.add_argument(
        "--rules-kb", metavar="CHEMIN", help="le script rules-kb à mesurer (par défaut celui de cet interpréteur)"
    )
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDES",
        help="abandonne une construction plus longue, et les échelles suivantes",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="affiche les résultats en JSON")
    options = parser.parse_args(argv)
    try:
        scales = sorted({int(scale) for scale in options.scales.split(",")})
    except ValueError:
        parser.error(f"--scales : des entiers séparés par des virgules, pas « {options.scales} »")
    if not scales or scales[0] < 1:
        parser.error("--scales : des entiers positifs")
    script = find_script(options.rules_kb)
    checkout = compile_checkout(script)
    rows = measure(script, scales, max(1, options.runs), options.timeout)
    checks = check_limits(rows, scales)
    if options.json:
        document = {"rules_kb": script, "checkout": checkout, "scales": list(rows.values()), "limits": checks}
        print(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        print_table(rows, checks, script, checkout)
    return 1 if options.check and any(check["ok"] is False for check in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
