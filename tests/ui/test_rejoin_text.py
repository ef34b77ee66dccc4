"""What a TUI ``join`` prints when it exits before the match ends (issue 22, item 3): the
short ``mahjong-tui join HOST:PORT`` first (this machine keeps the seat token), the token form
as the fallback; the same lines the ``i`` screen shows, from one builder.  Real server on
127.0.0.1."""

from __future__ import annotations

import pytest

from mahjong_tui.net.args import SECRET_ENV
from mahjong_tui.ui.app import exit_rejoin_text
from mahjong_tui.ui.netsession import open_join
from mahjong_tui.ui.screens.lan import join_namespace
from tests.net.util import new_table, served
from tests.ui.helpers import net_app, table_info_text, table_screen, wait_for

BOTS = ("ai:baseline", "ai:baseline", "ai:baseline")


@pytest.fixture(autouse=True)
def _own_saves_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path_factory.mktemp("saves")))


async def test_join_exit_message_gives_the_short_command_first_then_the_token_form(tmp_path):
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0, seat_file=tmp_path / "t.seats") as (server, _):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        try:
            token = session.clients[0].token
            short = f"mahjong-tui join 127.0.0.1:{server.port}"
            text = exit_rejoin_text(session, "join")
            lines = text.splitlines()
            assert lines[0] == "Rejoin your seat with:"
            assert lines[1] == f"  {short}"
            assert "keeps your seat token" in lines[2]
            assert lines[3] == f"  {SECRET_ENV['token']}={token} {short}"
            # the i screen shows the same lines in the same order
            app = net_app(session)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: table_screen(app) is not None)
                shown = await table_info_text(pilot, app)
                assert shown.index(short) < shown.index("keeps your seat token") < shown.index(f"={token}")
            # no kept token (given with $MAHJONG_TUI_TOKEN, say): the token form alone
            session.clients[0].slot = None
            assert exit_rejoin_text(session, "join") == f"Rejoin your seat with: {SECRET_ENV['token']}={token} {short}"
        finally:
            await session.aclose()
