"""Shell completion scripts for ``rules-kb``: bash, zsh and fish.

``rules-kb completion SHELL`` prints a static script made from the parser
(:func:`cli.usage.build`): the commands, the options of each, and what an
option's value or an argument completes to — files (``FICHIER``,
``SCÉNARIO``), folders (``DOSSIER``), or a closed list (kinds of record,
formats, relations of the graph, shells). No Python runs at completion
time. No installed package writes the three shells' scripts (shtab has no
fish, argcomplete runs the program at each Tab), hence this module.

zsh uses the bash script through zsh's ``bashcompinit``.
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

from cli.usage import PROGRAM, build

#: The shells :func:`script` writes for.
SHELLS = ("bash", "zsh", "fish")
#: What a metavar completes to, when it names a file or a folder.
_PATH_METAVARS = {"FICHIER": "file", "SCÉNARIO": "file", "DOSSIER": "directory"}


class Option(NamedTuple):
    """An option of a command: its ``names`` (``--limit``, ``-n``), its
    help's first sentence, and what its value completes to (:data:`Completes`
    shapes: ``None`` for a flag)."""

    names: tuple[str, ...]
    help: str
    value: str | tuple[str, ...] | None


class Spec(NamedTuple):
    """A command: its words (``"corpus list"``), one-line ``summary``, its
    options, what its arguments complete to (``"file"``, a tuple of values,
    or ``""``: nothing to offer), and its commands below (``corpus``)."""

    words: str
    summary: str
    options: tuple[Option, ...]
    argument: str | tuple[str, ...]
    below: tuple[str, ...]


def _values(command: str, dest: str) -> tuple[str, ...]:
    """The closed list of values of an option or argument, from the vocabulary it is read with."""
    if dest == "kind":
        from rules_kb.core.model import RecordKind

        return tuple(kind.label if " " not in kind.label else kind.aliases[0] for kind in RecordKind)
    if dest == "relation":
        from rules_kb.build.graph import Relation

        return tuple(relation.label for relation in Relation)
    if dest == "format":
        if command == "graph":
            from rules_kb.lookup.graph import FORMATS
        else:
            from rules_kb.export import FORMATS
        return tuple(FORMATS)
    return ()


def _completes(command: str, action: argparse.Action) -> str | tuple[str, ...] | None:
    if action.nargs == 0:
        return None
    if action.choices:
        return tuple(action.choices)
    return _values(command, action.dest) or _PATH_METAVARS.get(action.metavar or "", "")


def _first_sentence(text: str | None) -> str:
    text = " ".join((text or "").split())
    head = text.split(". ")[0].split(" ; ")[0].rstrip(".")
    return head if len(head) <= 70 else head[:69] + "…"


def specs() -> list[Spec]:
    """Every command of the line, the root (words ``""``) first."""
    root, parsers = build()
    found = []
    for words, parser in parsers.items():
        options, argument, below = [], "", ()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                below = tuple(action.choices)
            elif action.option_strings:
                options.append(Option(tuple(action.option_strings), _first_sentence(action.help), _completes(words, action)))
            elif not argument:
                argument = _completes(words, action) or ""
        found.append(Spec(words, _first_sentence(parser.description), tuple(options), argument, below))
    return found


def script(shell: str) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](specs())


# -- bash (and zsh) -----------------------------------------------------------------------------


def _words(values) -> str:
    """Values for ``compgen -W``, one a line, each in double quotes that ``compgen`` removes (a
    value may hold spaces: IFS is a newline for bash, and zsh's ``compgen`` splits as the shell does)."""
    quoted = ('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"' for value in values)
    return "$'" + "\\n".join(value.replace("\\", "\\\\").replace("'", "\\'") for value in quoted) + "'"


def _bash_value(value) -> str:
    if value == "file":
        return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))'
    if value == "directory":
        return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur"))'
    if isinstance(value, tuple):
        return f'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -W {_words(value)} -- "$cur"))'
    return "COMPREPLY=()"  # a free value: nothing to offer


