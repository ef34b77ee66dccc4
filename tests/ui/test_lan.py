"""LAN play in the TUI (issue 6): a Textual client driven by Pilot at a real server over TCP on
127.0.0.1.

- ``join``: a TUI client at an in-process server with three server-side bots plays a whole
  hand through the keys: discards, a claim prompt, a pass, the win, the scoring screen, the
  end of the match.
- ``host``: this process serves the table and its human seat is played by Pilot; a
  ``mahjong-tui join --bot`` process takes the remote seat.
- Connection problems: the server goes away (lost, reconnecting, then the disconnected
  message with the rejoin command); a dropped link comes back by itself.
- Stand-ins: a remote player's client drops and the table marks that seat ``[bot stand-in]``;
  names from the network are shown as text, never as markup.

What the screens show is checked against the server's own table (its ponds, its hand
summaries), not against a remembered game, so the tests do not depend on how the bots play.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys

import pytest

from mahjong_tui import cli
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.ui.netsession import open_host, open_join
from mahjong_tui.ui.screens.dialogs import MessageScreen
from mahjong_tui.ui.screens.lan import HostScreen, JoinScreen, NetQuitScreen, host_namespace, \
    join_namespace
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.model import fmt_num, pattern_words
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen, headline
from mahjong_tui.ui.widgets.areas import ActionBar, HeaderBar, Pond
from tests.net.util import ROOT, env, new_table, served
from tests.ui.helpers import bot_policy, make_app, my_request, net_app, next_decision, pass_with_x, play, \
    press_action, screen_text, table_info_text, table_screen, wait_for

BOTS = ("ai:baseline", "ai:baseline", "ai:baseline")


@pytest.fixture(autouse=True)
def _own_saves_folder(tmp_path_factory, monkeypatch):
    """``join`` keeps its seat tokens in the saves folder: each test its own, never the user's."""
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path_factory.mktemp("saves")))


def bar(app) -> str:
    return " ".join(app.screen.query_one(ActionBar).plain_lines())


def header(app) -> str:
    return " ".join(table_screen(app).query_one(HeaderBar).plain_lines())


async def test_tui_client_plays_a_whole_hand_over_the_network():
    table = new_table("classic", seed=32, hands=1)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0) as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        assert session.clients[0].seat == 0 and session.variant.id == "classic"
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            t = table_screen(app)
            decide = bot_policy(session.variant, 0)
            seen = {"turns": 0, "prompts": 0, "passes": 0, "win": False}
            # the server's clock is shown with the request
            assert "s left" in bar(app)
            while (req := await next_decision(pilot, app)) is not None:
                action = decide(req)
                if req.is_turn and seen["turns"] == 0:
                    # a hint at a LAN table reads the client's own view: the one the server
                    # would hand seat 0, and the same choice follows from it
                    from mahjong_tui.ai import make_bot

                    want = make_bot("ai:strong", session.variant, 0, 0).choose(req.view, list(req.legal))
                    assert want == make_bot("ai:strong", session.variant, 0, 0).choose(table.view(0), table.legal_actions(0))
                    await pilot.press("s")
                    await pilot.pause()
                    assert "Hint:" in bar(app)
                    if want.kind == "discard":
                        assert t._order[t.selected] == want.tile
                if req.is_turn:
                    seen["turns"] += 1
                    pond = app.screen.query_one("#pond-bottom", Pond)
                    done = len(table.actions)
                    await press_action(pilot, app, action)
                    # the discard goes to the server, which applies it ...
                    await wait_for(pilot, lambda: action in table.actions[done:])
                    # ... and the updates bring our pond on screen in line with the server's (a
                    # discard someone claimed has left the pond for his meld)
                    await wait_for(pilot, lambda: table.phase == "match_over" or (
                        pond.box is not None
                        and [t for t, _ in pond.box.tiles] == [t for t, claimed in table.ponds[0] if not claimed]))
                    continue
                seen["prompts"] += 1
                offered = {c.action for c in t.choice_map.values()}
                assert offered == {a for a in req.legal if a.kind != "discard"}
                assert "pass" in bar(app) and "discarded" in bar(app)
                if seen["passes"] == 0 and action.kind != "win":
                    seen["passes"] += 1
                    await pass_with_x(pilot, app, req)
                    continue
                await press_action(pilot, app, action)
                await wait_for(pilot, lambda: my_request(app) is not req)
            assert seen["turns"] >= 3 and seen["prompts"] >= 1 and seen["passes"] == 1
            # the scoring screen, from the hand_end the server sent: the same result as the
            # server's, every hand revealed, each winner's breakdown
            summary = table.history[-1]
            assert app.screen.summary["deltas"] == summary["deltas"]
            text = screen_text(app)
            assert headline(summary, [session.name(i) for i in range(4)]) in text
            for w in summary["winners"]:
                assert "Total" in text and pattern_words(w["patterns"][0]) in text
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            text = screen_text(app)
            assert "Match over" in text and "Score over the hands" in text
            assert fmt_num(max(table.scores)) in text
            assert "save" not in text.lower()  # a client has no game log to save
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)
        await asyncio.wait_for(task, 10)
    assert app.return_code == 0 and table.phase == "match_over"
    assert session.finished and session.history() == [table.history[-1]]


