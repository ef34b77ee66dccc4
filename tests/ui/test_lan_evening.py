"""LAN evenings in the TUI (issue 22, items 3 and 4), with Pilot at a real server on 127.0.0.1:
the join keeps its seat token (0600, in the saves folder) and a second join finds it; table
talk typed with ``/`` reaches the other players and the move log; another seat's turn clock
counts down in the status line; the host's table screen says each seat's state and gives a
seat's rejoin command; the Host form sets the timers and takes the settings' bot pause."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import pytest

from mahjong_tui.config import Settings
from mahjong_tui.net.client import NetClient
from mahjong_tui.ui.netsession import open_host, open_join
from mahjong_tui.ui.screens.lan import ChatScreen, HostScreen, TableInfoScreen, host_namespace, join_namespace
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.widgets.areas import ActionBar
from tests.net.util import RawClient, new_table, served
from tests.ui.helpers import make_app, net_app, screen_text, table_info_text, table_screen, wait_for

BOTS = ("ai:baseline", "ai:baseline")


@pytest.fixture(autouse=True)
def _own_saves_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path_factory.mktemp("saves")))


def bar(app) -> str:
    return " ".join(table_screen(app).query_one(ActionBar).plain_lines())


def log_lines(session) -> list[str]:
    return [e.text for e in session.moves.entries]


async def test_the_tui_join_keeps_its_seat_token_and_joins_it_again(tmp_path):
    """The TUI's join (open_join, as ``mahjong-tui join HOST:PORT`` and the menu's form use it)
    keeps the seat token in lan-seats/ of the saves folder (0600); leaving and joining again
    with only the address sits in the same seat, says so, and the leave dialog offers the
    short command."""
    saves = Path(os.environ["MAHJONG_TUI_SAVES"])
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "remote") + BOTS, bot_delay=0,
                      seat_file=tmp_path / "t.seats") as (server, task):
        first = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        token = first.clients[0].token
        (record,) = (saves / "lan-seats").glob("*.json")
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
        assert json.loads(record.read_text())["token"] == token
        assert first.kept_command() == f"mahjong-tui join 127.0.0.1:{server.port}"
        await first.aclose()
        await wait_for_cond(lambda: server.remote[0].conn is None)
        again = await open_join(join_namespace(f"127.0.0.1:{server.port}"))
        try:
            assert again.clients[0].seat == 0 and again.clients[0].token == token
            assert again.last_text.startswith("Back in your seat")
            assert server.remote[0].name == "Ann"  # the rejoin kept the seat's name
            app = net_app(again)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: table_screen(app) is not None)
                text = await table_info_text(pilot, app)
                assert f"mahjong-tui join 127.0.0.1:{server.port}" in text and "keeps your seat token" in text
                assert "Timers: a turn 30 s, a claim 30 s" in text
                await pilot.press("escape")
            # --new-seat: a free seat, though a token is kept
            fresh = await open_join(join_namespace(f"127.0.0.1:{server.port}", new_seat=True))
            assert fresh.clients[1].seat == 1 and fresh.clients[1].kept == "new"
            await fresh.aclose()
        finally:
            await again.aclose()


async def wait_for_cond(cond, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end
        await asyncio.sleep(0.02)


async def test_chat_typed_at_the_table_reaches_the_others_and_the_move_log():
    """``/`` opens a line to type; Enter sends it: the other player hears it (seat and name),
    and both move logs have it.  What another player says comes up in the log and as a toast.
    Chat is only words: the table has not moved.  A text over 200 characters cannot be typed;
    blank is refused in the dialog."""
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "remote") + BOTS, bot_delay=0) as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: table_screen(app) is not None)
            bob = RawClient(server.port)
            assert (await asyncio.to_thread(bob.join, name="[bold]Bob[/]"))["seat"] == 1
            before = len(table.actions)
            await pilot.press("slash")
            await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen))
            await pilot.press("enter")  # nothing typed
            await wait_for(pilot, lambda: "Nothing to send" in screen_text(app))
            await pilot.press(*"nice kong")
            await pilot.press("enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, ChatScreen))
            heard = await asyncio.to_thread(bob.read_until, "chat")
            assert (heard["seat"], heard["name"], heard["text"]) == (0, "Ann", "nice kong")
            await wait_for(pilot, lambda: "You: nice kong" in log_lines(session))
            bob.send({"type": "chat", "text": "thanks [red]!"})
            await wait_for(pilot, lambda: "[bold]Bob[/]: thanks [red]!" in log_lines(session))
            # the log panel draws names and words as plain text, never markup
            await wait_for(pilot, lambda: "[bold]Bob[/]: thanks" in screen_text(app) and "[red]!" in screen_text(app))
            assert session.chat_lines[-1] == (1, "[bold]Bob[/]", "thanks [red]!")
            assert len(table.actions) == before or all(a.seat != 0 for a in table.actions[before:])
            bob.close()


async def test_another_seats_turn_clock_counts_down_in_the_status_line():
    """At a table with a turn timer, while the other remote player thinks, the status line says
    how long he has left, and the figure goes down."""
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "remote") + BOTS, bot_delay=0, turn_timeout=30.0,
                      claim_timeout=30.0) as (server, task):
        # seat 0 (East, first to play) is a slow player; the TUI sits at seat 1
        slow = NetClient("127.0.0.1", server.port, name="Slow", seat=0)
        await slow.connect()
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: table_screen(app) is not None and "s left" in bar(app), timeout=20)
                assert "Slow (East) to play · " in bar(app)
                first = session.turn_clock(0)
                assert first is not None and 0 < first <= 30
                await pilot.pause(1.1)
                second = session.turn_clock(0)
                assert second is not None and second < first
        finally:
            await slow.close()
            await session.aclose()


async def test_the_hosts_table_screen_says_each_seats_state_and_its_rejoin_command(tmp_path):
    """The host's ``i`` screen: seat 1 at this keyboard connected, seat 2 waiting, then
    connected; ``2`` shows seat 2's rejoin command (its token in the environment), which
    works; after the player leaves and play goes on, seat 2 is a bot stand-in; ``r`` issues a
    new token and the old one is refused."""
    ns = host_namespace("classic", ["human", "remote", "ai:baseline", "ai:baseline"], port=0, seed=3, hands=1,
                        bot_delay=0)
    ns.log = str(tmp_path / "host.jsonl")
    session = await open_host(ns)
    port = session.address[1]
    app = net_app(session, "host")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: table_screen(app) is not None)
            await pilot.press("i")
            await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
            rows = {r["seat"]: r["status"] for r in session.info()["rows"]}
            assert rows[0] == "connected" and rows[1] == "waiting"
            assert "waiting" in screen_text(app)
            bob = NetClient("127.0.0.1", port, name="Bob")
            await bob.connect()
            await pilot.press("2")
            await wait_for(pilot, lambda: "rejoins with" in screen_text(app))
            cmd = f"MAHJONG_TUI_TOKEN={bob.token} mahjong-tui join {session.address[0]}:{port}"
            assert cmd in screen_text(app).replace("\n", "")
            assert session.info()["rows"][1]["status"] == "connected"
            await bob.close()
            await wait_for(pilot, lambda: session.info()["rows"][1]["status"] in ("bot stand-in", "waiting"))
            await pilot.press("r")
            await wait_for(pilot, lambda: "the old one no longer works" in screen_text(app))
            assert session.host.server.tokens[1] != bob.token
            old = NetClient("127.0.0.1", port, token=bob.token, reconnect=0)
            with pytest.raises(Exception, match="not one of this table's"):
                await old.connect()
            new = NetClient("127.0.0.1", port, token=session.host.server.tokens[1], reconnect=0)
            assert (await new.connect())["seat"] == 1
            await new.close()
            await pilot.press("escape")
    finally:
        await session.aclose()


async def test_the_host_form_sets_the_timers_and_uses_the_settings_bot_pause():
    app = make_app(command=None)
    app.settings = Settings(bot_pause=1.5)
    app.cli_bot_delay = None  # as the menu started with no --bot-delay: the settings say
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.click("#host")
        await wait_for(pilot, lambda: isinstance(app.screen, HostScreen))
        form = app.screen
        ns = form.namespace()
        assert (ns.turn_timeout, ns.claim_timeout, ns.bot_delay) == (60.0, 20.0, 1.5)
        form.query_one("#turn-timeout").value = "90"
        form.query_one("#claim-timeout").value = "off"
        ns = form.namespace()
        assert (ns.turn_timeout, ns.claim_timeout) == (90.0, None)
        form.query_one("#turn-timeout").value = "soon"
        with pytest.raises(ValueError, match="number of seconds"):
            form.namespace()
        await pilot.click("#go")
        await wait_for(pilot, lambda: "Check the form: the turn timer" in screen_text(app))
        assert "Turn" in screen_text(app) and "Claim" in screen_text(app)
        # the menu's own bot pause field, when changed there, is the one the host's bots use
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        app.screen.query_one("#delay").value = "2.5"
        await pilot.click("#host")
        await wait_for(pilot, lambda: isinstance(app.screen, HostScreen))
        assert app.screen.namespace().bot_delay == 2.5


async def test_your_turn_at_a_lan_table_rings_and_flashes_when_the_settings_allow():
    """With the settings' bell on, the turn that comes to you at a LAN table rings the bell and
    flashes the screen (a tint that goes again); with it off, neither."""
    from mahjong_tui.ui.screens.table import TableScreen

    for bell in (True, False):
        table = new_table("classic", seed=3, hands=1)
        async with served(table, seats=("remote",) + BOTS + ("ai:baseline",), bot_delay=0) as (server, task):
            session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
            app = net_app(session)
            app.settings = Settings(bell=bell)
            rings, flashes = [], []
            app.bell = lambda: rings.append(1)
            real_flash = TableScreen.flash
            try:
                TableScreen.flash = lambda self: (flashes.append(1), real_flash(self))
                async with app.run_test(size=(80, 24)) as pilot:
                    await wait_for(pilot, lambda: session.request_now is not None and session.request_now.is_turn)
                    await pilot.pause(0.05)
                    t = table_screen(app)
                    assert len(flashes) >= 1  # asked every time; it shows only with the bell on
                    assert bool(rings) == bell
                    t.flash()
                    assert (t.styles.tint is not None and t.styles.tint.a > 0) == bell
                    await wait_for(pilot, lambda: t.styles.tint is None or t.styles.tint.a == 0)
            finally:
                TableScreen.flash = real_flash
                await session.aclose()
