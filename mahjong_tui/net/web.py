"""Browser seats at a LAN table (``host --web``, ``serve --web``): the table's page, served
through Textual's own ``textual-serve`` (the optional extra ``web``: ``pip install
'mahjong-tui[web]'``).

Each browser session runs one process, always the same command, built here and nowhere
else::

    python -m mahjong_tui.net.web seat 127.0.0.1:PORT

It is the ordinary ``join`` client (the same :class:`~mahjong_tui.net.client.NetClient`,
session and table screen) with the table's address fixed: a form asks for the player's name
and the table password (typed in the page, never on a command line), and leaving the table
ends the process.  So a browser is one more remote seat of the server-authoritative table and
sees only that seat's view; the table's password and throttling apply to it as to anyone.

What a browser can reach, and what it cannot (checked by ``tests/net/test_web.py``):

- **No command, file or option of its choosing reaches a process.**  ``textual-serve`` reads
  ``width``/``height`` (the URL's query and the websocket's ``resize`` messages: clamped here
  to :data:`SIZE_LIMITS`, anything else 80×24) and ``fontsize`` (the page only, clamped;
  ``ping`` and ``delay`` are read by the page's script in the browser, never here); the
  command line is fixed and started without a shell; the process's environment is this
  process's minus the table secrets (``$MAHJONG_TUI_PASSWORD``, ``$MAHJONG_TUI_TOKEN``: a
  browser must type the password) plus the terminal size and the browser's own folder
  (below).  Keystrokes reach the seat's screens only: no menu, no file dialog (the app
  leaves when the table is left).
- **Bounded**: at most ``--web-sessions`` sessions at once (the page says the seats are full,
  and the websocket is refused before any process starts), a session with no key, click or
  resize from its browser for ``--web-idle`` seconds is closed, and a closed tab (the
  websocket's close, or 15 s of missed heartbeats) stops its process: the table's stand-in bot
  plays the seat until its player comes back.
- **Safe to offer**: the page binds ``127.0.0.1`` unless ``--bind`` says otherwise; only
  requests whose ``Host`` is an IP address, ``localhost`` or this machine's name are served
  (a web site cannot rebind its own name to this port), and a websocket opened from another
  site's page (its ``Origin``) is refused.

**Rejoining, one seat per browser.**  Every browser gets a random 256-bit key in a cookie
(``HttpOnly``, ``SameSite=Strict``, kept 30 days from its last visit); the key itself never
leaves this process.
Its SHA-256 names a folder of its own under ``web-seats/`` in the saves folder, which its
sessions get as their saves, settings and history folders, so the join client keeps that
browser's seat tokens there exactly as a terminal keeps its own
(:mod:`mahjong_tui.net.seatstore`): a closed and reopened tab rejoins its seat, two tabs of
one browser take two seats (slot locks), and a browser without the key (another player, or
cookies cleared) cannot name another browser's folder, so it can only take a free seat — it
never gets a seat some other browser kept.  Not chosen: ``--new-seat`` with a token in the URL
or a cookie (a link or cookie copied or guessed would be a seat), or a shared folder (the
next browser would get the seat a closed tab kept).  A browser's folder unused for 30 days is
removed when a page is next served (:func:`prune_browsers`).

The page itself is ``textual-serve``'s; it asks for a web font from Google's font service
(where there is no internet the browser falls back to its monospace font).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import os
import re
import secrets
import shutil
import socket
import sys
import time
from pathlib import Path
from typing import Callable

from ..errors import MahjongError
from ..paths import private_dir, saves_dir
from .args import SECRET_ENV

#: what to install when textual-serve is missing
WEB_EXTRA = "pip install 'mahjong-tui[web]'"
#: browser sessions at once (``--web-sessions``)
DEFAULT_WEB_SESSIONS = 4
#: seconds a browser session may go without a key, click or resize (``--web-idle``)
DEFAULT_WEB_IDLE = 900.0
#: (min, max) columns and rows a browser may ask for
SIZE_LIMITS = ((20, 400), (10, 200))
#: the cookie holding a browser's key
COOKIE = "mahjong_tui_seat"
COOKIE_DAYS = 30
_COOKIE_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")
#: the longest websocket text message read from a browser (a paste, a burst of keys)
MAX_MESSAGE = 64 * 1024
#: seconds a stopped session's process has to leave before it is terminated, then killed
STOP_GRACE = 3.0


class WebError(MahjongError):
    """The browser page cannot be offered (textual-serve missing, the port taken)."""


def require_textual_serve() -> None:
    """Raise :class:`WebError` naming the extra when ``textual-serve`` is not installed."""
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        raise WebError(f"--web needs textual-serve: install the web extra ({WEB_EXTRA})") from None


def web_port_for(args: argparse.Namespace, table_port: int) -> int:
    """``--web-port``, else the table's port + 1 (7778 beside 7777; any free port beside 0)."""
    wp = getattr(args, "web_port", None)
    if wp is not None:
        return wp
    return table_port + 1 if 0 < table_port < 65535 else 0


