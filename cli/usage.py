"""Running the Typer app with French help and French command-line errors.

Typer (through its bundled Click) writes usage errors in English; here they
are caught and said again in French, with the command's usage and a hint,
exit code 2.
"""

from __future__ import annotations

import sys

import typer

try:  # Typer ≥ 0.20 bundles its own Click
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older Typer depends on Click
    from click import exceptions as click_exceptions

HELP_TEXT = "Affiche cette aide et quitte."


def _translate_help(command, context) -> None:
    """Translate the help option of ``command`` and of its subcommands."""
    option = command.get_help_option(context)
    if option is not None:
        option.help = HELP_TEXT
    for name, sub in getattr(command, "commands", {}).items():
        sub_context = type(context)(sub, info_name=name, parent=context)
        _translate_help(sub, sub_context)


def _param_name(error) -> str:
    param = getattr(error, "param", None)
    if param is None:
        hint = getattr(error, "param_hint", None)
        if isinstance(hint, (list, tuple)):
            return " / ".join(hint)
        return hint or ""
    if getattr(param, "param_type_name", "") == "argument":
        return param.human_readable_name
    return " / ".join(param.opts)


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
        detail = error.message
        for english, french in (
            ("is not a valid integer", "n'est pas un nombre entier"),
            ("is not in the range", "n'est pas dans l'intervalle"),
            ("is not a valid", "n'est pas valide"),
        ):
            detail = detail.replace(english, french)
        return f"Valeur invalide pour {name} : {detail}."
    if isinstance(error, click_exceptions.BadOptionUsage):
        return f"Option {error.option_name} mal employée : elle attend une valeur."
    message = error.message
    if message.startswith("No such command"):
        name = message.split("'")[1] if "'" in message else message
        return f"Commande inconnue : {name}."
    if message.startswith("Got unexpected extra argument"):
        extra = message.partition("(")[2].rstrip(")")
        return (
            f"Argument en trop : {extra}. Mettez une phrase entre guillemets : "
            "rules-kb ask \"ma créature meurt ?\"."
        )
    return f"Ligne de commande invalide : {message}"


def run_app(app: typer.Typer, args: list[str] | None = None) -> int:
    """Run ``app`` on ``args`` (default ``sys.argv[1:]``); return the exit code.

    Usage errors are printed in French on standard error with the command's
    usage line and ``--help`` hint, exit code 2.
    """
    from typer.main import get_command

    command = get_command(app)
    context = command.context_class(command, info_name="rules-kb")
    _translate_help(command, context)
    try:
        result = command.main(args=args, prog_name="rules-kb", standalone_mode=False)
    except click_exceptions.NoArgsIsHelpError as error:
        sys.stdout.write(error.ctx.get_help() + "\n")
        return 0
    except click_exceptions.UsageError as error:
        usage = error.ctx.get_usage() if error.ctx is not None else ""
        usage = usage.replace("Usage:", "Utilisation :", 1)
        path = error.ctx.command_path if error.ctx is not None else "rules-kb"
        sys.stderr.write(
            f"{usage}\nErreur : {french_message(error)}\n"
            f"Essayez « {path} --help » pour l'aide.\n"
        )
        return 2
    except click_exceptions.Abort:
        sys.stderr.write("Interrompu.\n")
        return 130
    return result if isinstance(result, int) else 0
