"""Writing what rules-kb produces (pictures, exports, a rulebook folder)
without ever losing what was there.

A file is written whole or not at all: into a hidden file beside it, then
renamed over the name asked for. An existing file is replaced only when
the caller says ``force``; a folder is filled whole, and replaced only if it
holds a rulebook rules-kb wrote (its :data:`BOOK_MARKER` file, which lists
the files it wrote), never a folder of the user's own files nor a rulebook
the user added files to. A symbolic link is written through (the link
stays); a dangling link or a special file (device, pipe) is never replaced.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from stat import S_ISREG

from rules_kb.core.errors import OutputError, Remedy, RulesKbError, describe_os_error

#: The path that stands for standard input (a scenario, a question).
STDIN = "-"

#: The file that marks a folder as a rulebook written by rules-kb.
BOOK_MARKER = ".rules-kb-livre"


class NotRegularFile(ValueError):
    """A file read by :func:`read_regular` that is no regular file (a pipe, a
    device, a symbolic link, a folder) or larger than allowed."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    For a cache's own small files, which something else may have replaced:
    the file is opened without blocking (a named pipe would otherwise wait
    for a writer forever) and without following a symbolic link, and is
    read only when it is a regular file of ``limit`` bytes or fewer (a
    device such as ``/dev/zero`` never ends; a sparse file of gigabytes
    costs its size). Raises :class:`NotRegularFile` otherwise, and
    :class:`OSError` when it cannot be opened (missing, not allowed…).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise NotRegularFile(f"{path}: a symbolic link") from None
        raise
    try:
        status = os.fstat(descriptor)
        if not S_ISREG(status.st_mode):
            raise NotRegularFile(f"{path}: not a regular file")
        if status.st_size > limit:
            raise NotRegularFile(f"{path}: {status.st_size} bytes, {limit} at most")
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, "rb", buffering=0) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise NotRegularFile(f"{path}: more than {limit} bytes")
    return data


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _through_link(target: Path, error: type[RulesKbError] = OutputError) -> Path:
    """``target``, or the path its symbolic link leads to (written through,
    the link kept). Raises ``error`` for a link that leads nowhere (a
    dangling link is never replaced)."""
    if not target.is_symlink():
        return target
    if not target.exists():
        raise error(
            f"« {target} » est un lien symbolique vers « {os.readlink(target)} », qui n'existe pas : "
            "rien n'est remplacé. Supprimez le lien ou donnez un autre nom."
        )
    return Path(os.path.realpath(target))


def check_file_target(
    path: str | os.PathLike[str], force: bool = False, error: type[RulesKbError] = OutputError
) -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file may be written there.

    A symbolic link is followed (the file it leads to is the target).
    Raises ``error`` (French message) when it is a folder, or named as one
    (ending with a slash: ``Path`` would drop it and write a file ``livre``
    for ``livre/``), a dangling link, a special file (device, pipe), or an
    existing file and not ``force``.
    """
    written = os.fspath(path)
    if written.endswith(("/", os.sep)):
        raise error(f"« {written} » se termine par « / » : c'est un nom de dossier ; donnez un nom de fichier.")
    target = _through_link(Path(path), error)
    if target.is_dir():
        raise error(f"« {target} » est un dossier ; donnez un nom de fichier.")
    if target.exists() and not target.is_file():
        raise error(
            f"« {target} » n'est pas un fichier ordinaire (un périphérique, un tube…) : rien n'y est écrit. "
            "Donnez le nom d'un fichier, ou « - » pour la sortie standard."
        )
    if target.exists() and not force:
        raise error(f"Le fichier « {target} » existe déjà.").with_remedy(Remedy.REPLACE)
    return target


def write_file(
    path: str | os.PathLike[str], data: bytes, force: bool = False, error: type[RulesKbError] = OutputError
) -> Path:
    """Write ``data`` to ``path``, whole or not at all; returns the path.

    Never replaces an existing file unless ``force`` (checked again just
    before the rename, so a file created meanwhile is kept). Raises
    ``error`` (default :class:`rules_kb.core.errors.OutputError`) for an
    existing file, a folder, or a folder that cannot be written.
    """
    target = check_file_target(path, force, error)
    staging = None
    try:
        handle, staging = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent if str(target.parent) else ".")
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(staging, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
        if target.exists() and not force:
            raise error(f"Le fichier « {target} » existe déjà.").with_remedy(Remedy.REPLACE)
        os.replace(staging, target)
        staging = None
    except OSError as problem:
        raise error(f"Impossible d'écrire « {target} » : {describe_os_error(problem)}.") from None
    finally:
        if staging is not None and os.path.exists(staging):
            os.unlink(staging)
    return target


def check_folder_target(path: str | os.PathLike[str], force: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path` if a rulebook may be written there.

    A missing or empty folder is fine; an existing rulebook (one with
    :data:`BOOK_MARKER`) only with ``force``. Raises
    :class:`rules_kb.core.errors.OutputError` for a file, a rulebook without
    ``force`` and a folder holding anything else.
    """
    target = _through_link(Path(path))
    if target.exists() and not target.is_dir():
        raise OutputError(f"« {target} » est un fichier ; donnez le nom d'un dossier pour le livre.", str(target))
    if target.is_dir() and any(target.iterdir()):
        if not (target / BOOK_MARKER).is_file():
            raise OutputError(
                f"Le dossier « {target} » n'est pas vide et ne contient pas un livre écrit par rules-kb : "
                "rien n'y est remplacé. Choisissez un dossier nouveau ou vide.",
                str(target),
            )
        if not force:
            raise OutputError(f"Le dossier « {target} » contient déjà un livre.", str(target)).with_remedy(
                Remedy.REPLACE
            )
    return target