def clamp_size(width, height) -> tuple[int, int]:
    """Columns and rows from a browser, as ints within :data:`SIZE_LIMITS` (80×24 for
    anything that is not a number)."""
    out = []
    for value, default, (lo, hi) in ((width, 80, SIZE_LIMITS[0]), (height, 24, SIZE_LIMITS[1])):
        try:
            n = int(value) if not isinstance(value, bool) else default
        except (TypeError, ValueError, OverflowError):
            n = default
        out.append(min(hi, max(lo, n)))
    return out[0], out[1]


def seat_command(table_port: int) -> list[str]:
    """The one command a browser session starts (argv, run without a shell)."""
    return [sys.executable, "-m", "mahjong_tui.net.web", "seat", f"127.0.0.1:{int(table_port)}"]


def browser_folder(base: Path, key: str) -> Path:
    """The folder of the browser whose cookie holds ``key`` (``base/<sha256 of key, 32 hex>``)."""
    return base / hashlib.sha256(key.encode("ascii")).hexdigest()[:32]


def session_env(folder: Path, width: int, height: int, env=None) -> dict[str, str]:
    """The environment of a browser session's process: ``env`` (default this process's) less
    the table secrets and Textual's debugging switches, with the browser's own saves,
    settings and history folders and the terminal size."""
    out = {k: v for k, v in (os.environ if env is None else env).items()
           if k not in SECRET_ENV.values() and not k.startswith("TEXTUAL")}
    out.update({
        "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver", "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual", "COLUMNS": str(width), "ROWS": str(height),
        "MAHJONG_TUI_SAVES": str(folder), "MAHJONG_TUI_CONFIG": str(folder / "settings.toml"),
        "MAHJONG_TUI_HISTORY": str(folder / "history"),
    })
    return out


