"""Running the Typer app with French help and French command-line errors.

Typer (through its bundled Click) writes usage errors in English; here they
are caught and said again in French, with the command's usage and a hint,
exit code 2.
"""

from __future__ import annotations

import re
import sys

import typer

try:  # Typer ≥ 0.20 bundles its own Click
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older Typer depends on Click
    from click import exceptions as click_exceptions

HELP_TEXT = "Affiche cette aide et quitte."

#: French for the strings Typer passes through ``gettext`` (help sections, usage errors).
TRANSLATIONS = {
    "Arguments": "Arguments",
    "Options": "Options",
    "Commands": "Commandes",
    "required": "obligatoire",
    "env var: {var}": "variable d'environnement : {var}",
    "default: {default}": "défaut : {default}",
    "(dynamic)": "(dynamique)",
    "Missing command.": "Commande manquante.",
    "No such command {name!r}.": "Commande inconnue : {name!r}.",
    "Aborted!": "Interrompu.",
}

#: English fragments of parameter errors and their French (regex, replacement).
_DETAILS = (
    (r"Input should be a valid integer.*", "un nombre entier est attendu"),
    (r"Input should be greater than or equal to (\S+?)\.?$", r"la valeur doit être au moins \1"),
    (r"Input should be less than or equal to (\S+?)\.?$", r"la valeur doit être au plus \1"),
    (r"Input should be greater than (\S+?)\.?$", r"la valeur doit être supérieure à \1"),
    (r"Input should be less than (\S+?)\.?$", r"la valeur doit être inférieure à \1"),
    (r"'?(.*?)'? is not a valid (?:integer|int range)\.?", r"« \1 » n'est pas un nombre entier"),
    (r"(\S+) is not in the range (\S+?)\.?", r"« \1 » n'est pas dans l'intervalle \2"),
)


def _gettext_fr(message: str) -> str:
    return TRANSLATIONS.get(message, message)


def _french_formatter(base):
    class FrenchHelpFormatter(base):
        def write_usage(self, prog, args="", prefix=None):
            super().write_usage(prog, args, "Utilisation : " if prefix is None else prefix)

    return FrenchHelpFormatter


def install_french() -> None:
    """Make Typer's help and usage errors French (gettext strings, usage prefix)."""
    import typer.core

    typer.core._ = _gettext_fr


def _translate_help(command, context) -> None:
    """Translate the help option of ``command`` and of its subcommands."""
    option = command.get_help_option(context)
    if option is not None:
        option.help = HELP_TEXT
    for name, sub in getattr(command, "commands", {}).items():
        sub_context = type(context)(sub, info_name=name, parent=context, **sub.context_settings)
        _translate_help(sub, sub_context)


def _param_name(error) -> str:
    param = getattr(error, "param", None)
    if param is None:
        hint = getattr(error, "param_hint", None)
        if isinstance(hint, (list, tuple)):
            return " / ".join(hint)
        return hint or ""
    if getattr(param, "param_type_name", "") == "argument":
        return getattr(param, "metavar", None) or (param.name or "").upper()
    return " / ".join(getattr(param, "opts", ()) or (param.name or "",))


def french_message(error) -> str:
    """The French sentence for a command-line (usage) error."""
    if isinstance(error, click_exceptions.NoSuchOption):
        message = f"Option inconnue : {error.option_name}."
        if error.possibilities:
            message += f" Vouliez-vous dire : {', '.join(sorted(error.possibilities))} ?"
        return message
    if isinstance(error, click_exceptions.MissingParameter):
        return f"Il manque {_param_name(error) or 'un paramètre'}."
    if isinstance(error, click_exceptions.BadParameter):
        name = _param_name(error)
        detail = error.message.strip()
        for pattern, french in _DETAILS:
            match = re.fullmatch(pattern, detail)
            if match:
                detail = match.expand(french)
                break
        return f"Valeur invalide pour {name} : {detail}."
    if isinstance(error, click_exceptions.BadOptionUsage):
        return f"Option {error.option_name} mal employée : elle attend une valeur."
    message = error.message
    extra = re.fullmatch(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if extra:
        extra = extra.group(1)
        return (
            f"Argument en trop : {extra}. Mettez une phrase entre guillemets : "
            "rules-kb ask \"ma créature meurt ?\"."
        )
    if message.startswith("Commande inconnue"):
        return message.replace("Did you mean", "Vouliez-vous dire")
    return f"Ligne de commande invalide : {message}"


def run_app(app: typer.Typer, args: list[str] | None = None) -> int:
    """Run ``app`` on ``args`` (default ``sys.argv[1:]``); return the exit code.

    Usage errors are printed in French on standard error with the command's
    usage line and ``--help`` hint, exit code 2.
    """
    from typer.main import get_command

    install_french()
    command = get_command(app)
    command.context_class.formatter_class = _french_formatter(command.context_class.formatter_class)
    context = command.context_class(command, info_name="rules-kb", **command.context_settings)
    _translate_help(command, context)
    try:
        result = command.main(args=args, prog_name="rules-kb", standalone_mode=False)
    except click_exceptions.NoArgsIsHelpError as error:
        sys.stdout.write(error.ctx.get_help() + "\n")
        return 0
    except click_exceptions.UsageError as error:
        usage = error.ctx.get_usage() if error.ctx is not None else ""
        path = error.ctx.command_path if error.ctx is not None else "rules-kb"
        sys.stderr.write(
            f"{usage}\nErreur : {french_message(error)}\n"
            f"Essayez « {path} --help » pour l'aide.\n"
        )
        return 2
    except typer.Abort:
        sys.stderr.write("Interrompu.\n")
        return 130
    return result if isinstance(result, int) else 0
