"""Fault injection: damage each cache file, then check the next command.

    python bench/faults.py                 # 1,000 trials per cache file (about 15 minutes)
    python bench/faults.py --trials 20     # a short run
    python bench/faults.py --real-builds   # every rebuild parses and builds again (about 2 s each)
    python bench/faults.py --files database,seal   # some of the cache files only
    python bench/faults.py --special --real-builds # a pipe, /dev/zero, a sparse 8 GiB file for each cache file

A cache is built once for a copy of the bundled corpus; each trial copies
it to a fresh ``RULES_KB_HOME``, damages one cache file one way, then
opens the knowledge base and answers ``show 420.5c`` and the phrase search
``"blessures fatales"`` (which opens the Whoosh index) in this process.
The cache files: the database, its seal, the corpus's stamp, the Whoosh
index's table of contents and its segment. The ways (:data:`FAULTS`):
truncate, flip a bit, cut a slice out, overwrite with garbage, empty, a
folder in its place, chmod 000, a read-only home, the corpus changed
after the build.

Each trial is counted as ``same`` (the answer is exactly the one before),
``rebuilt`` (the answer is right and the cache was built again or a
French line said it was damaged), ``silent wrong`` (another answer with no
rebuild) or ``escaped`` (an exception reached the caller). ``silent
wrong`` and ``escaped`` must be 0: exit code 1 otherwise. Root reads and
writes whatever the modes say: run as root, the chmod 000 and read-only
home trials answer in a forked child that dropped the two capabilities
that let root ignore them (:func:`as_file_owner`).
The code is left out of the fingerprint during the run (a checkout being
edited meanwhile would otherwise make every trial a rebuild).

Most trials rebuild, and a build takes about 2 s: 5,000 of them would take
hours. A build is a function of its fingerprint (the corpus and the code:
that is what the cache itself relies on), so by default each fingerprint's
parse, build steps and Whoosh index are made for real once, then replayed
by copying what they wrote (:class:`Replay`). What the trial tests is
untouched: the loader's checks, the build's publishing, the fall-backs.
``--real-builds`` turns the replay off.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import marshal
import os
import random
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: Ways of damaging one file (``corpus changed`` damages the corpus instead).
FAULTS = ("truncate", "flip", "slice", "garbage", "zero length", "directory", "chmod 000", "read-only home",
          "corpus changed")  # fmt: skip
#: Special files in place of a cache file (issue 38, point 2): a named pipe (opening it waits for a writer),
#: a link to /dev/zero (it never ends) and a sparse file of 8 GiB (``--special``: each once per cache file).
SPECIAL_FAULTS = ("fifo", "/dev/zero link", "sparse 8 GiB")
#: A trial taking longer than this, in seconds, is counted ``escaped`` (a hang), not waited for.
HANG_AFTER = 30
#: The rule text the ``corpus changed`` fault writes.
CHANGED = ("Une créature avec des blessures fatales", "Une créature blessée à mort")


class Replay:
    """Builds made once per fingerprint, then replayed: installs, in this
    process, stand-ins for :func:`indexer.parse_corpus`, the build steps of
    :mod:`rules_kb.indexing.cache` and :func:`rules_kb.engines.index.write_whoosh`
    that do the real work the first time and keep its result (in memory or
    under ``folder``), then give that result again; ``patch(module, name,
    value)`` installs them (a test passes ``monkeypatch.setattr``)."""

    def __init__(self, folder: Path, patch=setattr) -> None:
        import indexer
        from rules_kb.engines import index
        from rules_kb.indexing import cache

        self.folder = folder
        parsed: dict[str, object] = {}
        real_parse, real_steps, real_whoosh = indexer.parse_corpus, cache.STEPS, index.write_whoosh

        def parse_corpus(folder, documents, fingerprint="", progress=None):
            if fingerprint not in parsed:
                parsed[fingerprint] = real_parse(folder, documents, fingerprint)
            return parsed[fingerprint]

        def build_steps(build) -> None:
            kept = self.folder / "cache" / build.corpus.fingerprint
            if kept.exists():
                shutil.copytree(kept, build.folder, dirs_exist_ok=True)
                return
            for step in real_steps:
                step(build)
            shutil.copytree(build.folder, kept)

        def write_whoosh(documents, index_dir, progress=None) -> None:
            documents = list(documents)
            kept = self.folder / "index" / hashlib.sha256(marshal.dumps(documents)).hexdigest()
            if kept.exists():
                shutil.copytree(kept, index_dir)
                return
            real_whoosh(documents, index_dir)
            shutil.copytree(index_dir, kept)

        patch(indexer, "parse_corpus", parse_corpus)
        patch(cache, "STEPS", (build_steps,))
        patch(index, "write_whoosh", write_whoosh)


def cache_files(home: Path) -> dict[str, Path]:
    """The cache files of the one cache folder of ``home``, by name."""
    cache = next(path for path in home.iterdir() if len(path.name) == 64)
    index = cache / "index"
    return {
        "database": cache / "rules-kb.sqlite",
        "seal": cache / "rules-kb.sqlite.sha256",
        "stamp": next((home / "stamps").iterdir()),
        "index toc": next(index.glob("*.toc")),
        "index segment": next(index.glob("*.seg")),
    }


def answer() -> tuple:
    """What the next command answers: (the rule's text, the phrase search's hits), and whether it said it rebuilt."""
    from rules_kb import loader
    from rules_kb.lookup.rules import show
    from rules_kb.search import search

    kb = loader.open(os.environ["RULES_KB_CORPUS"])
    try:
        return (show(kb, "420.5c").rule.text, tuple(hit.id for hit in search(kb, '"blessures fatales"').hits))
    finally:
        kb.close()


def damage(path: Path, fault: str, chance: random.Random) -> None:
    """Damage the file ``path`` one ``fault`` way (file faults only)."""
    data = path.read_bytes() if fault not in SPECIAL_FAULTS else b""
    if fault == "truncate":
        path.write_bytes(data[: chance.randrange(len(data))] if data else b"")
    elif fault == "flip":
        if data:
            position = chance.randrange(len(data))
            flipped = bytes([data[position] ^ (1 << chance.randrange(8))])
            path.write_bytes(data[:position] + flipped + data[position + 1 :])
    elif fault == "slice":
        start = chance.randrange(len(data) + 1)
        path.write_bytes(data[:start] + data[start + chance.randrange(1, 4097) :])
    elif fault == "garbage":
        start = chance.randrange(len(data) + 1)
        junk = chance.randbytes(chance.randrange(1, 4097))
        path.write_bytes(data[:start] + junk + data[start + len(junk) :])
    elif fault == "zero length":
        path.write_bytes(b"")
    elif fault == "directory":
        path.unlink()
        path.mkdir()
    elif fault == "chmod 000":
        path.chmod(0)
    elif fault == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif fault == "/dev/zero link":
        path.unlink()
        path.symlink_to("/dev/zero")
    elif fault == "sparse 8 GiB":
        with path.open("r+b") as handle:
            handle.truncate(8 << 30)


#: The faults root does not meet (it reads and writes whatever the modes say).
PERMISSION_FAULTS = ("chmod 000", "read-only home")
#: capget/capset's header version, and the capabilities that let root ignore file modes (linux/capability.h).
_CAPABILITY_VERSION_3 = 0x20080522
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2


class Escaped(Exception):
    """An exception reached the caller of the knowledge base (its type and message)."""


def drop_file_capabilities() -> None:
    """Drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from this process
    (effective and permitted sets; Linux): root then meets the file modes as
    any owner, and files it does not own are another user's. Raises
    OSError when the system refuses."""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header, data = Header(_CAPABILITY_VERSION_3, 0), (Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    mask = ~((1 << _CAP_DAC_OVERRIDE) | (1 << _CAP_DAC_READ_SEARCH)) & 0xFFFFFFFF
    data[0].effective &= mask
    data[0].permitted &= mask
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _call(function):
    """``function()``, its exceptions as :class:`Escaped`."""
    try:
        return function()
    except Exception as error:  # noqa: BLE001 - what this bench counts
        raise Escaped(f"{type(error).__name__}: {error}") from None


def as_file_owner(function):
    """``function()`` (its result marshal-able) computed by a process the file
    modes apply to: this one when it is not root, else a forked child that
    dropped its file capabilities (:func:`drop_file_capabilities`). Its
    exceptions come back as :class:`Escaped`."""
    import marshal

    if os.geteuid() != 0:
        return _call(function)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child reports through the pipe and never returns
        try:
            os.close(reader)
            drop_file_capabilities()
            result = ("ok", _call(function))
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            result = ("escaped", str(error) if isinstance(error, Escaped) else f"{type(error).__name__}: {error}")
        with contextlib.suppress(BaseException):
            os.write(writer, marshal.dumps(result))
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    outcome, result = marshal.loads(data) if data else ("escaped", "the child process died")
    if outcome != "ok":
        raise Escaped(result)
    return result


def _answer_and_stderr() -> tuple[tuple, str]:
    """:func:`answer`, and what was written on stderr meanwhile."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        got = answer()
    return got, said.getvalue()