def allowed_host(host_header: str | None) -> bool:
    """A request's ``Host`` this page answers: an IP address, ``localhost``, or this machine's
    name (with or without ``.local``), any port.  A DNS name of some web site is refused."""
    if not host_header:
        return False
    host = host_header.strip()
    if host.startswith("["):  # [::1]:7778
        host = host[1:host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(host)
        return True
    name = host.lower().rstrip(".")
    mine = socket.gethostname().lower()
    return name in ("localhost", mine, mine + ".local", mine.split(".")[0])


# ----------------------------------------------------------------------------------------
# the web server (textual-serve, with the limits above)
# ----------------------------------------------------------------------------------------
def _make_classes():
    """The textual-serve subclasses (imported only when --web is used)."""
    from aiohttp import WSMsgType, web
    import aiohttp_jinja2
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    logging.getLogger("textual-serve").setLevel(logging.CRITICAL)  # the host's screen is the TUI's

    class SeatService(AppService):
        """One browser session's process: the fixed :func:`seat_command`, its own
        environment, no shell; its stderr is kept (the last line is said when it ends)."""

        def __init__(self, argv: list[str], env: dict[str, str], **kw):
            super().__init__(" ".join(argv), **kw)
            self.argv, self.env = argv, env
            self.last_error = ""

        async def _open_app_process(self, width: int = 80, height: int = 24):
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=self.env, start_new_session=True)
            self._stdin = process.stdin
            return process

        async def run(self) -> None:
            process = self._process
            stdout, stderr = process.stdout, process.stderr
            tail = bytearray()

            async def read_stderr() -> None:
                with contextlib.suppress(asyncio.CancelledError):
                    while data := await stderr.read(4096):
                        tail.extend(data)
                        del tail[:-2048]

            reader = asyncio.create_task(read_stderr())
            try:
                for _ in range(10):
                    line = await stdout.readline()
                    if not line or line == b"__GANGLION__\n":
                        break
                while True:
                    kind = await stdout.readexactly(1)
                    size = int.from_bytes(await stdout.readexactly(4), "big")
                    payload = await stdout.readexactly(size)
                    if kind == b"D":
                        await self.on_data(payload)
                    elif kind == b"M":
                        await self.on_meta(payload)
                    elif kind == b"P":
                        await self.on_packed(payload)
            except (asyncio.IncompleteReadError, ConnectionResetError, asyncio.CancelledError, ValueError):
                pass
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
            lines = tail.decode("utf-8", "replace").strip().splitlines()
            self.last_error = lines[-1][:200] if lines else ""

        async def stop(self) -> None:
            """Ask the process to quit; terminate it after :data:`STOP_GRACE` seconds, then
            kill it.  Idempotent."""
            process = self._process
            if process is None:
                return
            if process.returncode is None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.send_meta({"type": "quit"}), STOP_GRACE)
                for how in ("wait", "terminate", "kill"):
                    if how != "wait":
                        with contextlib.suppress(ProcessLookupError):
                            getattr(process, how)()
                    try:
                        await asyncio.wait_for(process.wait(), STOP_GRACE)
                        break
                    except asyncio.TimeoutError:
                        continue
            if self._task is not None:
                task, self._task = self._task, None
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, STOP_GRACE)

    class WebSeats(Server):
        """The table's page on ``bind``:``port`` (see the module's docstring)."""

        def __init__(self, table_port: int, bind: str, port: int, *, max_sessions: int, idle: float | None,
                     folder: Path, note: Callable[[str], None], title: str):
            super().__init__("mahjong-tui", host=bind, port=port, title=title)
            self.table_port, self.bind = table_port, bind
            self.max_sessions, self.idle = max_sessions, idle
            self.folder, self.note = folder, note
            self.sessions: dict[int, SeatService] = {}  # id of the websocket -> its process
            self.started_count = 0  # processes started, in all (tests read it)
            self.refused_count = 0
            self.runner = None
            self.address: tuple[str, int] | None = None

        async def on_startup(self, app) -> None:  # textual-serve prints a logo here
            return None

        def _check(self, request) -> None:
            if not allowed_host(request.headers.get("Host")):
                raise web.HTTPMisdirectedRequest(text="open this page by the table's IP address\n")

        def _key(self, request) -> str | None:
            key = request.cookies.get(COOKIE, "")
            return key if _COOKIE_RE.match(key) else None

        def full(self) -> bool:
            return len(self.sessions) >= self.max_sessions

        async def handle_index(self, request):
            self._check(request)
            if self.full():
                return web.Response(status=503, content_type="text/plain", headers={"Retry-After": "30"},
                                    text=f"All {self.max_sessions} browser seats of this table are in use; "
                                         "try again when one is free.\n")
            font = min(32, max(8, _int(request.query.get("fontsize"), 16)))
            url = f"{request.scheme}://{request.host}"
            context = {"font_size": font, "app_websocket_url": ("wss" if request.scheme == "https" else "ws")
                       + f"://{request.host}/ws",
                       "config": {"static": {"url": f"{url}/static/"}}, "application": {"name": self.title}}
            response = aiohttp_jinja2.render_template("app_index.html", request, context)
            response.headers.update({"Cache-Control": "no-store", "X-Frame-Options": "DENY",
                                     "Referrer-Policy": "no-referrer"})
            # the same key again (its 30 days start anew), or a new one
            response.set_cookie(COOKIE, self._key(request) or secrets.token_urlsafe(32), max_age=COOKIE_DAYS * 86400,
                                path="/", httponly=True, samesite="Strict")
            return response

        async def handle_websocket(self, request):
            self._check(request)
            origin = request.headers.get("Origin")
            if origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
                raise web.HTTPForbidden(text="a page of another site cannot open this table's seats\n")
            if self.full():
                self.refused_count += 1
                raise web.HTTPServiceUnavailable(text=f"all {self.max_sessions} browser seats are in use\n")
            key = self._key(request)
            if key is None:
                raise web.HTTPForbidden(text="open the table's page first (it keeps your seat in a cookie)\n")
            width, height = clamp_size(request.query.get("width"), request.query.get("height"))
            folder = browser_folder(self.folder, key)
            try:
                private_dir(folder)
                os.utime(folder)  # used now: kept COOKIE_DAYS from here (prune_browsers)
            except OSError as exc:
                raise web.HTTPInternalServerError(text=f"cannot keep this browser's seat: {exc.strerror}\n") from None
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
            service = SeatService(seat_command(self.table_port), session_env(folder, width, height),
                                  write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                  close=websocket.close, download_manager=self.download_manager)
            sid = id(websocket)
            self.sessions[sid] = service  # counted before the first await: the cap holds
            self.started_count += 1
            peer = request.remote or "?"
            self.note(f"browser session from {peer} opened ({len(self.sessions)} of {self.max_sessions})")
            last = [time.monotonic()]
            watchdog = None
            try:
                await websocket.prepare(request)
                await service.start(width, height)
                if self.idle:
                    watchdog = asyncio.create_task(self._watch_idle(websocket, last))
                await self._messages(websocket, service, last)
            except asyncio.CancelledError:
                pass
            except Exception as exc:  # noqa: BLE001 - one browser never stops the table
                self.note(f"browser session from {peer}: {type(exc).__name__}: {exc}")
            finally:
                if watchdog is not None:
                    watchdog.cancel()
                await service.stop()
                self.sessions.pop(sid, None)
                with contextlib.suppress(Exception):
                    await websocket.close()
                why = f": {service.last_error}" if service.last_error else ""
                self.note(f"browser session from {peer} closed{why}")
            return websocket

        async def _watch_idle(self, websocket, last: list[float]) -> None:
            while not websocket.closed:
                left = self.idle - (time.monotonic() - last[0])
                if left <= 0:
                    self.note(f"browser session idle for {self.idle:g} s: closed")
                    await websocket.close(code=4000, message=b"idle")
                    return
                await asyncio.sleep(min(left, 5.0) + 0.05)

        async def _messages(self, websocket, service: SeatService, last: list[float]) -> None:
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str) and data:  # an empty one would end the app's input
                    last[0] = time.monotonic()
                    await service.send_bytes(data.encode("utf-8"))
                elif kind == "resize" and isinstance(data, dict):
                    last[0] = time.monotonic()
                    width, height = clamp_size(data.get("width"), data.get("height"))
                    await service.set_terminal_size(width, height)
                elif kind == "ping" and isinstance(data, str) and len(data) <= 64:
                    await websocket.send_json(["pong", data])
                elif kind in ("blur", "focus"):
                    await (service.blur() if kind == "blur" else service.focus())

        async def start(self) -> tuple[str, int]:
            """Listen; returns (address, port) bound."""
            app = await self._make_app()
            self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
            await self.runner.setup()
            site = web.TCPSite(self.runner, self.bind, self.port)
            await site.start()
            sock = site._server.sockets[0].getsockname()
            self.address = (sock[0], sock[1])
            return self.address

        async def close(self) -> None:
            for service in list(self.sessions.values()):
                with contextlib.suppress(Exception):
                    await service.stop()
            if self.runner is not None:
                runner, self.runner = self.runner, None
                await runner.cleanup()

    return WebSeats


