"""``python -m medvqa``: the command line."""

from medvqa.cli import main

main()
