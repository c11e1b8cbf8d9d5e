"""Entry point for `python -m tile_lsp`.

Delegates to the CLI so both spellings behave identically.
"""

import sys

from tile_lsp.cli import main

sys.exit(main())
