"""LAN play screens (issue 6): the menu's Host and Join forms, the table's seats and tokens
(``i`` at a LAN table), and leaving a LAN table.

Player names come from the network: they are drawn as plain text (``rich.text.Text`` or
``markup=False``), never parsed as markup.
"""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from ...variant import option_assignments
from ..model import wind_word
from .base import BaseModal, BaseScreen
from .menu import SEAT_NAMES, VariantChoice

HOST_SEAT_CHOICES = [("Human", "human"), ("Remote", "remote"), ("AI easy", "ai:easy"), ("AI normal", "ai:normal"),
                     ("AI strong", "ai:strong")]
DEFAULT_PORT = 7777


# ----------------------------------------------------------------------------------------
# at the table
# ----------------------------------------------------------------------------------------
class TableInfoScreen(BaseModal):
    """Who sits where and how they are connected (connected, bot stand-in, waiting); the
    address others join; the table's timers; this player's seat token and the command that
    gets back to the table.  The host presses a seat's number (1-4) for the command that gets
    that seat's player back in from any machine, and ``r`` to issue that seat a new token when
    this run of the table does not know it (the old token then stops working)."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("i", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("1", "seat(0)", show=False),
        Binding("2", "seat(1)", show=False),
        Binding("3", "seat(2)", show=False),
        Binding("4", "seat(3)", show=False),
        Binding("r", "reissue", show=False),
    ]

    def __init__(self, session):
        super().__init__()
        self.session = session
        self.chosen: int | None = None  # host: the seat whose rejoin command is shown
        self.said = ""  # host: what became of the last r

    def compose_body(self) -> ComposeResult:
        with Vertical(id="lan-info", classes="dialog"):
            yield Label("", id="lan-info-title", classes="dialog-title", markup=False)
            yield Static("", id="lan-info-body")
            yield Static("Esc, Enter or i closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.refresh_info()
        self.set_interval(1.0, self.refresh_info)

    def body(self) -> Table:
        s = self.session
        info = s.info()
        view = s.view() or {}
        players = view.get("players") or [{}] * 4
        grid = Table.grid(padding=(0, 2))
        for _ in range(4):
            grid.add_column(no_wrap=True)
        grid.add_row(Text("Seat", style="bold"), Text("Player", style="bold"), Text("Played by", style="bold"),
                     Text("Connection", style="bold"))
        for row in info["rows"]:
            seat = row["seat"]
            wind = wind_word(players[seat].get("wind", "")) if players[seat] else ""
            name = row["name"]
            if row["net_name"] and row["net_name"] != name:
                name = f"{name} ({row['net_name']})"
            status = row["status"]
            style = "bold yellow" if status in ("bot stand-in", "offline", "away", "open") else ""
            grid.add_row(Text(f"{seat + 1} {wind}"), Text(name), Text(row["who"]), Text(status or "-", style=style))
        out = Table.grid()
        out.add_column()
        out.add_row(grid)
        timers = info.get("timeouts") or {}
        if timers:
            def secs(v) -> str:
                return "no limit" if v is None else f"{v:g} s"
            out.add_row(Text(f"Timers: a turn {secs(timers.get('turn'))}, a claim {secs(timers.get('claim'))}; "
                             "then a bot plays that decision", style="dim"))
        out.add_row(Text(""))
        if info["hosting"]:
            pw = (" (with the table password: --password-file FILE, or $MAHJONG_TUI_PASSWORD)"
                  if info["password"] else "")
            out.add_row(Text(f"Others join with: mahjong-tui join {info['address']}{pw}"))
            if info.get("web"):
                out.add_row(Text(f"or from a browser (nothing to install): {info['web']}"))
            if info["bind"] in ("127.0.0.1", "localhost", "::1"):
                out.add_row(Text("(this machine only: host with --bind 0.0.0.0 to let other machines join)",
                                 style="dim"))
            if info["rejoin"]:  # holds the journal's path
                out.add_row(Text(f"Continue it later: {info['rejoin']}", style="dim"))
            out.add_row(self.seat_lines(info))
            if info["notes"]:
                out.add_row(Text("Latest server notes:", style="bold"))
                for note in info["notes"][-3:]:
                    out.add_row(Text(f"  {note}", style="dim"))
        else:
            for seat, token in info["tokens"].items():
                t = Text("Your seat token: ")
                t.append(token or "?", "bold")
                out.add_row(t)
            out.add_row(Text("If you leave or lose the connection, rejoin your seat with:"))
            for line, command in info["rejoin_lines"]:
                out.add_row(Text(f"  {line}", style="bold" if command else "dim"))
        if not info["started"]:
            out.add_row(Text(""))
            out.add_row(Text("Play starts when every remote seat is taken.", style="italic"))
        return out

    def seat_lines(self, info: dict) -> Text:
        """Host: the chosen seat's rejoin command, or how to get one."""
        t = Text()
        if self.chosen is None:
            t.append("A seat's number (1-4): the command that gets its player back in from any machine", "dim")
            return t
        row = info["rows"][self.chosen]
        who = f"Seat {self.chosen + 1}" + (f" ({row['net_name']})" if row["net_name"] else "")
        if row["command"]:
            t.append(f"{who} rejoins with:\n")
            t.append(f"  {row['command']}", "bold")
        elif row["taken"]:
            t.append(f"{who}: its token was given before this table was served again, so it is not known here; "
                     "r issues a new one (the old one stops working)")
        else:
            t.append(f"{who} is not a seat taken over the network")
        if self.said:
            t.append(f"\n{self.said}", "dim")
        return t

    def action_seat(self, seat: int) -> None:
        if not self.session.info()["hosting"]:
            return
        self.chosen, self.said = seat, ""
        self.refresh_info()

    def action_reissue(self) -> None:
        s = self.session
        if self.chosen is None or not s.info()["hosting"]:
            return
        try:
            s.reissue(self.chosen)
            self.said = "A new token: the old one no longer works."
        except (ValueError, OSError) as exc:
            self.said = f"No new token: {exc}"
        self.refresh_info()

    def refresh_info(self) -> None:
        info = self.session.info()
        what = "Hosting" if info["hosting"] else "Playing at"
        self.query_one("#lan-info-title", Label).update(f"{what} the LAN table {info['address']} · "
                                                       f"{self.session.variant.name}")
        self.query_one("#lan-info-body", Static).update(self.body())

    def action_close(self) -> None:
        self.dismiss(None)