async def test_host_plays_its_seat_and_a_join_bot_process_takes_the_remote_seat(tmp_path):
    ns = host_namespace("classic", ["human", "remote", "ai:baseline", "ai:baseline"], port=0, seed=32, hands=1,
                        bot_delay=0)
    ns.log = str(tmp_path / "host.jsonl")
    session = await open_host(ns)
    port = session.address[1]
    app = net_app(session, "host")
    bot = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            # nobody has joined: the table waits, shows the address to join and the open seat
            await wait_for(pilot, lambda: "Waiting for players" in bar(app))
            assert f"mahjong-tui join 127.0.0.1:{port}" in bar(app)
            assert "[open]" in screen_text(app)
            bot = subprocess.Popen([sys.executable, "-m", "mahjong_tui", "join", f"127.0.0.1:{port}", "--bot",
                                    "baseline", "--name", "Robo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env(), cwd=str(ROOT))
            await wait_for(pilot, lambda: my_request(app) is not None, timeout=60)
            text = screen_text(app)
            assert "Robo" in text and "[open]" not in text and "Waiting for players" not in text
            # the table's seats and how others join
            text = await table_info_text(pilot, app)
            assert "Hosting the LAN table" in text and "Robo" in text and "player" in text and "AI baseline" in text
            assert f"mahjong-tui join 127.0.0.1:{port}" in text and "host.jsonl" in text
            await pilot.press("escape")
            await play(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            assert "Robo" in screen_text(app)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            assert "s: save" in screen_text(app)  # the host has the whole game
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)
        out, err = bot.communicate(timeout=30)
        assert bot.returncode == 0, err
        assert out.startswith("hand 1:") and "seat token" in err
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
        await session.aclose()
    assert session.finished and session.host.server.table.phase == "match_over"


async def test_connection_lost_is_shown_when_the_server_goes_away():
    table = new_table("classic", seed=32, hands=1)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0) as (server, task):
        ns = join_namespace(f"127.0.0.1:{server.port}", name="Ann")
        ns.retry = 1.5
        session = await open_join(ns)
        token = session.clients[0].token
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            await server.close(goodbye=False)  # the host is gone (a crash: no goodbye)
            await wait_for(pilot, lambda: "connection lost" in header(app), timeout=10)
            assert "reconnecting" in bar(app) and my_request(app) is None
            assert "[offline]" in screen_text(app)
            # the client gives up after --retry: say why and how to get back
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), timeout=10)
            text = screen_text(app)
            assert "Disconnected from the table" in text and "could not rejoin" in text
            assert f"MAHJONG_TUI_TOKEN={token}" in text.replace("\n", "")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)


async def test_a_dropped_link_reconnects_by_itself_and_play_goes_on():
    table = new_table("classic", seed=32, hands=1)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0) as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}"))
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            first = my_request(app)
            session.clients[0]._writer.transport.abort()  # the link drops (not a goodbye)
            await wait_for(pilot, lambda: my_request(app) is not None and my_request(app) is not first, timeout=10)
            # resynced: the server's request again (or the next one, if the stand-in played
            # that decision during the blip), nothing wrong shown any more
            assert my_request(app).seq >= first.seq
            assert session.clients[0].status == "connected" and "connection lost" not in header(app)
            await play(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))


