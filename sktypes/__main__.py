"""``python -m sktypes``: the same as the ``sktypes`` console script."""

from sktypes.cli import main

main()