#: The seconds each trial took, by fault.
TIMES: dict[str, list[float]] = defaultdict(list)


@contextlib.contextmanager
def hang_guard():
    """Raise :class:`Escaped` in the block after :data:`HANG_AFTER` seconds (SIGALRM): a hang is a failure."""

    def ring(signum, frame):
        raise Escaped(f"no answer after {HANG_AFTER} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(HANG_AFTER)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def sealed_database(home: Path) -> tuple[str, int]:
    """The database of the cache under ``home``: its sealed SHA-256 and its inode (a rebuild writes a
    new file; a copied cache's seal is written again with the copy's times, the same digest)."""
    files = cache_files(home)
    return files["seal"].read_bytes().split()[-1].decode(), files["database"].stat().st_ino


def trial(pristine: Path, corpus: Path, name: str, fault: str, expected: tuple, chance: random.Random) -> str:
    """One trial; returns ``same``, ``rebuilt``, ``silent wrong`` or ``escaped``."""
    with tempfile.TemporaryDirectory(prefix="rules-kb-faults-") as work:
        home = Path(work) / "home"
        shutil.copytree(pristine, home, symlinks=True)
        os.environ["RULES_KB_HOME"] = str(home)
        target = cache_files(home)[name]
        seal = sealed_database(home)
        wanted = expected
        text_file = corpus / "regles-completes-2004.txt"
        original_text = text_file.read_bytes()
        if fault == "corpus changed":
            text_file.write_bytes(original_text.replace(CHANGED[0].encode(), CHANGED[1].encode(), 1))
            wanted = (expected[0].replace(*CHANGED, 1), None)
        elif fault == "read-only home":
            damage(target, "flip", chance)
            for path in (home, *home.rglob("*")):
                if path.is_dir():
                    path.chmod(stat.S_IRUSR | stat.S_IXUSR)
        else:
            damage(target, fault, chance)
        started = time.perf_counter()
        try:  # permissions mean nothing to root: those faults are met by a process without its file capabilities
            with hang_guard():
                got, said = (as_file_owner if fault in PERMISSION_FAULTS else _call)(_answer_and_stderr)
        except Escaped as error:
            print(f"escaped: {name}, {fault}: {error}", file=sys.stderr)
            return "escaped"
        finally:
            text_file.write_bytes(original_text)
            for path in (home, *home.rglob("*")):
                with contextlib.suppress(OSError):
                    path.chmod(0o700 if path.is_dir() else 0o600)
        TIMES[fault].append(time.perf_counter() - started)
        rebuilt = "endommagé" in said or "Index construit" in said
        try:
            rebuilt = rebuilt or sealed_database(home) != seal
        except (OSError, StopIteration, IndexError, UnicodeDecodeError):
            rebuilt = True
        right = got[0] == wanted[0] and (wanted[1] is None or got[1] == wanted[1])
        if right and got == expected and not rebuilt:
            return "same"
        if right and (rebuilt or fault == "corpus changed"):
            return "rebuilt"
        return "silent wrong"


def main(argv: list[str] | None = None) -> int:
    """Run the trials and print the table; return 1 when a trial went silently wrong or escaped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000, help="trials per cache file (spread over the faults)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--real-builds", action="store_true", help="parse and build for real at every rebuild (slow)")
    parser.add_argument("--files", help="the cache files to damage, separated by commas (default: all five)")
    parser.add_argument("--special", action="store_true",
                        help="only the special files (a pipe, /dev/zero, a sparse file), once per cache file")  # fmt: skip
    arguments = parser.parse_args(argv)
    from rules_kb import loader
    from rules_kb.core.corpus import bundled_corpus

    loader.code_files = list  # the corpus alone is fingerprinted: code edited meanwhile changes no trial
    chance = random.Random(arguments.seed)
    with tempfile.TemporaryDirectory(prefix="rules-kb-faults-") as work:
        corpus = Path(work) / "corpus"
        shutil.copytree(bundled_corpus(), corpus)
        os.environ["RULES_KB_CORPUS"] = str(corpus)
        pristine = Path(work) / "pristine"
        if not arguments.real_builds:
            Replay(Path(work) / "replay")
        os.environ["RULES_KB_HOME"] = str(pristine)
        with contextlib.redirect_stderr(io.StringIO()):
            expected = answer()
        names = list(cache_files(pristine))
        if arguments.files:
            names = [name.strip() for name in arguments.files.split(",")]
            unknown = set(names) - set(cache_files(pristine))
            if unknown:
                parser.error(f"unknown cache files {sorted(unknown)}; known: {', '.join(cache_files(pristine))}")
        columns = ("same", "rebuilt", "silent wrong", "escaped")
        print(f"{'cache file':<15}{'trials':>8}" + "".join(f"{column:>14}" for column in columns), flush=True)
        bad = 0
        for name in names:  # a row as each file is done: a long run shows its progress
            counts = Counter()
            faults = SPECIAL_FAULTS if arguments.special else [FAULTS[n % len(FAULTS)] for n in range(arguments.trials)]
            for fault in faults:
                counts[trial(pristine, corpus, name, fault, expected, chance)] += 1
            print(
                f"{name:<15}{sum(counts.values()):>8}" + "".join(f"{counts[column]:>14}" for column in columns),
                flush=True,
            )
            bad += counts["silent wrong"] + counts["escaped"]
        if arguments.special:
            print("\nslowest trial by special file: " + ", ".join(f"{f} {max(TIMES[f]):.1f} s" for f in SPECIAL_FAULTS))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
