"""Every network test keeps the seat tokens its clients keep (``join`` keeps one per table in
the saves folder's ``lan-seats``) in a folder of its own, never the user's: the tests' own
clients and the commands they start read ``$MAHJONG_TUI_SAVES``."""

import pytest


@pytest.fixture(autouse=True)
def _own_saves_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path_factory.mktemp("saves")))