async def test_stand_in_is_shown_when_a_client_drops_and_names_are_not_markup():
    table = new_table("classic", seed=32, hands=1)
    async with served(table, seats=("remote", "remote", "ai:baseline", "ai:baseline"), bot_delay=0,
                      standin_delay=0) as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Waiting for players: 0 of 1" in bar(app))
            other = NetClient("127.0.0.1", server.port, name="[red]Eve[/]", reconnect=0)
            await other.connect()
            gate = asyncio.Event()

            async def hold(req):  # Eve answers nothing until told
                await gate.wait()

            eve = asyncio.ensure_future(play_bot(other, "baseline", gate=hold))
            await wait_for(pilot, lambda: my_request(app) is not None)
            assert "[red]Eve[/]" in screen_text(app)  # the name as typed, not as markup
            assert "[open]" not in screen_text(app)
            assert "bot stand-in" not in screen_text(app)
            other.abort()  # Eve's client dies
            # at 80 columns the side panel shortens the status word rather than lose it
            await wait_for(pilot, lambda: "[bot]" in screen_text(app), timeout=10)
            assert "left: a bot plays seat 2" in bar(app) or "Your turn" in bar(app)
            text = await table_info_text(pilot, app)
            assert "[red]Eve[/]" in text and "bot stand-in" in text
            assert f"MAHJONG_TUI_TOKEN={session.clients[0].token}" in text and "Your seat token" in text
            await pilot.press("escape")
            # leaving asks first and gives the command to come back
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, NetQuitScreen))
            text = screen_text(app)  # the command may wrap at 80 columns
            token = session.clients[0].token
            assert f"MAHJONG_TUI_TOKEN={token} mahjong-tui join" in text and f"127.0.0.1:{server.port}" in text
            await pilot.click("#leave")
            await wait_for(pilot, lambda: app.return_code is not None)
            eve.cancel()
        # we left: a stand-in plays our seat now
        await asyncio.sleep(0.1)
        assert server.seats_status()[0]["standin"]


