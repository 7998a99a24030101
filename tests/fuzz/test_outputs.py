"""Issue 23: ``export --force`` never loses what the user had — files added
to a rulebook folder, symbolic links, special files — and cleans what an
interrupted forced export left behind."""

from __future__ import annotations

import os
import stat

import pytest

from rules_kb.core.errors import OutputError
from rules_kb.core.files import BOOK_MARKER, write_file, write_folder

BOOK = {"index.html": b"<p>livre</p>", "regles.html": b"<p>regles</p>"}


def test_a_file_the_user_added_to_a_rulebook_is_kept(tmp_path):
    folder = write_folder(tmp_path / "livre", BOOK)
    (folder / "mes-notes.txt").write_text("à moi", encoding="utf-8")
    with pytest.raises(OutputError, match="« mes-notes.txt »"):
        write_folder(folder, BOOK, force=True)
    assert (folder / "mes-notes.txt").read_text(encoding="utf-8") == "à moi"
    (folder / "mes-notes.txt").unlink()
    write_folder(folder, {"index.html": b"nouveau"}, force=True)  # a page the new book lacks is no user file
    assert (folder / "index.html").read_bytes() == b"nouveau" and not (folder / "regles.html").exists()


def test_a_link_to_a_rulebook_stays_a_link(tmp_path):
    real = write_folder(tmp_path / "vrai", BOOK)
    link = tmp_path / "lien"
    link.symlink_to(real)
    write_folder(link, {"index.html": b"nouveau"}, force=True)
    assert link.is_symlink() and (real / "index.html").read_bytes() == b"nouveau"


def test_a_dangling_link_is_never_replaced(tmp_path):
    for name, write in (("livre", lambda path: write_folder(path, BOOK, force=True)),
                        ("page.md", lambda path: write_file(path, b"x", force=True))):  # fmt: skip
        link = tmp_path / name
        link.symlink_to(tmp_path / "nulle-part" / name)
        with pytest.raises(OutputError, match="lien symbolique .* n'existe pas"):
            write(link)
        assert link.is_symlink() and not link.exists()


def test_a_link_to_a_file_is_written_through(tmp_path):
    real = tmp_path / "vrai.md"
    real.write_text("ancien", encoding="utf-8")
    link = tmp_path / "lien.md"
    link.symlink_to(real)
    write_file(link, b"nouveau", force=True)
    assert link.is_symlink() and real.read_bytes() == b"nouveau"


def test_a_special_file_is_not_replaced(tmp_path):
    fifo = tmp_path / "tube"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="n'est pas un fichier ordinaire"):
        write_file(fifo, b"x", force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_what_a_killed_forced_export_left_is_removed(tmp_path):
    folder = write_folder(tmp_path / "livre", BOOK)
    left = tmp_path / ".livre.old.abc123"
    (left / "livre").mkdir(parents=True)
    (left / "livre" / BOOK_MARKER).write_text("x", encoding="utf-8")
    mine = tmp_path / ".livre.old.mien"
    mine.mkdir()
    (mine / "perso.txt").write_text("à moi", encoding="utf-8")
    write_folder(folder, BOOK, force=True)
    assert not left.exists() and (mine / "perso.txt").is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == [".livre.old.mien", "livre"]
