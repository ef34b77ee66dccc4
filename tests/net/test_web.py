"""Browser seats (``host --web`` / ``serve --web``, mahjong_tui/net/web.py), driven the way the
page drives them: an HTTP GET of the page (its cookie), then the websocket textual-serve's
page opens, with real sockets on 127.0.0.1 and real seat processes.  The real-browser test
is tests/net/test_web_browser.py."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the web extra is not installed (pip install '.[web]')")
aiohttp = pytest.importorskip("aiohttp")

from mahjong_tui.net import web as webmod  # noqa: E402
from mahjong_tui.net.web import SIZE_LIMITS, allowed_host, clamp_size, seat_command, session_env  # noqa: E402

from .util import new_table, served  # noqa: E402
from .webscreen import Screen  # noqa: E402


# ----------------------------------------------------------------------------------------
# the parts, one by one
# ----------------------------------------------------------------------------------------
def test_sizes_from_a_browser_are_clamped_numbers():
    (wlo, whi), (hlo, hhi) = SIZE_LIMITS
    assert clamp_size("120", "40") == (120, 40)
    assert clamp_size("100000", "-3") == (whi, hlo)
    assert clamp_size("rm -rf /", None) == (80, 24)
    assert clamp_size(True, 1e300) == (80, hhi)
    assert clamp_size(float("nan"), "9" * 5000) == (80, 24)  # too long to be read as a number


def test_the_command_is_fixed_and_the_environment_has_no_table_secret(tmp_path):
    import sys

    assert seat_command(7777) == [sys.executable, "-m", "mahjong_tui.net.web", "seat", "127.0.0.1:7777"]
    env = session_env(tmp_path, 100, 30, env={"PATH": "/bin", "MAHJONG_TUI_PASSWORD": "secret",
                                                 "MAHJONG_TUI_TOKEN": "tok", "TEXTUAL": "debug,devtools"})
    assert "MAHJONG_TUI_PASSWORD" not in env and "MAHJONG_TUI_TOKEN" not in env
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver" and "TEXTUAL" not in env
    assert (env["COLUMNS"], env["ROWS"], env["MAHJONG_TUI_SAVES"]) == ("100", "30", str(tmp_path))


def test_only_ip_addresses_and_this_machines_names_are_served():
    import socket

    for ok in ("127.0.0.1:7778", "192.168.1.5:7778", "[::1]:7778", "localhost:7778", "localhost",
               f"{socket.gethostname()}:7778"):
        assert allowed_host(ok), ok
    for bad in ("evil.example.com:7778", "127.0.0.1.nip.io:7778", "", None):
        assert not allowed_host(bad), bad


# ----------------------------------------------------------------------------------------
# a page, as a browser opens it
# ----------------------------------------------------------------------------------------
class Page:
    """A browser tab: GET the page (keeps its cookie in ``jar``), then its websocket; what
    the seat's app draws is fed to :attr:`screen`."""

    def __init__(self, url: str, jar=None, width: int = 120, height: int = 40):
        self.url = url
        self.jar = jar if jar is not None else aiohttp.CookieJar(unsafe=True)
        self.screen = Screen(width, height)
        self.width, self.height = width, height
        self.http = None
        self.ws = None
        self.task = None

    async def get(self):
        self.http = self.http or aiohttp.ClientSession(cookie_jar=self.jar)
        async with self.http.get(self.url) as r:
            return r.status, await r.text()

    async def open(self, query: str | None = None):
        status, _ = await self.get()
        assert status == 200
        q = query if query is not None else f"width={self.width}&height={self.height}"
        host = self.url.split("//", 1)[1].split("/", 1)[0]
        self.ws = await self.http.ws_connect(f"ws://{host}/ws?{q}", origin=f"http://{host}")
        self.task = asyncio.ensure_future(self._read())
        return self

    async def _read(self):
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(msg.data)

    async def keys(self, *parts: str):
        for p in filter(None, parts):
            await self.ws.send_str(json.dumps(["stdin", p]))
            await asyncio.sleep(0.15)

    async def join(self, name: str, password: str):
        """Fill the join form as a player does: the name, Enter, the password, Enter."""
        await self.wait_text("Join the table")
        await self.ws.send_str(json.dumps(["focus"]))  # as the page does when its terminal has the focus
        await asyncio.sleep(2.0)  # the form settles (keys sent while it is laid out may go to no field)
        if name:
            await self.keys(name)
            await self.wait_text(f"Name      {name}")
        await self.keys("\r")
        await self.keys(password)
        if password:
            await self.wait_text("•" * len(password))
        await self.keys("\r")

    async def wait_text(self, text: str, timeout: float = 30.0) -> str:
        for _ in range(int(timeout * 10)):
            if text in self.screen.text():
                return self.screen.text()
            await asyncio.sleep(0.1)
        raise AssertionError(f"{text!r} not on the page:\n{self.screen.text()}")

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.task, 5)
        if self.http is not None:
            await self.http.close()


