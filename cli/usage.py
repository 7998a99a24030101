"""What the command line refuses before a command runs, beyond what Typer checks.

Typer (:mod:`cli.commands`) checks the shape of a command line (options,
integers and their bounds, missing arguments). This module checks what the
text a user gives holds: a text longer than
:data:`rules_kb.operations.MAX_TEXT` (refused for what it says, as the
library would: exit code 1), a text holding bytes that are not UTF-8 (the
terminal's encoding is wrong: a usage error, exit code 2), a path no system
takes (exit code 1). Names of files and folders may hold any bytes a system
name allows.
"""

from __future__ import annotations

import re

import click

from rules_kb.operations import Front, Kind, Operation, Parameter

PROGRAM = "rules-kb"
#: The path that stands for standard input (:data:`rules_kb.core.files.STDIN`).
STDIN = "-"
#: The characters by which Python's reading of the command line stands for
#: bytes that are not UTF-8 (PEP 383's ``surrogateescape``).
_UNDECODED = re.compile("[\udc80-\udcff]")
#: The longest name of one file or folder, and of a whole path, in bytes (Linux's NAME_MAX and PATH_MAX).
NAME_MAX, PATH_MAX = 255, 4095


class TextRefused(click.ClickException):
    """A text or a path refused for what it holds: exit code 1, the French message alone."""

    exit_code = 1


def version() -> str:
    """The installed version of rules-kb (its package's metadata)."""
    # deferred: importlib.metadata costs 13 ms (0.7× python -c pass), for --version alone
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(PROGRAM)
    except PackageNotFoundError:
        return "(version inconnue : rules-kb n'est pas installé)"


def _named(param: Parameter) -> tuple[str, str]:
    """How a message names a parameter's value: ``("L'argument QUESTION", "le")``
    or ``("La valeur de --note", "la")`` (the pronoun, for what to do)."""
    if param.flags:
        return f"La valeur de {max(param.flags, key=len)}", "la"
    return f"L'argument {param.metavar or param.name}", "le"


def _number(count: int) -> str:
    """``count`` with French digit groups (``102 400``)."""
    return f"{count:,}".replace(",", "\u202f")


def undecoded(text: str) -> str:
    """The French sentence saying that ``text`` (read from the command line)
    holds bytes that are not UTF-8, and how it reads in Latin-1; ``""`` when
    it is all UTF-8."""
    found = _UNDECODED.search(text)
    if found is None:
        return ""
    raw = text.encode("utf-8", "surrogateescape")
    before = text[: found.start()][-30:]
    where = f" après « {before} »" if before else " au début"
    sentence = (
        f"contient l'octet 0x{ord(found.group()) - 0xDC00:02X}{where}, qui n'est pas de l'UTF-8 : votre terminal "
        "n'est sans doute pas réglé en UTF-8 (réglez-le, par exemple avec LANG=fr_FR.UTF-8, puis retapez le texte)"
    )
    latin = raw.decode("cp1252", "replace")
    if "\ufffd" not in latin and latin.isprintable():
        sentence += f" ; lu en Latin-1, ce serait « {latin[:80]}{'…' if len(latin) > 80 else ''} »"
    return sentence + "."


def check_path(param: Parameter, path: str) -> None:
    """Raise :class:`TextRefused` for a path no system takes: a name over
    :data:`NAME_MAX` bytes or a path over :data:`PATH_MAX`."""
    name, pronoun = _named(param)
    size = len(path.encode("utf-8", "surrogateescape"))
    longest = max((len(part.encode("utf-8", "surrogateescape")) for part in path.split("/")), default=0)
    if size > PATH_MAX or longest > NAME_MAX:
        limit = f"un nom de fichier ou de dossier compte au plus {NAME_MAX} octets" if longest > NAME_MAX else (
            f"un chemin compte au plus {_number(PATH_MAX)} octets")  # fmt: skip
        raise TextRefused(f"{name} n'est pas un chemin possible : {limit} ; raccourcissez-{pronoun}.")


def check_text(param: Parameter, text: str) -> None:
    """Raise :class:`TextRefused` for a text longer than its declaration's
    ``longest`` (:data:`MAX_TEXT` for most), :class:`click.UsageError` for one
    holding bytes that are not UTF-8."""
    name, pronoun = _named(param)
    if len(text) > param.longest:
        raise TextRefused(
            f"{name} est trop long{'ue' if pronoun == 'la' else ''} : {_number(len(text))} caractères, "
            f"{_number(param.longest)} au plus ; raccourcissez-{pronoun}."
        )
    if problem := undecoded(text):
        raise click.UsageError(f"{name} {problem}")


def check_values(operation: Operation, values: dict) -> None:
    """Check every text and path of a command's ``values`` (parameter name → value)."""
    for param in operation.params_on(Front.CLI):
        value = values.get(param.name)
        if param.kind is Kind.PATH and isinstance(value, str):
            check_path(param, value)
        elif param.kind in (Kind.TEXT, Kind.TEXTS):
            for text in value if isinstance(value, list) else (value,):
                if isinstance(text, str):
                    check_text(param, text)
