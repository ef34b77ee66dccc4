"""``python -m mahjong_tui.net serve|join ...``: the LAN commands without the main CLI."""

import sys

from .commands import main

sys.exit(main())
