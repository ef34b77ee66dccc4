"""The Textual table UI (issue 3).  ``run_app(args)`` in :mod:`mahjong_tui.ui.app` is the
entry point; the engine never imports this package."""