class ChatScreen(BaseModal):
    """``/`` at a LAN table: one line to say to the other players (table talk).  Enter sends
    it, Esc closes; the table takes at most 200 characters (the field stops there) and a few
    messages at a time.  What is said shows in the move log, never moves a tile."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, session):
        super().__init__()
        self.session = session

    def compose_body(self) -> ComposeResult:
        from ...net.protocol import CHAT_MAX

        with Vertical(id="lan-chat", classes="dialog"):
            yield Label("Say to the table", classes="dialog-title")
            yield Input(placeholder="a short message; Enter sends it", id="chat-text", max_length=CHAT_MAX)
            yield Static("", id="chat-status", markup=False)
            yield Static("Enter sends · Esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#chat-text", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.session.send_chat(event.value)
        if problem:
            self.query_one("#chat-status", Static).update(problem)
            return
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class NetQuitScreen(BaseModal):
    """Leaving a LAN table.  A player who joined leaves the seat to a bot stand-in (rejoin with
    the seat token); the host closes the table for everyone (the journal keeps the match)."""

    BINDINGS = [Binding("escape", "stay", "Stay")]

    def __init__(self, session):
        super().__init__()
        self.session = session

    def compose_body(self) -> ComposeResult:
        s = self.session
        how = s.rejoin_command()
        with Vertical(id="net-quit", classes="dialog"):
            if s.host is not None:
                yield Label("Close the table?", classes="dialog-title")
                yield Static("Everyone at it is disconnected. The match is kept in its journal; continue it "
                             "later (the others rejoin with their seat tokens) with:", markup=False)
                yield Static(f"  {how}" if how else "  (no journal)", classes="lan-command", markup=False)
                leave = "Close the table"
            else:
                yield Label("Leave the table?", classes="dialog-title")
                yield Static("A bot plays your seat until you come back. Rejoin with:", markup=False)
                for line, command in s.rejoin_lines():
                    yield (Static(f"  {line}", classes="lan-command", markup=False) if command
                           else Static(line, markup=False))
                leave = "Leave"
            with Horizontal(classes="buttons"):
                yield Button(leave, id="leave", variant="error")
                yield Button("Stay", id="stay", variant="primary")
            yield Static("Esc stays", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "leave")

    def action_stay(self) -> None:
        self.dismiss(False)


# ----------------------------------------------------------------------------------------
# the menu's forms
# ----------------------------------------------------------------------------------------
DEFAULT_TURN_TIMEOUT = 60.0
DEFAULT_CLAIM_TIMEOUT = 20.0


def host_namespace(variant: str, seats: list[str], *, port: int = DEFAULT_PORT, bind: str = "127.0.0.1",
                   password: str | None = None, seed: int | None = None, hands: int | None = None,
                   bot_delay: float = 0.5, options: dict | None = None,
                   turn_timeout: float | None = DEFAULT_TURN_TIMEOUT,
                   claim_timeout: float | None = DEFAULT_CLAIM_TIMEOUT) -> argparse.Namespace:
    """The arguments of ``mahjong-tui host`` with the defaults of the command line;
    ``options`` (name → value) become its ``--option KEY=VALUE`` items; ``turn_timeout`` /
    ``claim_timeout``: seconds, None for no limit."""
    return argparse.Namespace(command="host", variant=variant, seats=list(seats), seed=seed, hands=hands, port=port,
                              bind=bind, password=password or None, log=None, turn_timeout=turn_timeout,
                              claim_timeout=claim_timeout, start_after=None, standin="normal", bot_delay=bot_delay,
                              option=option_assignments(options or {}), secrets_from_env=False)


def join_namespace(address: str, *, name: str | None = None, password: str | None = None,
                   token: str | None = None, on_retry=None, new_seat: bool = False,
                   seats_folder=None) -> argparse.Namespace:
    """The arguments of ``mahjong-tui join HOST:PORT`` with the defaults of the command line;
    ``on_retry(text)`` is told when a busy table is tried again.  The form says what it
    means: no password from ``$MAHJONG_TUI_PASSWORD``.  ``seats_folder``: where the seat
    tokens are kept (None: the saves folder's ``lan-seats``); ``new_seat``: take a free seat
    even if a token is kept for that table."""
    return argparse.Namespace(command="join", address=address, name=name or None, password=password or None,
                              token=token or None, seat=None, retry=30.0, bot=None, bot_delay=0.0,
                              secrets_from_env=False, on_retry=on_retry, new_seat=new_seat,
                              seats_folder=seats_folder)


def seconds_field(text: str, what: str, default: float | None) -> float | None:
    """A timer field of the Host form: blank gives ``default``; ``off`` (or ``none``, ``0``) no
    limit; else seconds, 1 to 3600.  ValueError saying what is allowed."""
    text = text.strip().lower()
    if not text:
        return default
    if text in ("off", "none", "0"):
        return None
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"the {what} timer is a number of seconds (1 to 3600) or 'off'") from None
    if not 1 <= v <= 3600:
        raise ValueError(f"the {what} timer is 1 to 3600 seconds, or 'off'")
    return v


class _LanForm(BaseScreen):
    """What the Host and Join forms share: the ``#go`` and ``#back`` buttons with the status
    line under them (:meth:`compose_buttons`); ``#go`` calls the form's :meth:`go`."""

    BINDINGS = [Binding("escape", "back", "Back")]

    def compose_buttons(self, go: str) -> ComposeResult:
        with Horizontal(classes="menu-buttons"):
            yield Button(go, id="go", variant="primary")
            yield Button("Back", id="back")
        yield Static("", classes="lan-error", markup=False)

    def compose_name_password(self) -> ComposeResult:
        """The ``#name`` and ``#password`` rows of a form that joins a table (the Join form and
        the browser's seat form, ``mahjong_tui/net/web.py``)."""
        with Horizontal(classes="menu-row"):
            yield Label("Name", classes="menu-label")
            yield Input(placeholder="shown to the table", id="name", compact=True, max_length=24)
        with Horizontal(classes="menu-row"):
            yield Label("Password", classes="menu-label")
            yield Input(placeholder="if the table has one", id="password", compact=True, password=True)

    def go(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "back":
            self.dismiss(None)
        else:
            self.go()

    def report(self, text: str) -> None:
        """Show why it could not be done; the buttons work again."""
        self._status(text, busy=False)

    def busy(self, text: str) -> None:
        """Show what is being done; only Back works meanwhile."""
        self._status(text, busy=True)

    def _status(self, text: str, busy: bool) -> None:
        self.query_one(".lan-error", Static).update(text)
        for b in self.query(Button):
            b.disabled = busy and b.id != "back"

    def action_back(self) -> None:
        self.dismiss(None)


class HostScreen(VariantChoice, _LanForm):
    """Host a LAN table: variant, seats (human here, remote, AI), port, bind address,
    password, seed, hands."""

    def __init__(self, *, variant: str = "classic", options: dict | None = None, bot_delay: float | None = None):
        super().__init__(classes="menu")
        self.init_variants(variant)
        self.initial_options = dict(options or {})  # the menu's choice, for the first variant shown
        self.bot_delay = bot_delay  # the menu's bot pause (None: the app's, from the settings)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="lan-form"):
            yield Static("Host a LAN table  ·  this terminal plays the Human seats", id="menu-title")
            yield from self.compose_variant_row()
            yield from self.compose_options()
            with Horizontal(classes="menu-row"):
                yield Label("Seats", classes="menu-label")
                for i, default in enumerate(("human", "remote", "remote", "remote")):
                    with Vertical(classes="seat-choice"):
                        yield Label(SEAT_NAMES[i], classes="seat-name")
                        yield Select(HOST_SEAT_CHOICES, value=default, allow_blank=False, compact=True, id=f"seat{i}")
            with Horizontal(classes="menu-row"):
                yield Label("Port", classes="menu-label")
                yield Input(value=str(DEFAULT_PORT), id="port", compact=True, type="integer")
                yield Label("Listen on", classes="menu-label2")
                yield Input(value="127.0.0.1", id="bind", compact=True)
            with Horizontal(classes="menu-row"):
                yield Label("Turn", classes="menu-label")
                yield Input(placeholder=f"{DEFAULT_TURN_TIMEOUT:g} s", id="turn-timeout", compact=True)
                yield Label("Claim", classes="menu-label2")
                yield Input(placeholder=f"{DEFAULT_CLAIM_TIMEOUT:g} s", id="claim-timeout", compact=True)
            with Horizontal(classes="menu-row"):
                yield Label("Password", classes="menu-label")
                yield Input(placeholder="none", id="password", compact=True, password=True)
                yield Label("Seed", classes="menu-label2")
                yield Input(placeholder="random", id="seed", compact=True, type="integer")
                yield Label("Hands", classes="menu-label2")
                yield Input(placeholder="match", id="hands", compact=True, type="integer")
            yield Static("Listen on 0.0.0.0 to let other machines join (set a password on a shared network). "
                         "Turn, Claim: the seconds a player has (or off); then a bot plays that decision.",
                         classes="dim lan-note")
            yield from self.compose_buttons("Host")
        yield Footer()

    def on_mount(self) -> None:
        self.show_options(self.initial_options)
        self.query_one("#go", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant":
            self.variant_changed()

    def namespace(self) -> argparse.Namespace:
        q = self.query_one
        seats = [str(q(f"#seat{i}", Select).value) for i in range(4)]
        port_text = q("#port", Input).value.strip()
        seed_text = q("#seed", Input).value.strip()
        hands_text = q("#hands", Input).value.strip()
        port = int(port_text) if port_text else DEFAULT_PORT
        if not 0 < port < 65536:
            raise ValueError("the port is a number from 1 to 65535")
        hands = int(hands_text) if hands_text else None
        if hands is not None and hands < 1:
            raise ValueError("hands must be at least 1")
        if "human" not in seats:
            raise ValueError("make at least one seat Human: that is you, at this terminal")
        if "remote" not in seats:
            raise ValueError("make at least one seat Remote: a player who joins over the network")
        turn = seconds_field(q("#turn-timeout", Input).value, "turn", DEFAULT_TURN_TIMEOUT)
        claim = seconds_field(q("#claim-timeout", Input).value, "claim", DEFAULT_CLAIM_TIMEOUT)
        return host_namespace(str(q("#variant", Select).value), seats, port=port,
                              bind=q("#bind", Input).value.strip() or "127.0.0.1",
                              password=q("#password", Input).value or None,
                              seed=int(seed_text) if seed_text else None, hands=hands,
                              options=self.chosen_options(), turn_timeout=turn, claim_timeout=claim,
                              bot_delay=self.bot_delay if self.bot_delay is not None
                              else float(getattr(self.app, "bot_delay", 0.5)))

    def go(self) -> None:
        try:
            ns = self.namespace()
        except ValueError as exc:
            self.report(f"Check the form: {exc}")
            return
        self.busy(f"Opening the table on {ns.bind}:{ns.port} …")
        self.app.start_lan("host", ns, self.report)


class JoinScreen(_LanForm):
    """Join a LAN table: HOST:PORT, a name, the table password, a seat token to rejoin."""

    def compose_body(self) -> ComposeResult:
        with Vertical(id="lan-form"):
            yield Static("Join a LAN table", id="menu-title")
            with Horizontal(classes="menu-row"):
                yield Label("Address", classes="menu-label")
                yield Input(placeholder=f"HOST:PORT, e.g. 192.168.1.5:{DEFAULT_PORT}", id="address", compact=True)
            yield from self.compose_name_password()
            with Horizontal(classes="menu-row"):
                yield Label("Seat token", classes="menu-label")
                yield Input(placeholder="blank: the seat kept on this machine for that table, else a free one",
                            id="token", compact=True)
            with Horizontal(classes="menu-row"):
                yield Label("", classes="menu-label")
                yield Checkbox("Take a new seat (not the one kept for that table)", id="new-seat", compact=True)
            yield from self.compose_buttons("Join")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#address", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.go()

    def go(self) -> None:
        q = self.query_one
        address = q("#address", Input).value.strip()
        if not address:
            self.report("Type the table's address: HOST:PORT (the host's screen shows it)")
            return
        saves = getattr(self.app, "saves_dir", None)
        ns = join_namespace(address, name=q("#name", Input).value.strip(), password=q("#password", Input).value,
                            token=q("#token", Input).value.strip(), on_retry=self.busy,
                            new_seat=q("#new-seat", Checkbox).value,
                            seats_folder=saves() / "lan-seats" if saves is not None else None)
        self.busy(f"Connecting to {address} …")
        self.app.start_lan("join", ns, self.report)