async def until(pred, timeout: float = 30.0, what: str = ""):
    for _ in range(int(timeout * 10)):
        if pred():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


@contextlib.asynccontextmanager
async def web_table(tmp_path, *, sessions=4, idle=None, password=None, hands=1, bot_delay=0.2):
    """A table (seat 1 remote, three bots) and its browser page on 127.0.0.1."""
    table = new_table("classic", seed=5, hands=hands)
    notes: list[str] = []
    async with served(table, seats=["remote", "ai", "ai", "ai"], password=password, bot_delay=bot_delay) as (server, task):
        args = argparse.Namespace(bind="127.0.0.1", web_port=0, web_sessions=sessions, web_idle=idle)
        page = await webmod.start_web(args, server.port, notes.append, folder=tmp_path / "web-seats")
        try:
            yield server, page, f"http://127.0.0.1:{page.address[1]}/", notes
        finally:
            await page.close()


def running(page) -> int:
    """Browser sessions whose process has started."""
    return sum(1 for s in page.sessions.values() if s._process is not None)


def proc_pid(page) -> int:
    (service,) = page.sessions.values()
    return service._process.pid


# ----------------------------------------------------------------------------------------
# what a browser cannot do
# ----------------------------------------------------------------------------------------
async def test_a_browser_session_cannot_pass_arguments_to_its_process(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHJONG_TUI_PASSWORD", "the host's own secret")
    async with web_table(tmp_path, password="the host's own secret") as (server, page, url, notes):
        tab = Page(url + "?fontsize=99999&command=sh&args=--bot")
        try:
            await tab.open(query="width=100000&height=-7&command=%2Fbin%2Fsh&args=--bot+strong&env=X%3D1")
            await until(lambda: running(page) == 1, 10, "a session")
            pid = proc_pid(page)
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]
            environ = dict(e.split(b"=", 1) for e in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0") if b"=" in e)
            assert [a.decode() for a in argv] == seat_command(server.port)
            assert environ[b"COLUMNS"] == str(SIZE_LIMITS[0][1]).encode() and environ[b"ROWS"] == str(SIZE_LIMITS[1][0]).encode()
            assert b"MAHJONG_TUI_PASSWORD" not in environ and b"X" not in environ
            assert environ[b"MAHJONG_TUI_SAVES"].startswith(str(tmp_path / "web-seats").encode())
            await tab.wait_text("esc Back")  # drawn at 400x10 (the form's title is out of sight)
            # the page's messages: a resize of any shape, unknown kinds, broken JSON: the same process goes on
            for raw in (json.dumps(["resize", {"width": "$(reboot)", "height": 10**12}]), "not json",
                        json.dumps(["exec", "/bin/sh"]), json.dumps({"stdin": "x"}), json.dumps(["stdin", 5])):
                await tab.ws.send_str(raw)
            await asyncio.sleep(1.0)
            await tab.ws.send_str(json.dumps(["resize", {"width": 120, "height": 40}]))  # as the page fits itself
            await tab.wait_text("Join the table")
            assert proc_pid(page) == pid and page.started_count == 1
            # the password is the table's: the host's $MAHJONG_TUI_PASSWORD does not seat a browser
            await tab.join("", "")
            await tab.wait_text("This table has a password")
            assert not server.seats_status()[0]["connected"]
        finally:
            await tab.close()


async def test_the_session_cap_holds_and_other_sites_are_refused(tmp_path):
    async with web_table(tmp_path, sessions=2) as (server, page, url, notes):
        tabs = [Page(url), Page(url)]
        third = Page(url)
        try:
            for t in tabs:
                await t.open()
            await until(lambda: running(page) == 2, 10, "two sessions")
            status, text = await third.get()
            assert status == 503 and "All 2 browser seats" in text
            host = url.split("//", 1)[1].rstrip("/")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await third.http.ws_connect(f"ws://{host}/ws", origin=f"http://{host}")
            assert refused.value.status == 503
            assert page.started_count == 2 and len(page.sessions) == 2
            # a page of another site cannot open a seat even with a free one
            await tabs[0].close()
            await until(lambda: len(page.sessions) == 1, 15, "the closed tab's session to end")
            with pytest.raises(aiohttp.WSServerHandshakeError) as foreign:
                await third.http.ws_connect(f"ws://{host}/ws", origin="http://evil.example.com")
            assert foreign.value.status == 403
            async with third.http.get(url, headers={"Host": "evil.example.com"}) as r:
                assert r.status == 421
            await third.open()  # a free place: served
            await until(lambda: running(page) == 2, 10, "the third tab's session")
            assert page.started_count == 3
        finally:
            for t in (*tabs, third):
                await t.close()


async def test_an_idle_session_is_closed(tmp_path):
    async with web_table(tmp_path, idle=1.5) as (server, page, url, notes):
        tab = Page(url)
        try:
            await tab.open()
            await until(lambda: running(page) == 1, 10, "a session")
            pid = proc_pid(page)
            await until(lambda: not page.sessions, 20, "the idle session to close")
            assert any("idle" in n for n in notes)
            await until(lambda: not Path(f"/proc/{pid}").exists() or b"zombie" in _state(pid), 10, "its process to end")
        finally:
            await tab.close()


def _state(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/status").read_bytes().lower()
    except OSError:
        return b"zombie"


# ----------------------------------------------------------------------------------------
# a closed tab: the stand-in plays; the same browser gets its seat back, another does not
# ----------------------------------------------------------------------------------------
async def test_a_closed_tab_is_played_by_the_stand_in_and_rejoined_by_its_browser(tmp_path):
    async with web_table(tmp_path, password="tea for four", hands=2, bot_delay=0.3) as (server, page, url, notes):
        ann = Page(url)
        other = Page(url)  # another browser: a cookie of its own
        back = None
        try:
            await ann.open()
            await ann.wait_text("Join the table")
            await ann.join("Ann", "tea for four")
            await ann.wait_text(" You ")
            await until(lambda: server.seats_status()[0]["connected"] and server.started, 20, "Ann seated")
            assert server.seats_status()[0]["name"] == "Ann"
            pid = proc_pid(page)
            await ann.close()  # the tab is closed
            await until(lambda: not page.sessions, 15, "the session to end")
            assert not Path(f"/proc/{pid}").exists() or b"zombie" in _state(pid)
            await until(lambda: server.seats_status()[0]["standin"], 15, "the stand-in")
            before = len(server.table.ponds[0])
            await until(lambda: len(server.table.ponds[0]) > before or server.table.phase != "play", 60,
                        "the stand-in to discard for seat 1")
            # another browser (the password known) cannot take Ann's seat: it is kept for her
            await other.open()
            await other.wait_text("Join the table")
            await other.join("Mallory", "tea for four")
            await other.wait_text("refused")
            assert not server.seats_status()[0]["connected"] and server.seats_status()[0]["name"] == "Ann"
            await other.close()
            await until(lambda: not page.sessions, 15, "the other session to end")
            # Ann's browser again (its cookie): her seat, her name, without a token typed
            back = Page(url, jar=ann.jar)
            await back.open()
            await back.wait_text("Join the table")
            await back.join("", "tea for four")
            await back.wait_text(" You ")
            await until(lambda: server.seats_status()[0]["connected"], 20, "Ann back")
            assert server.seats_status()[0]["name"] == "Ann" and not server.seats_status()[0]["standin"]
        finally:
            for t in (ann, other, back):
                if t is not None:
                    await t.close()


def test_folders_of_browsers_gone_for_30_days_are_removed(tmp_path):
    import time

    old, recent = tmp_path / "a", tmp_path / "b"
    for d in (old, recent):
        (d / "lan-seats").mkdir(parents=True)
    now = time.time()
    os.utime(old, (now - 31 * 86400, now - 31 * 86400))
    os.utime(recent, (now - 29 * 86400, now - 29 * 86400))
    assert webmod.prune_browsers(tmp_path, now) == 1
    assert not old.exists() and recent.exists()
