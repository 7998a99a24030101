"""The ``rules-kb`` command line (Typer and Rich): arguments in, rendering out."""
