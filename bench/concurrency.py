"""Concurrent first use, and concurrent exports to the same file.

    python bench/concurrency.py                     # 8 processes at once, 20 rounds of each
    python bench/concurrency.py --processes 4 --rounds 2

First use: each round empties a fresh ``RULES_KB_HOME``, starts
``--processes`` ``rules-kb show 420.5c`` at the same time, then checks that
every process answered (exit code 0, the rule on stdout, no traceback),
that the home holds one valid cache folder (its database matches its seal,
:func:`rules_kb.engines.store.verify`) and that no temporary file or folder
is left.

Exports: each round starts ``--processes`` exports to one file at once,
half ``export 420.5c -o extrait.md --force``, half the same without
``--force``, then the offline book, ``export --all -o livre --force``;
every process must write or refuse in French (exit code 0 or 1, no
traceback), the file and every file of the book must be whole (byte for
byte what a lone process writes, the export time aside) and no temporary
file left beside them.

Prints one line per round and a summary; exit code 1 when a round failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules_kb.engines.store import DATABASE, verify

#: The command every process runs, and what its answer must hold.
COMMAND = ("show", "420.5c")
EXPECTED = "420.5c"


def one_round(processes: int) -> list[str]:
    """Run ``processes`` first uses at once on an empty home; return the problems found (empty: all well)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="rules-kb-concurrency-") as home:
        environment = {**os.environ, "RULES_KB_HOME": home, "PYTHONPATH": str(ROOT)}
        environment.pop("RULES_KB_CORPUS", None)
        started = [_start(list(COMMAND), environment) for _ in range(processes)]
        for process in started:
            out, err = process.communicate(timeout=600)
            if process.returncode != 0 or EXPECTED not in out or "Traceback" in err:
                problems.append(f"process exit {process.returncode}: {err.strip().splitlines()[-1:] or out[:80]}")
        caches = [path for path in Path(home).iterdir() if len(path.name) == 64]
        if len(caches) != 1:
            problems.append(f"{len(caches)} cache folders")
        for cache in caches:
            try:
                verify(cache / DATABASE)
            except Exception as error:  # noqa: BLE001 - reported, not raised
                problems.append(f"invalid cache {cache.name[:12]}: {error}")
        left = [str(path.relative_to(home)) for path in Path(home).rglob("*") if path.name.startswith(".")
                and path.name != ".sha256"]  # fmt: skip
        if left:
            problems.append(f"temporary files left: {left}")
    return problems


def _start(arguments: list[str], environment: dict) -> subprocess.Popen:
    command = [sys.executable, "-c", "import sys; from cli.app import main; sys.exit(main())", *arguments]
    return subprocess.Popen(command, env=environment, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


#: The export time an export shows (« 26 novembre 2026 à 01:20 », ``2026-11-26T01:20+00:00``), to the minute.
_WHEN = re.compile(rb"\d{1,2} [^ ]+ \d{4} \xc3\xa0 \d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[+-]\d{2}:\d{2}")


def _timeless(data: bytes) -> bytes:
    """An export without its export time, which differs from one minute to the next."""
    return _WHEN.sub(b"<heure>", data)


def export_round(processes: int, home: str, expected: dict[str, bytes]) -> list[str]:
    """Run ``processes`` exports to one file at once, then as many of the
    book to one folder, with the cache of ``home`` built; ``expected``: what
    a lone process writes (:func:`lone_exports`), every file of which must be
    there whole. Returns the problems found."""
    problems = []
    environment = {**os.environ, "RULES_KB_HOME": home, "PYTHONPATH": str(ROOT)}
    environment.pop("RULES_KB_CORPUS", None)
    with tempfile.TemporaryDirectory(prefix="rules-kb-exports-") as folder:
        out, book = str(Path(folder) / "extrait.md"), str(Path(folder) / "livre")
        runs = [_start(["export", "420.5c", "-o", out, *(["--force"] if number % 2 else [])], environment)
                for number in range(processes)]  # fmt: skip
        runs += [_start(["export", "--all", "-o", book, "--force"], environment) for _ in range(processes)]
        for process in runs:
            _, err = process.communicate(timeout=600)
            if process.returncode not in (0, 1) or "Traceback" in err or (process.returncode and "Erreur" not in err):
                problems.append(f"export exit {process.returncode}: {err.strip().splitlines()[-1:]}")
        found = {str(path.relative_to(folder)): path for path in Path(folder).rglob("*") if path.is_file()}
        for name, data in expected.items():
            if name not in found or _timeless(found[name].read_bytes()) != _timeless(data):
                problems.append(f"{name} is not one whole export")
        left = [
            path.name
            for path in Path(folder).rglob("*")
            if path.name.startswith(".") and path.name != ".rules-kb-livre"
        ]
        if left:
            problems.append(f"temporary files left: {left}")
    return problems


def lone_exports(home: str) -> dict[str, bytes]:
    """What one process alone writes for the exports of :func:`export_round` (building the cache of ``home``)."""
    environment = {**os.environ, "RULES_KB_HOME": home, "PYTHONPATH": str(ROOT)}
    environment.pop("RULES_KB_CORPUS", None)
    with tempfile.TemporaryDirectory(prefix="rules-kb-exports-") as folder:
        for arguments in (
            ["export", "420.5c", "-o", f"{folder}/extrait.md"],
            ["export", "--all", "-o", f"{folder}/livre"],
        ):
            process = _start(arguments, environment)
            _, err = process.communicate(timeout=600)
            if process.returncode:
                raise SystemExit(f"a lone export failed: {err}")
        return {str(path.relative_to(folder)): path.read_bytes() for path in Path(folder).rglob("*") if path.is_file()}


def main(argv: list[str] | None = None) -> int:
    """Run the rounds; return 0 when every one went well, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=20)
    arguments = parser.parse_args(argv)
    failed = 0
    for number in range(1, arguments.rounds + 1):
        problems = one_round(arguments.processes)
        failed += bool(problems)
        print(f"first use, round {number:>2}: {'ok' if not problems else '; '.join(problems)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="rules-kb-concurrency-") as home:
        expected = lone_exports(home)
        for number in range(1, arguments.rounds + 1):
            problems = export_round(arguments.processes, home, expected)
            failed += bool(problems)
            print(f"exports, round {number:>2}: {'ok' if not problems else '; '.join(problems)}", flush=True)
    print(f"{2 * arguments.rounds} rounds of {arguments.processes} processes: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