def _bash(found: list[Spec]) -> str:
    function = "_" + PROGRAM.replace("-", "_")
    top = [spec for spec in found if spec.words and " " not in spec.words]
    lines = [
        f"# Complétion de {PROGRAM} pour bash. À charger dans ~/.bashrc :",
        f"#   source <({PROGRAM} completion bash)",
        f"# ou à enregistrer : {PROGRAM} completion bash > ~/.local/share/bash-completion/completions/{PROGRAM}",
        f"{function}() {{",
        '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
        "    local command= word i options IFS=$'\\n'",
        "    COMPREPLY=()",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        "        word=${COMP_WORDS[i]}",
        '        case "$command/$word" in',
    ]
    for spec in top:
        lines.append(f'            "/{spec.words}") command={spec.words} ;;')
        for sub in spec.below:
            lines.append(f'            "{spec.words}/{sub}") command="{spec.words} {sub}" ;;')
    lines += ["        esac", "    done", '    case "$command" in']
    for spec in found:
        lines.append(f'        "{spec.words}")')
        valued = [option for option in spec.options if option.value is not None]
        if valued:
            lines.append('            case "$prev" in')
            for option in valued:
                lines.append(f"                {'|'.join(option.names)}) {_bash_value(option.value)}; return ;;")
            lines.append("            esac")
        names = [name for option in spec.options for name in option.names if name.startswith("--")]
        lines.append(f"            options={_words(names)}")
        lines.append('            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$options" -- "$cur")); return; fi')
        if spec.below:
            lines.append(f'            COMPREPLY=($(compgen -W {_words(spec.below)} -- "$cur"))')
        elif spec.argument:
            lines.append(f"            {_bash_value(spec.argument)}")
        lines.append("            ;;")
    lines += ["    esac", "}", f"complete -F {function} {PROGRAM}", ""]
    return "\n".join(lines)


def _zsh(found: list[Spec]) -> str:
    return "\n".join(
        [
            f"# Complétion de {PROGRAM} pour zsh. À charger dans ~/.zshrc (après compinit) :",
            f"#   source <({PROGRAM} completion zsh)",
            "(( $+functions[compdef] )) || { autoload -Uz compinit && compinit }",
            "autoload -Uz bashcompinit && bashcompinit",
            "\n".join(line for line in _bash(found).split("\n") if not line.startswith("#")),
        ]
    )


# -- fish ----------------------------------------------------------------------------------------


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(found: list[Spec]) -> str:
    helper = "__" + PROGRAM.replace("-", "_") + "_command_is"
    top = [spec for spec in found if spec.words and " " not in spec.words]
    names = " ".join(spec.words for spec in top)
    lines = [
        f"# Complétion de {PROGRAM} pour fish. À enregistrer :",
        f"#   {PROGRAM} completion fish > ~/.config/fish/completions/{PROGRAM}.fish",
        f"function {helper} --description 'Si la commande de {PROGRAM} déjà tapée est celle-ci'",
        "    set -l found",
        "    for word in (commandline -opc)[2..-1]",
        "        if string match -q -- '-*' $word",
        "            continue",
        "        else if test -z \"$found\"",
        f"            contains -- $word {names}; and set found $word",
    ]
    for spec in top:
        if spec.below:
            lines += [
                f'        else if test "$found" = {spec.words}',
                f"            contains -- $word {' '.join(spec.below)}; and set found \"{spec.words} $word\"",
            ]
    lines += ["        end", "    end", '    test "$found" = "$argv[1]"', "end", f"complete -c {PROGRAM} -f"]
    for spec in found:
        condition = f"-n {_fish_quote(f'{helper} {_fish_quote(spec.words)}')}"
        for sub in spec.below if spec.below else ():
            summary = next((s.summary for s in found if s.words == f"{spec.words} {sub}".strip()), "")
            lines.append(f"complete -c {PROGRAM} {condition} -a {_fish_quote(sub)} -d {_fish_quote(summary)}")
        if isinstance(spec.argument, tuple):
            lines.append(f"complete -c {PROGRAM} {condition} -a {_fish_quote(' '.join(spec.argument))}")
        elif spec.argument in ("file", "directory"):
            lines.append(f"complete -c {PROGRAM} {condition} -F")
        for option in spec.options:
            flags = " ".join(
                f"-l {name[2:]}" if name.startswith("--") else f"-s {name[1:]}" for name in option.names
            )
            value = ""
            if option.value == "file":
                value = " -r -F"
            elif option.value == "directory":
                value = " -x -a '(__fish_complete_directories)'"
            elif isinstance(option.value, tuple):
                value = " -x -a " + _fish_quote(" ".join(_fish_quote(item) for item in option.value))
            elif option.value == "":
                value = " -x"
            lines.append(f"complete -c {PROGRAM} {condition} {flags}{value} -d {_fish_quote(option.help)}")
    return "\n".join(lines) + "\n"
