"""``python -m medvqa.cli``: the command line."""

from medvqa.cli._app import main

main()
