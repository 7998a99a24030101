"""Issue 38, point 2: no cache file can hang or exhaust the process. A named pipe, a link to
/dev/zero or a sparse file of gigabytes in place of a cache file is a damaged cache: refused
without being read, rebuilt, and the answer is right. Each case runs ``rules-kb show`` in a
child process with a time-out, so a hang fails the test instead of stopping the suite."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.faults import SPECIAL_FAULTS, damage
from rules_kb.core.files import NotRegularFile, read_regular

#: Far beyond what a rebuild takes (about 3 s): only a hang reaches it.
HANG = 120


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A cache built once (by a child process, as a user's first command), with its Whoosh index."""
    home = tmp_path_factory.mktemp("built") / "home"
    _run(home, "search", '"blessures fatales"')
    return home


def _run(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RULES_KB_HOME": str(home)}
    return subprocess.run([sys.executable, "-c", "from cli.app import main; main()", *args], env=env,
                          capture_output=True, text=True,
                          timeout=HANG, check=False)  # fmt: skip


def _cache(home: Path) -> Path:
    return next(path for path in home.iterdir() if len(path.name) == 64)


def _targets(home: Path) -> dict[str, Path]:
    cache = _cache(home)
    return {
        "stamp": next((home / "stamps").iterdir()),
        "database": cache / "rules-kb.sqlite",
        "seal": cache / "rules-kb.sqlite.sha256",
        "index toc": next((cache / "index").glob("*.toc")),
    }


@pytest.mark.parametrize("how", SPECIAL_FAULTS)
@pytest.mark.parametrize("which", ["stamp", "database", "seal", "index toc"])
def test_a_special_file_in_the_cache_is_a_damaged_cache(built, tmp_path, which, how):
    home = tmp_path / "home"
    shutil.copytree(built, home, symlinks=True)
    damage(_targets(home)[which], how, None)
    args = ("search", '"blessures fatales"') if which == "index toc" else ("show", "420.5c")
    done = _run(home, *args)
    assert done.returncode == 0, done.stderr
    assert ("420.5c" in done.stdout) and "Traceback" not in done.stderr
    if which != "stamp":  # a stamp only saves hashing the corpus: refused, it is recomputed without a word
        assert "endommagé" in done.stderr


def test_read_regular_refuses_what_is_no_small_regular_file(tmp_path):
    plain = tmp_path / "plain"
    plain.write_bytes(b"12345")
    assert read_regular(plain, 5) == b"12345"
    with pytest.raises(NotRegularFile):
        read_regular(plain, 4)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(NotRegularFile):
        read_regular(pipe, 100)  # returns at once: opened without waiting for a writer
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFile):
        read_regular(link, 100)
    with pytest.raises(NotRegularFile):
        read_regular(tmp_path, 100)
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing", 100)