def _int(text, default: int) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


def web_folder(env=None) -> Path:
    """``web-seats`` in the saves folder: one folder per browser below it."""
    return saves_dir(os.environ if env is None else env) / "web-seats"


def prune_browsers(folder: Path, now: float | None = None) -> int:
    """Remove the folders of browsers not seen for :data:`COOKIE_DAYS` (their cookie is gone,
    so nobody can use them again); returns how many."""
    now = time.time() if now is None else now
    gone = 0
    try:
        entries = list(folder.iterdir())
    except OSError:
        return 0
    for d in entries:
        try:
            if d.is_dir() and not d.is_symlink() and now - d.stat().st_mtime > COOKIE_DAYS * 86400:
                shutil.rmtree(d)
                gone += 1
        except OSError:
            pass
    return gone


async def start_web(args: argparse.Namespace, table_port: int, note: Callable[[str], None], title: str = "mahjong-tui",
                    folder: Path | None = None):
    """Serve the table's page for ``host --web`` / ``serve --web``: ``--bind``,
    ``--web-port`` (:func:`web_port_for`), ``--web-sessions``, ``--web-idle``; the browsers'
    sessions join ``127.0.0.1:table_port``.  Returns the listening server (``.address``,
    ``.close()``).  Raises :class:`WebError` (textual-serve missing, the port taken)."""
    require_textual_serve()
    WebSeats = _make_classes()
    prune_browsers(folder or web_folder())
    bind = getattr(args, "bind", "127.0.0.1")
    port = web_port_for(args, table_port)
    server = WebSeats(table_port, bind, port, max_sessions=getattr(args, "web_sessions", DEFAULT_WEB_SESSIONS),
                      idle=getattr(args, "web_idle", DEFAULT_WEB_IDLE), folder=folder or web_folder(), note=note,
                      title=title)
    try:
        await server.start()
    except OSError as exc:
        with contextlib.suppress(Exception):
            await server.close()
        raise WebError(f"cannot serve the browser page on {bind}:{port}: {exc.strerror or exc}; choose another "
                       "--web-port") from None
    return server