async def test_menu_hosts_and_joins(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))  # the host's default journal goes here
    table = new_table("classic", seed=32, hands=1)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0) as (server, task):
        app = make_app(command=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            assert not app.screen.query_one("#host").disabled and not app.screen.query_one("#join").disabled
            # join: a wrong address is reported in the form
            await pilot.click("#join")
            await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen))
            app.screen.query_one("#address").value = "127.0.0.1:notaport"
            await pilot.click("#go")
            await wait_for(pilot, lambda: "HOST:PORT" in screen_text(app))
            app.screen.query_one("#address").value = f"127.0.0.1:{server.port}"
            app.screen.query_one("#name").value = "Menu"
            await pilot.pause(0.3)
            await pilot.click("#go")
            await wait_for(pilot, lambda: my_request(app) is not None)
            assert server.seats_status()[0]["name"] == "Menu"
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, NetQuitScreen))
            await pilot.click("#leave")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            # host: the form checks its seats, then opens the table
            await pilot.click("#host")
            await wait_for(pilot, lambda: isinstance(app.screen, HostScreen))
            app.screen.query_one("#port").value = "0"
            await pilot.click("#go")
            await wait_for(pilot, lambda: "1 to 65535" in screen_text(app))
            free = free_port()
            app.screen.query_one("#port").value = str(free)
            await pilot.pause(0.3)  # a button ignores a second click while it shows the first
            await pilot.click("#go")
            await wait_for(pilot, lambda: table_screen(app) is not None and "Waiting for players" in bar(app))
            assert f"127.0.0.1:{free}" in bar(app)
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, NetQuitScreen))
            assert "Close the table?" in screen_text(app) and "--log" in screen_text(app)
            await pilot.click("#leave")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_lan_commands_say_what_is_wrong_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    port = free_port()  # nothing listens there
    assert cli.main(["join", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert "cannot connect" in err and err.count("\n") == 1
    assert cli.main(["join", "127.0.0.1:99999"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err
    assert cli.main(["host", "--seats", "remote,remote,remote,remote", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "human" in err and err.count("\n") == 1
    from mahjong_tui.ui.app import run_app

    assert run_app(argparse.Namespace(command="serve")) == 2
    assert "mahjong-tui serve" in capsys.readouterr().err


async def test_host_with_two_human_seats_passes_the_keyboard(tmp_path):
    from mahjong_tui.ui.screens.dialogs import PrivacyScreen

    ns = host_namespace("classic", ["human", "remote", "human", "ai:baseline"], port=0, seed=32, hands=1,
                        bot_delay=0)
    ns.log = str(tmp_path / "hot.jsonl")
    session = await open_host(ns)
    app = net_app(session, "host")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            remote = NetClient("127.0.0.1", session.address[1], name="R")
            await remote.connect()
            rtask = asyncio.ensure_future(play_bot(remote, "baseline"))
            # each human seat has its own connection; the table is hidden between them
            await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
            assert "Player 1" in screen_text(app)
            await play(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            summary = session.host.server.table.history[-1]
            assert headline(summary, [session.name(i) for i in range(4)]) in screen_text(app)
            await asyncio.wait_for(rtask, 30)
    finally:
        await session.aclose()


async def test_a_singapore_client_hears_of_the_bite_made_before_it_joined():
    """Seed 28: the deal gives seat 0 (East) a hidden Cat + Rat bite while the table waits for
    its players; the client that joins at seat 0 reads it from the view (``instant_payments``)
    and shows it on its news line, with the moved scores."""
    table = new_table("singapore", seed=28, hands=1)
    assert [(p["id"], p["seat"]) for p in table.instant_log] == [("bite_animals", 0)]
    async with served(table, seats=("remote",) + BOTS, bot_delay=0) as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            assert app.screen.query_one(ActionBar).plain_lines()[-1].strip() == \
                "You collect 2 from each: Cat + Rat, hidden"
            assert "East You  6" in screen_text(app)
        await session.aclose()


async def test_the_join_form_says_it_retries_a_throttled_table_then_joins(tmp_path, monkeypatch):
    """The menu's Join form, at a table that refuses this address for a while after a wrong
    password: the form says so and that it retries, and joins once the lockout is over (the
    throttle's clock is the test's).  (Before: the client gave up at the first refusal.)"""
    from mahjong_tui.net.protocol import PROTOCOL_VERSION, new_nonce, proof
    from mahjong_tui.net.server import PasswordThrottle
    from tests.net.util import RawClient

    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    clock = Clock()
    monkeypatch.setenv("MAHJONG_TUI_PASSWORD", "not this one")  # the form does not read it
    table = new_table("classic", seed=32, hands=1)
    throttle = PasswordThrottle(free=0, delay=1.0, clock=clock)
    async with served(table, seats=("remote",) + BOTS, bot_delay=0, password="pw", throttle=throttle) as (server, _t):
        def wrong_guess() -> dict:
            raw = RawClient(server.port)
            hello = raw.read()
            cn = new_nonce()
            raw.send({"type": "join", "protocol": PROTOCOL_VERSION, "cnonce": cn,
                      "proof": proof("nope", "client", hello["nonce"], cn)})
            reply = raw.read()
            raw.close()
            return reply

        assert (await asyncio.to_thread(wrong_guess))["code"] == "auth"  # refused for 1 s on the test's clock
        app = make_app(command=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.click("#join")
            await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen))
            app.screen.query_one("#address").value = f"127.0.0.1:{server.port}"
            app.screen.query_one("#password").value = "pw"
            await pilot.pause(0.3)
            await pilot.click("#go")
            await wait_for(pilot, lambda: "retrying in 1 s" in " ".join(screen_text(app).split()))
            assert "too many wrong table passwords" in " ".join(screen_text(app).split())
            clock.now += 10.0  # the lockout is over
            await wait_for(pilot, lambda: my_request(app) is not None)
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, NetQuitScreen))
            await pilot.click("#leave")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
