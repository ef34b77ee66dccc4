"""The Textual app: main menu, the table, results, rules, replay (issue 3).

Entry point: :func:`run_app` (called by ``mahjong-tui``, ``play``, ``resume``, ``replay``,
``host`` and ``join``; see :mod:`mahjong_tui.ui.netsession` for LAN play).

Choices written down here:

- The face set is chosen once, at start-up, from ``--faces`` / ``--ascii`` / the locale and the
  terminal width (:func:`mahjong_tui.ui.faces.choose_faces`): a one-line set and, unless
  ``--faces`` names a one-line set, a boxed one that the table uses where it has room
  (:class:`~mahjong_tui.ui.widgets.areas.TableLayout`); only the variant's highest rank can
  widen the one-line set (Uzje), and that is decided when a game starts.
- Saved games go to :func:`mahjong_tui.paths.saves_dir` (``$MAHJONG_TUI_SAVES``, else
  ``saves`` in the platform's data folder: ``~/.local/share/mahjong-tui/saves`` on Linux); the
  quit dialog lets the player change the path.
  A local match is journalled there from its first move (autosave: a closed terminal or a
  killed process loses nothing; :class:`~mahjong_tui.ui.session.GameSession`); the file is
  deleted when the player leaves without saving.
- The player's settings (:mod:`mahjong_tui.config`, the menu's Settings screen) are read once
  when the app starts; the command line wins over them (``--faces``/``--ascii``,
  ``--bot-delay``).  A settings file that cannot be used is one line in a notice and the
  defaults.  Settings changed on the Settings screen apply to the next table: its face set and
  palette, its bots' pause, auto-draw (where the next player may take any discard) and the bell
  on one's turn (:meth:`MahjongApp.your_turn`).
- A game started from the command line (``play``, ``resume``, ``replay``, ``host``, ``join``)
  leaves the app when the player leaves the table; a game started from the menu goes back to
  the menu.
- ``host`` and ``join`` connect before the first screen is drawn, in the event loop the app
  then runs in: a table that cannot be reached or refuses us is one line on stderr and exit
  status 2, like any bad argument.  On the way out the command prints how to get back to the
  table (the seat token, or the host's journal).
- ``kill PID`` (SIGTERM) or a hang-up (SIGHUP) ends the app as leaving it does: the terminal is
  put back (no alternate screen, no mouse reporting; before, it stayed so until ``reset``), the
  game stops, and its journal is kept as it is, so ``mahjong-tui resume`` goes on from the last
  move (:meth:`MahjongApp.stop_on_signal`).  The exit status is 128 + the signal's number.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import Mapping, Sequence

from textual.app import App
from textual.events import Resize

from ..config import Settings, load_settings, save_settings
from ..engine.log import GameLog
from ..errors import LogError, MahjongError
from ..paths import saves_dir
from ..seats import AI_LEVELS
from ..variant import Variant, load_variant
from .faces import FaceSetError, choose_faces
from .palette import COLOUR_BLIND, apply_palette
from .session import GameSession, journal_in_use
from .widgets.art import TileArt
from .widgets.misc import MIN_HEIGHT, MIN_WIDTH, TooSmall

#: the signals that end the app cleanly (:meth:`MahjongApp.stop_on_signal`)
STOP_SIGNALS = ("SIGTERM", "SIGHUP")

SERVE_MESSAGE = "serve has no table screen: run it as  mahjong-tui serve  (or play here with  mahjong-tui host)"


class UIError(MahjongError):
    """A table that cannot be opened as asked (bad seats, a finished game to resume, ...)."""


def check_seats(seats: Sequence[str]) -> list[str]:
    """Seats for a local table; raises UIError for ``remote`` (needs LAN play) or an unknown
    AI level."""
    out = []
    for s in seats:
        kind, _, level = s.partition(":")
        if kind == "remote":
            raise UIError("seat 'remote' is a player over the network: host a LAN table with "
                          "mahjong-tui host --seats ...; at a local table use human or ai[:easy|normal|strong]")
        if kind == "ai" and level and level not in AI_LEVELS:
            raise UIError(f"unknown AI level {level!r} in seat {s!r}; levels: {', '.join(AI_LEVELS)}")
        out.append(s)
    if len(out) != 4:
        raise UIError(f"a table has 4 seats, got {len(out)}")
    return out


class MahjongApp(App):
    """mahjong-tui."""

    CSS_PATH = "app.tcss"
    TITLE = "mahjong-tui"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, *, command: str | None = None, variant: str = "classic", seats: Sequence[str] | None = None,
                 seed: int | None = None, hands: int | None = None, bot_delay: float | None = None,
                 faces: str | None = None, ascii: bool = False, file: str | None = None,
                 log: GameLog | None = None, env: Mapping[str, str] | None = None, width: int | None = None,
                 session: GameSession | None = None, options: Mapping[str, object] | None = None,
                 names: Sequence[str | None] | None = None):
        super().__init__()
        #: the players' names by seat (``play --names``; None or "": the usual name)
        self.names = list(names) if names is not None else None
        self.command = command
        self.variant_ref = variant
        self.options = dict(options or {})  # variant options of ``play`` (``--option``)
        self.seats = list(seats or ["human", "ai", "ai", "ai"])
        self.seed = seed
        self.hands = hands
        self.file = file
        self.game_log = log
        self.env = dict(os.environ if env is None else env)
        #: the settings file's settings, and what was wrong with it (shown once mounted)
        self.settings, self.settings_problem = load_settings(self.env)
        #: what the command line asked for (None: not given, the settings decide)
        self.cli_faces = faces
        self.cli_bot_delay = bot_delay
        self.ascii = ascii
        self.start_width = width if width is not None else shutil.get_terminal_size((80, 24)).columns
        self.privacy_guard = 0.3
        #: seconds a hot-seat call window stays open (ui/session.py, "Claim rounds"); tests set it
        self.call_seconds = 1.5
        self.saved_path: str | None = None
        self.game_error: str | None = None  # traceback of a game that stopped on an error
        self._arts: dict[int, TileArt] = {}
        self.session: GameSession | None = None
        self._preset = session  # built by build_app, so that errors show before the screen
        #: the signal that ended the app (``"SIGTERM"``), and the journal it left to resume
        self.stopped_by: str | None = None
        self.stopped_journal: Path | None = None

    # -- set-up -----------------------------------------------------------------------------
    @property
    def faces_request(self) -> str | None:
        """The face set asked for: ``--faces``, else the settings' (None: by the terminal)."""
        if self.cli_faces is not None:
            return self.cli_faces
        return None if self.settings.faces == "auto" else self.settings.faces

    @property
    def bot_delay(self) -> float:
        """Seconds the bots of a local table pause: ``--bot-delay``, else the settings'."""
        return self.settings.bot_pause if self.cli_bot_delay is None else self.cli_bot_delay

    def art_for(self, variant: Variant) -> TileArt:
        """The face sets (and palette) for this terminal at the variant's highest rank: chosen
        once, again after the settings change.  Raises FaceSetError for a bad ``--faces``; a
        face set of the settings that cannot be loaded gives the automatic choice and a notice."""
        max_rank = int(variant.tiles_rules["ranks"][1])
        if max_rank not in self._arts:
            def choose(request: str | None):
                return choose_faces(request, self.start_width, self.ascii, self.env, max_rank=max(9, max_rank))

            try:
                faces = choose(self.faces_request)
            except FaceSetError as exc:
                if self.cli_faces is not None:
                    raise
                self._settings_notice(f"{exc}; the faces are chosen by the terminal")
                faces = choose(None)
            faces = apply_palette(faces, COLOUR_BLIND if self.settings.colour_blind else None)
            self._arts[max_rank] = TileArt(faces.small, faces.large, forced=faces.forced)
        return self._arts[max_rank]

    def _settings_notice(self, text: str) -> None:
        """Say ``text`` about the settings: a notice now, or once the app is mounted."""
        if self.is_running:
            self.notify(text, title="Settings", severity="warning", timeout=15)
        else:
            self.settings_problem = f"{self.settings_problem}\n{text}" if self.settings_problem else text

    def apply_settings(self, settings: Settings) -> str | None:
        """Use ``settings`` from now on (the next table: faces, palette, bots' pause,
        auto-draw, bell) and write them to the settings file; returns None, or one line
        saying why the file could not be written (they apply to this run all the same)."""
        if settings != self.settings:
            self._arts.clear()  # chosen again for the next table
        self.settings = settings
        try:
            save_settings(settings, self.env)
        except OSError as exc:
            return f"The settings could not be saved ({exc.strerror or exc}); they apply until you quit."
        return None

    def your_turn(self) -> None:
        """A seat at this keyboard is to play (the table calls this once a turn): rings the
        terminal bell when the settings ask for it."""
        if self.settings.bell:
            self.bell()

    def start_auto_draw(self, session) -> None:
        """Turn auto-draw on for the seats at this keyboard of a new table when the settings
        ask for it and the variant lets the next player take any discard (Classic); a resumed
        match keeps its own."""
        if not self.settings.auto_draw or getattr(session, "resumed_from", None) is not None:
            return
        if not session.variant.claims.get("next_player_pickup") or session.finished:
            return
        for seat in session.humans:
            session.set_auto_draw(seat, True)

    def saves_dir(self) -> Path:
        return saves_dir(self.env)

    def default_save_path(self, variant_id: str) -> str:
        return str(self.saves_dir() / f"{variant_id}-{datetime.now():%Y%m%d-%H%M%S}.jsonl")

    def on_mount(self) -> None:
        if not self.is_headless:
            self._catch_signals()
        if self.settings_problem:
            self.notify(self.settings_problem, title="Settings", severity="warning", timeout=15)
        self._check_size(self.size.width, self.size.height)
        if self.command in ("host", "join") and self._preset is not None:
            self.start_game(self._preset.variant.id, [], direct=True, session=self._preset)
        elif self.command in ("play", "resume") and self._preset is not None:
            self.start_game(self.variant_ref, self.seats, direct=True, session=self._preset)
        elif self.command == "play":
            self.start_game(self.variant_ref, self.seats, seed=self.seed, hands=self.hands,
                            bot_delay=self.bot_delay, direct=True, options=self.options, names=self.names)
        elif self.command in ("resume", "replay") and self.game_log is not None:
            self._open_log(self.game_log, self.command, direct=True, path=self.file)
        else:
            from .screens.menu import MenuScreen

            self.push_screen(MenuScreen(variant=self.variant_ref))

    # -- SIGTERM / SIGHUP ---------------------------------------------------------------------
    def _catch_signals(self) -> None:
        """Have SIGTERM and SIGHUP end the app through :meth:`stop_on_signal` (the default
        action kills the process with the terminal still in the app's modes)."""
        loop = asyncio.get_running_loop()
        for name in STOP_SIGNALS:
            sig = getattr(signal, name, None)
            if sig is None:  # no SIGHUP on Windows
                continue
            try:
                loop.add_signal_handler(sig, self.stop_on_signal, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # no signal handlers here
                pass

    def stop_on_signal(self, sig: int) -> None:
        """End the app because of signal ``sig``: stop the game (its journal stays, every move
        in it) and exit with status 128 + ``sig``; Textual then puts the terminal back."""
        if self.stopped_by is not None:
            return
        self.stopped_by = signal.Signals(sig).name
        session = self.session
        if session is not None:
            self.stopped_journal = session.journal_path
            try:
                session.stop()
            except Exception:  # noqa: BLE001 - leaving anyway
                pass
        self.exit(return_code=128 + sig)

    # -- live resize and the 80x24 minimum ---------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "-too-small")
        self.set_class(width < 110, "-narrow")  # e.g. the menu's option selects two a row
        if small:
            text = (f"The table needs more room.\n\nThis terminal is {width}x{height}; "
                    f"please make it at least {MIN_WIDTH}x{MIN_HEIGHT}.")
            for screen in self.screen_stack:
                for w in screen.query(TooSmall):
                    w.update(text)

    # -- games ------------------------------------------------------------------------------
    def new_session(self, variant_ref: str, seats: Sequence[str], *, seed: int | None, hands: int | None,
                    bot_delay: float, log: GameLog | None = None,
                    options: Mapping[str, object] | None = None,
                    names: Sequence[str | None] | None = None) -> GameSession:
        """Build a session (raises MahjongError for a bad variant, options, seats or log).
        ``options``: variant options (:meth:`Variant.with_options`); a ``log`` brings its own.
        ``names``: the human seats' names by seat (None or "": the usual name)."""
        import random

        seats = check_seats(seats)
        if log is not None:
            variant = log.load_variant()
            return GameSession(variant, log.seed, seats, hands=log.hands, bot_delay=bot_delay,
                               variant_ref=log.variant, log=log)
        variant = load_variant(variant_ref, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        return GameSession(variant, seed, seats, hands=hands, bot_delay=bot_delay, variant_ref=variant_ref,
                           names=names)

    def start_game(self, variant_ref: str, seats: Sequence[str], *, seed: int | None = None,
                   hands: int | None = None, bot_delay: float | None = None, direct: bool = False,
                   session: GameSession | None = None, options: Mapping[str, object] | None = None,
                   names: Sequence[str | None] | None = None) -> None:
        from .screens.table import TableScreen

        if session is None:
            try:
                session = self.new_session(variant_ref, seats, seed=seed, hands=hands,
                                           bot_delay=self.bot_delay if bot_delay is None else bot_delay,
                                           options=options, names=names)
            except Exception as exc:  # noqa: BLE001 - a bad choice, or a bot that cannot start
                self.notify(f"{type(exc).__name__}: {exc}" if not isinstance(exc, MahjongError) else str(exc),
                            title="Cannot start the game", severity="error", timeout=10)
                if direct:
                    self.exit(2)
                return
        self.session = session
        session.call_seconds = self.call_seconds
        self.start_auto_draw(session)
        if not session.network and not session.finished:
            # a resumed match goes on in its own file; else (or if that cannot be written) a
            # new file in the saves folder
            problem = session.continue_journal() if session.resumed_from is not None else None
            if session.journal_path is None:
                problem = session.open_journal(self.default_save_path(session.variant.id))
            if problem:
                self.notify(f"Autosave is off: {problem}. Save with q before you leave.",
                            severity="warning", timeout=10)
        self.push_screen(TableScreen(session, self.art_for(session.variant),
                                     on_leave=lambda saved: self._leave_table(saved, direct)))

    def start_lan(self, kind: str, args, report) -> None:
        """From the menu: host (``kind`` ``'host'``) or join a LAN table with ``args`` (the
        command line's arguments); ``report(text)`` shows why it could not be done."""
        from .netsession import open_host, open_join

        async def go() -> None:
            try:
                session = await (open_host(args) if kind == "host" else open_join(args))
            except MahjongError as exc:
                report(str(exc))
                return
            except Exception as exc:  # noqa: BLE001 - shown, not raised out of the menu
                report(f"{type(exc).__name__}: {exc}")
                return
            try:
                self.art_for(session.variant)
            except Exception as exc:  # noqa: BLE001
                await session.aclose()
                report(str(exc))
                return
            self.start_game(session.variant.id, [], session=session)

        self.run_worker(go(), name=f"lan-{kind}", exclusive=False)

    def _leave_table(self, saved: str | None, direct: bool) -> None:
        if saved:
            self.saved_path = saved
            self.notify(f"Saved: mahjong-tui resume {saved}")
        self.session = None
        if direct:
            self.exit(0)
            return
        from .screens.menu import MenuScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()

    def open_saved(self, path: Path, mode: str) -> str | None:
        """Open a saved game to ``replay`` or ``resume``; returns an error message or None."""
        try:
            log = GameLog.load(path)
            log.load_variant()
        except MahjongError as exc:
            return str(exc)
        try:
            self._open_log(log, mode, direct=False, path=path)
        except MahjongError as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - e.g. a bot that cannot start
            return f"{type(exc).__name__}: {exc}"
        return None

    def _open_log(self, log: GameLog, mode: str, direct: bool, path: str | Path | None = None) -> None:
        if mode == "replay":
            from .screens.replay import ReplayScreen

            refuse_if_in_play(path, "replay")

            variant = log.load_variant()
            self.push_screen(ReplayScreen(log, self.art_for(variant),
                                          on_leave=lambda _s: self._leave_table(None, direct)))
            return
        self.start_game(log.variant, log.seats, direct=direct, session=self.resume_session(log, path))

    def resume_session(self, log: GameLog, path: str | Path | None) -> GameSession:
        """The session that continues ``log`` (read from ``path``, where saving goes back to).
        Raises MahjongError for a finished match, seats that cannot sit here or a bad log."""
        check_seats(log.seats)
        refuse_if_in_play(path, "resume")
        if log.replay().phase == "match_over":
            raise LogError(f"{path or 'the log'}: this match is over; watch it with: mahjong-tui replay {path or 'FILE'}")
        session = self.new_session(log.variant, log.seats, seed=log.seed, hands=log.hands,
                                   bot_delay=self.bot_delay, log=log)
        session.resumed_from = Path(path) if path is not None else None
        return session


def refuse_if_in_play(path: str | Path | None, mode: str) -> None:
    """Raise :class:`UIError` when ``path`` is the journal of a game being played in another
    window (:func:`~mahjong_tui.ui.session.journal_in_use`): it is not resumed there too (two
    windows writing one match), nor replayed (``mode`` ``"replay"``: a replay shows every hand,
    which the players of a hot-seat table hide from each other)."""
    if path is None or not journal_in_use(path):
        return
    why = ("go on there, or leave it (q) first" if mode == "resume"
           else "a replay shows every hand; watch it once that game is over or left")
    raise UIError(f"{path} is being played in another mahjong-tui window: {why}")


def saved_games(folder: Path) -> list[Path]:
    """The game logs (``*.jsonl``) in ``folder``, most recently written first ([] if there is
    no such folder).  A name that cannot be looked at (a link to nothing) comes last; opening
    it says why it cannot be opened."""
    def written(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(folder.glob("*.jsonl"), key=written, reverse=True) if folder.is_dir() else []


def latest_unfinished(folder: Path, newest: int | None = None) -> Path:
    """The most recently written game log in ``folder`` whose match is not over and that is
    played at one keyboard (``resume`` without a file: the game a closed terminal left; a LAN
    table's log, with ``remote`` seats, comes back with ``host --log``).  Raises
    :class:`UIError` saying where it looked when there is none.  A game being played in
    another window (:func:`~mahjong_tui.ui.session.journal_in_use`) is passed over.
    ``newest``: look at that many of the most recent files only (each is replayed)."""
    in_play = 0
    for p in saved_games(folder)[:newest]:
        if journal_in_use(p):
            in_play += 1
            continue
        try:
            log = GameLog.load(p)
            check_seats(log.seats)  # UIError for remote seats or ones that cannot sit here
            if log.replay().phase != "match_over":
                return p
        except MahjongError:
            continue
    elsewhere = f" to resume ({in_play} being played in another window)" if in_play else ""
    raise UIError(f"no unfinished game in {folder}{elsewhere}; name one: mahjong-tui resume FILE")


def build_app(args) -> MahjongApp:
    """The app for parsed command-line ``args`` (CLI.md); raises MahjongError (the CLI
    prints it and exits 2) before any screen is drawn when the arguments cannot work."""
    command = getattr(args, "command", None)
    faces = getattr(args, "faces", None)
    ascii_ = bool(getattr(args, "ascii", False))
    if command == "play":
        from ..cli import variant_from_args

        seats = check_seats(args.seats)
        variant = variant_from_args(args)  # the --option overrides too (a bad one: exit 2 here)
        hands = getattr(args, "hands", None)
        if hands is not None and hands < 1:
            raise UIError("--hands must be at least 1")
        delay = getattr(args, "bot_delay", None)  # None: the settings' bot pause
        if delay is not None and delay < 0:
            raise UIError("--bot-delay must be 0 or more seconds")
        options = dict(variant.applied_options)
        from ..cli import seat_names

        names = seat_names(getattr(args, "names", None), seats)  # a bad --names: exit 2 here
        app = MahjongApp(command="play", variant=args.variant, seats=seats, seed=args.seed, hands=hands,
                         bot_delay=delay, faces=faces, ascii=ascii_, options=options, names=names)
        app.art_for(variant)  # a bad --faces fails here, before the screen opens
        app._preset = app.new_session(args.variant, seats, seed=args.seed, hands=hands, bot_delay=app.bot_delay,
                                      options=options, names=names)
        return app
    if command == "resume" and args.file is None:
        args.file = str(latest_unfinished(saves_dir()))  # where the app looks too (paths.saves_dir)
    if command == "replay":
        refuse_if_in_play(args.file, "replay")  # before a screen is drawn (resume_session: resume)
    if command in ("resume", "replay"):
        log = GameLog.load(args.file)
        variant = log.load_variant()
        if command == "replay":
            log.replay()  # raises LogError now if the log does not replay
        app = MahjongApp(command=command, variant=log.variant, seats=log.seats, faces=faces, ascii=ascii_,
                         file=args.file, log=log)
        app.art_for(variant)
        if command == "resume":
            app._preset = app.resume_session(log, args.file)
        return app
    app = MahjongApp(command=None, faces=faces, ascii=ascii_)
    app.art_for(load_variant("classic"))
    return app


def run_net_app(args) -> int:
    """``mahjong-tui host`` / ``mahjong-tui join HOST:PORT``: open the LAN session (raises
    MahjongError before any screen is drawn if it cannot), run the table in the same event
    loop, and on the way out say how to get back to the table."""
    from .netsession import open_host, open_join

    command = args.command
    app = MahjongApp(command=command, faces=getattr(args, "faces", None), ascii=bool(getattr(args, "ascii", False)))

    async def main():
        session = await (open_host(args) if command == "host" else open_join(args))
        try:
            app.art_for(session.variant)  # a bad --faces fails here, before the screen opens
            app._preset = session
            await app.run_async()
        finally:
            await session.aclose()
        return session

    session = asyncio.run(main())
    if app.stopped_by:
        _say_stopped(app)
    if app.game_error:
        print(app.game_error, file=sys.stderr)
    if not session.finished:
        text = exit_rejoin_text(session, command)
        if text:
            try:
                print(text)
            except OSError:  # the terminal hung up (SIGHUP)
                pass
    rc = app.return_code
    return rc if isinstance(rc, int) else 0


def exit_rejoin_text(session, command: str) -> str:
    """What ``host``/``join`` prints on leaving an unfinished match: the host's resume
    command; a joiner's ways back from :meth:`NetSession.rejoin_lines` (the short ``join
    HOST:PORT`` first when this machine keeps the seat token, the token form as a fallback).
    ``""`` when there is no way back to print."""
    if command == "host":
        how = session.rejoin_command()
        return f"Continue this match with: {how}" if how else ""
    lines = session.rejoin_lines()
    if not lines or not lines[0][0]:
        return ""
    if len(lines) == 1:
        return f"Rejoin your seat with: {lines[0][0]}"
    return "Rejoin your seat with:\n" + "\n".join(f"  {t}" if cmd else t for t, cmd in lines)


def _say_stopped(app: MahjongApp) -> None:
    """One line on stderr: the signal that ended the app, and how to go on with its game (a
    hang-up may have taken the terminal: then nothing is said)."""
    how = f"; continue with: mahjong-tui resume {app.stopped_journal}" if app.stopped_journal else ""
    try:
        print(f"mahjong-tui: stopped by {app.stopped_by}{how}", file=sys.stderr)
    except OSError:
        pass


def run_app(args) -> int:
    """Run the UI for ``args`` (an argparse Namespace of ``mahjong_tui.cli``); returns the exit
    status.  ``serve`` (headless, not ours): one line on stderr, status 2."""
    command = getattr(args, "command", None)
    if command == "serve":
        print(f"mahjong-tui: {SERVE_MESSAGE}", file=sys.stderr)
        return 2
    if command in ("host", "join"):
        return run_net_app(args)
    app = build_app(args)
    app.run()
    if app.stopped_by:
        _say_stopped(app)
    if app.game_error:
        print(app.game_error, file=sys.stderr)
    if app.saved_path:
        print(f"Game saved to {app.saved_path}\nContinue it with: mahjong-tui resume {app.saved_path}")
    rc = app.return_code
    return rc if isinstance(rc, int) else 0