#: The marker's first line; the names of the files the rulebook wrote follow, one a line.
_MARKER_HEADING = "Livre de règles écrit par rules-kb."


def _keep_user_files(target: Path, files: Mapping[str, bytes]) -> None:
    """Raise :class:`OutputError` when the rulebook folder ``target`` holds
    files rules-kb did not write there (neither listed in its marker nor
    among the new ``files``): replacing it would lose them."""
    if not (target / BOOK_MARKER).is_file():
        return
    try:
        written = set((target / BOOK_MARKER).read_text(encoding="utf-8", errors="replace").splitlines()[1:])
        extra = sorted(entry.name for entry in target.iterdir() if entry.name not in {BOOK_MARKER, *written, *files})
    except OSError as problem:
        raise OutputError(
            f"Impossible de lire le dossier « {target} » : {describe_os_error(problem)}.", str(target)
        ) from None
    if extra:
        shown = ", ".join(f"« {name} »" for name in extra[:5]) + (" …" if len(extra) > 5 else "")
        raise OutputError(
            f"Le dossier « {target} » contient des fichiers que rules-kb n'y a pas écrits ({shown}) : "
            "rien n'est remplacé. Déplacez-les, ou choisissez un autre dossier.",
            str(target),
        )


def _remove_left_behind(target: Path) -> None:
    """Remove the old rulebooks an interrupted forced export left beside
    ``target`` (hidden ``.<name>.old.*`` folders holding only a rulebook)."""
    parent = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}.old."
    for old in (entry for entry in parent.iterdir() if entry.name.startswith(prefix)):
        try:
            entries = [entry.name for entry in old.iterdir()]
            if old.is_symlink() or entries not in ([], ["livre"]):
                continue
            if entries and not (old / "livre" / BOOK_MARKER).is_file():
                continue
        except OSError:
            continue
        shutil.rmtree(old, ignore_errors=True)


def write_folder(path: str | os.PathLike[str], files: Mapping[str, bytes], force: bool = False) -> Path:
    """Write ``files`` (name → content; names without folders) as the folder
    ``path``, whole or not at all, with :data:`BOOK_MARKER`; returns the path.

    The files are written into a hidden folder beside ``path``, which then
    takes its place: an old rulebook there (``force``) is removed only once
    the new one is in place; what an interrupted one left beside it is
    removed first. Raises :class:`rules_kb.core.errors.OutputError` (see
    :func:`check_folder_target`, for a rulebook the user added files to and
    for a folder that cannot be written).
    """
    target = check_folder_target(path, force)
    parent = target.parent if str(target.parent) else Path(".")
    _keep_user_files(target, files)
    staging = old = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        _remove_left_behind(target)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
        for name, data in files.items():
            (staging / name).write_bytes(data)
        listing = "".join(f"{name}\n" for name in sorted(files))
        (staging / BOOK_MARKER).write_text(f"{_MARKER_HEADING}\n{listing}", encoding="utf-8")
        os.chmod(staging, 0o777 & ~_umask())
        check_folder_target(target, force)
        _keep_user_files(target, files)
        if target.is_dir():
            if any(target.iterdir()):
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=parent))
                os.replace(target, old / "livre")
            else:
                target.rmdir()
        os.replace(staging, target)
        staging = None
    except OSError as problem:
        if old is not None and not target.exists():
            os.replace(old / "livre", target)  # put the old rulebook back
        raise OutputError(
            f"Impossible d'écrire le dossier « {target} » : {describe_os_error(problem)}.", str(target)
        ) from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return target