def lan_host() -> str:
    """This machine's address on the local network (a UDP socket is pointed at a never-routed
    address to learn the route; nothing is sent), else its name."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def page_url(server, shown_host: str | None = None) -> str:
    """The address a browser opens: ``http://HOST:PORT/`` (``shown_host`` instead of a
    wildcard bind address such as 0.0.0.0)."""
    host, port = server.address
    if host in ("0.0.0.0", "::", "") and shown_host:
        host = shown_host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


# ----------------------------------------------------------------------------------------
# the browser session's process: the join client with the address fixed
# ----------------------------------------------------------------------------------------
def run_seat(address: str) -> int:
    """``python -m mahjong_tui.net.web seat 127.0.0.1:PORT``: the join form (name, table
    password) for that table only, then the table; the app ends when the player leaves the
    table, and at once if the form is left."""
    from textual.containers import Vertical
    from textual.widgets import Footer, Input, Static

    from ..ui.app import MahjongApp
    from ..ui.screens.lan import _LanForm, join_namespace

    class SeatJoinScreen(_LanForm):
        """The Join form with the table's address fixed and no seat token field: this
        browser's kept seat is found again by itself."""

        def compose_body(self):
            with Vertical(id="lan-form"):
                yield Static("Join the table", id="menu-title")
                yield from self.compose_name_password()
                yield Static("Enter after the password joins: this browser's seat if it kept one, else a free seat.",
                             classes="lan-note")
                yield from self.compose_buttons("Join")
            yield Footer()

        def on_mount(self, event) -> None:
            event.prevent_default()
            self.query_one("#name", Input).focus()

        def on_input_submitted(self, event) -> None:
            event.stop()
            if event.input.id == "name":  # Enter on the name goes on to the password
                self.query_one("#password", Input).focus()
                return
            self.go()

        def go(self) -> None:
            q = self.query_one
            ns = join_namespace(address, name=q("#name", Input).value.strip(), password=q("#password", Input).value,
                                on_retry=self.busy)
            self.busy("Joining the table …")
            self.app.start_lan("join", ns, self.report)

        def report(self, text: str) -> None:
            if "password" in text and "--password" in text:  # the command line's words: not for this form
                text = "This table has a password: type it in the Password field, then Enter."
            super().report(text)

        def action_back(self) -> None:
            self.app.exit(0)

        def dismiss(self, result=None):
            self.app.exit(0)

    from ..ui import app as ui_app

    class SeatApp(MahjongApp):
        CSS_PATH = str(Path(ui_app.__file__).with_name(MahjongApp.CSS_PATH))  # beside MahjongApp, not here

        def on_mount(self, event) -> None:
            event.prevent_default()  # not MahjongApp's: it would open the main menu
            if not self.is_headless:
                self._catch_signals()
            self._check_size(self.size.width, self.size.height)
            self.push_screen(SeatJoinScreen())

        def _leave_table(self, saved, direct) -> None:
            self.session = None
            self.exit(0)

    app = SeatApp(command=None)
    app.run()
    rc = app.return_code
    return rc if isinstance(rc, int) else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mahjong_tui.net.web",
                                description="a browser seat's process (started by host/serve --web)")
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("seat")
    sp.add_argument("address", metavar="127.0.0.1:PORT")
    args = p.parse_args(argv)
    return run_seat(args.address)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
