"""Entry points of the LAN commands (``CLI.md``): ``serve`` (headless table),
``join --bot`` (a bot over the wire), and :func:`start_host` for the TUI's ``host``.

No Textual here.  ``mahjong_tui.cli`` adds the options of :func:`add_net_arguments` to its
``host`` / ``serve`` / ``join`` parsers and calls :func:`cmd_serve` / :func:`cmd_join_bot`;
``python -m mahjong_tui.net serve|join ...`` runs the same without the main CLI.

Errors a user can cause raise :class:`~mahjong_tui.errors.MahjongError` subclasses (the CLI
prints one line and exits 2).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import Table
from ..engine.log import GameLog
from ..errors import LogError, MahjongError
from ..journal import JournalClaim
from ..paths import private_dir
from .args import PASSWORD_FILE_HINT, SECRET_ENV, add_net_arguments, resolve_secrets
from .client import NetClient, parse_address, play_bot
from .protocol import NetError, check_verifier, password_verifier
from .seatstore import seat_store
from .server import NetServer, stderr_note


# ----------------------------------------------------------------------------------------
# arguments (add_net_arguments lives in .args: cheap to import for the main CLI's parser)
# ----------------------------------------------------------------------------------------
__all__ = ["add_net_arguments", "build_parser", "build_server", "cmd_join_bot", "cmd_serve", "HostSession",
           "start_host", "main"]


def build_parser() -> argparse.ArgumentParser:
    """``python -m mahjong_tui.net``: ``serve`` and ``join --bot`` with the options of the main
    CLI (``CLI.md``)."""
    from ..cli import _seats, add_option_argument  # the main CLI's parsers: one rule for both

    p = argparse.ArgumentParser(prog="python -m mahjong_tui.net", description="LAN table server and bot client")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sp = sub.add_parser("serve", help="serve a LAN table headless")
    sp.add_argument("--variant", default="classic")
    sp.add_argument("--seats", type=_seats, default=_seats("remote,remote,remote,remote"))
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--hands", type=int, default=None)
    sp.add_argument("--port", type=int, default=7777)
    sp.add_argument("--bind", default="127.0.0.1")
    sp.add_argument("--password", default=None)
    add_option_argument(sp)
    add_net_arguments(sp, "serve")
    sp = sub.add_parser("join", help="join a LAN table as a bot")
    sp.add_argument("address", metavar="HOST:PORT")
    sp.add_argument("--name", default=None)
    sp.add_argument("--password", default=None)
    sp.add_argument("--bot", default="normal", metavar="LEVEL")
    add_net_arguments(sp, "join")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return cmd_serve(args) if args.command == "serve" else cmd_join_bot(args)
    except MahjongError as exc:
        print(f"mahjong-tui: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


# ----------------------------------------------------------------------------------------
# building a server from arguments
# ----------------------------------------------------------------------------------------
def default_log_path(port: int) -> Path:
    """A new journal's path: ``net/`` in platformdirs' user state folder for ``mahjong-tui``
    (Linux: ``$XDG_STATE_HOME``, else ``~/.local/state``), made 0700 (journals hold the
    seed), the file named by the time and the port."""
    import platformdirs

    from ..paths import APP_NAME

    base = platformdirs.user_state_path(APP_NAME, appauthor=False) / "net"
    private_dir(base)
    return base / f"{time.strftime('%Y%m%d-%H%M%S')}-{port}.jsonl"


def build_server(args: argparse.Namespace, *, local_humans: bool, note=stderr_note,
                 on_hand_end=None) -> tuple[NetServer, str]:
    """The :class:`NetServer` for ``host`` (``local_humans``: ``human`` seats are reserved for
    this terminal) or ``serve`` (``human`` seats are refused), from the parsed arguments; a new
    match, or the unfinished match of ``--log FILE``.  Returns the server (not yet listening)
    and a one-line description.

    The journal is locked here (:class:`~mahjong_tui.journal.JournalClaim`) but written only
    when the server starts listening: a journal another table plays is refused untouched
    (:class:`~mahjong_tui.journal.JournalInUse`), and a server that cannot bind its port
    leaves it as it was.  Raises :class:`MahjongError` for a bad variant, seat list, log,
    number of hands or secret (the password comes from ``--password``, ``--password-file`` or
    ``$MAHJONG_TUI_PASSWORD``: :func:`~mahjong_tui.net.args.resolve_secrets`)."""
    resolve_secrets(args)
    if getattr(args, "hands", None) is not None and args.hands < 1:
        raise NetError(f"--hands {args.hands}: a match has at least 1 hand")
    log_arg = getattr(args, "log", None)
    path = Path(log_arg) if log_arg else default_log_path(args.port)
    # the journal is locked before anything is decided and written only once the port is
    # bound (NetServer.start): a second server on a journal being played refuses and changes
    # nothing, and one that cannot listen leaves the file as it was
    try:
        new_match = not path.exists() or path.stat().st_size == 0
    except OSError:
        new_match = True
    if new_match:
        _check_seats(args.seats, local_humans)  # before a file is made
    claim = JournalClaim.take(path)
    try:
        server, what = _server_for(args, claim, local_humans=local_humans, note=note, on_hand_end=on_hand_end)
    except BaseException:
        claim.release()
        raise
    return server, what


def _check_seats(seats, local_humans: bool) -> None:
    """:class:`NetError` for a seat list ``host`` (``local_humans``) or ``serve`` cannot serve."""
    if not local_humans and any(s.split(":")[0] == "human" for s in seats):
        raise NetError("serve has no local player: seats are remote, ai or ai:LEVEL (use host to play here)")
    if local_humans and not any(s.split(":")[0] == "human" for s in seats):
        raise NetError("host plays at least one seat here: mark it human (or use serve)")
    if not any(s.split(":")[0] in ("remote", "human") for s in seats):
        raise NetError("a served table needs at least one remote seat (use play for a table of bots)")


def _server_for(args: argparse.Namespace, claim: JournalClaim, *, local_humans: bool, note,
                on_hand_end) -> tuple[NetServer, str]:
    from ..cli import variant_from_args

    path = claim.path
    if claim.text.strip():
        glog = GameLog.loads(claim.text, str(path))
        table = glog.replay()
        if table.phase == "match_over":
            raise LogError(f"{path}: the match in this log is over; nothing to resume (use a new --log FILE)")
        seats = list(glog.seats)
        what = f"resuming {path} at action {len(glog.actions)}"
    else:
        seats = list(args.seats)
        variant = variant_from_args(args)  # --variant with its --option overrides
        seed = args.seed if args.seed is not None else secrets.randbelow(2**53)
        table = Table(variant, seed, args.hands)
        glog = GameLog.for_table(table, variant_ref=args.variant, seats=seats)
        what = f"new match, journal {path}"
    _check_seats(seats, local_humans)
    claim.log = glog
    level = getattr(args, "standin", "normal")
    standin = "ai" if level in ("", "ai") else f"ai:{level}"
    try:
        server = NetServer(
            table, seats, journal=claim, password=args.password,
            turn_timeout=getattr(args, "turn_timeout", 60.0), claim_timeout=getattr(args, "claim_timeout", 20.0),
            bot_delay=getattr(args, "bot_delay", 0.3), standin=standin,
            start_after=getattr(args, "start_after", None), seat_file=str(path) + ".seats",
            on_hand_end=on_hand_end, on_note=note)
    except ValueError as exc:
        raise NetError(str(exc)) from None
    _check_password(server, server.password, resumed=bool(claim.text.strip()))
    return server, what


def _check_password(server: NetServer, password: str | None, resumed: bool) -> None:
    """A resumed match keeps its table password: refuse (:class:`NetError`) a resume without
    it, or with another one (the seat file keeps a salted verifier, never the password).  A
    new match, or one resumed with a password it did not have, records the one given."""
    seats = server.seat_file
    if resumed and isinstance(seats.password, dict):
        if password is None:
            raise NetError("this match was played with a table password: give it again with --password "
                           "(its players' clients refuse a table that asks for none)")
        if not check_verifier(password, seats.password):
            raise NetError("--password is not the password this match was played with; give that one")
        return
    seats.password = password_verifier(password) if password is not None else None


def hand_line(e: dict) -> str:
    """One line for a finished hand (``serve`` prints one per hand)."""
    n = e.get("hand", 0) + 1
    scores = " ".join(f"{s:g}" for s in e.get("scores", []))
    if e.get("result") != "win":
        return f"hand {n}: exhaustive draw; scores {scores}"
    parts = []
    for w in e.get("winners", []):
        how = "by self-draw" if e.get("self_draw") else (
            f"robbing seat {e['discarder'] + 1}'s kong" if e.get("robbed") else f"on seat {e['discarder'] + 1}'s discard")
        parts.append(f"seat {w['seat'] + 1} wins {w['value']:g} {w['unit']} ({w['form']}) {how}")
    return f"hand {n}: {'; '.join(parts)}; scores {scores}"


async def _listen(server: NetServer, args) -> tuple[str, int]:
    try:
        return await server.start(args.bind, args.port)
    except (OSError, OverflowError) as exc:  # OverflowError: a port over 65535 from a program
        raise NetError(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}; choose another --port "
                       "or --bind") from None


# ----------------------------------------------------------------------------------------
# serve
# ----------------------------------------------------------------------------------------
def _keep_in_history(server: NetServer) -> None:
    """Keep the finished match of ``server`` in the history (mahjong_tui/history.py), with
    the names its players joined under; one line on standard error says where (or why not)."""
    from ..history import record

    ref = server.journal.log.variant if server.journal is not None and server.journal.log is not None else None
    names = [st.get("name") for st in server.seats_status()]
    try:
        kept = record(GameLog.for_table(server.table, ref, list(server.seat_specs)), names)
    except OSError as exc:
        stderr_note(f"the match could not be kept in the history: {exc.strerror or exc}")
        return
    stderr_note(f"kept in the history: {kept} (mahjong-tui stats, mahjong-tui replay FILE)")


def cmd_serve(args: argparse.Namespace) -> int:
    """``mahjong-tui serve``: serve a table headless until the match ends.  Prints one line per
    hand on stdout; connection notes on stderr.  Returns 0.  Stopped (Ctrl-C) before the match
    is over, it says how to continue it, and lets ``KeyboardInterrupt`` through."""

    from ..variant import option_assignments

    resume: list[str] = []

    if getattr(args, "web", False):
        from .web import require_textual_serve

        require_textual_serve()  # one line and exit 2 before anything is written

    async def main() -> int:
        server, what = build_server(args, local_humans=False,
                                    on_hand_end=lambda e: print(hand_line(e), flush=True))
        host, port = await _listen(server, args)
        web = await _start_web(server, args, port, stderr_note)
        try:
            return await play(server, host, port, what, web)
        finally:
            if web is not None:
                await web.close()

    async def play(server, host, port, what, web) -> int:
        bind = f" --bind {args.bind}" if args.bind != "127.0.0.1" else ""
        pw = f" {PASSWORD_FILE_HINT}" if server.password else ""  # never --password: it shows in ps
        if server.journal is not None:
            web_opts = " --web" + (f" --web-port {web.address[1]}" if web is not None and web.address[1] != port + 1
                                   else "") if web is not None else ""
            resume.append(f"mahjong-tui serve --log {server.journal.path} --port {port}{bind}{pw}{web_opts}")
        v = server.table.variant
        opts = "".join(f" {a}" for a in option_assignments(v.applied_options))
        opts = f" (options:{opts})" if opts else ""
        stderr_note(f"serving {v.id}{opts} on {host}:{port} ({what}); seats {','.join(server.seat_specs)}; "
                    f"join with: mahjong-tui join {host}:{port}{pw}")
        if args.bind not in ("127.0.0.1", "localhost", "::1") and not args.password:
            stderr_note("warning: the table listens beyond this machine without --password")
        if web is not None:
            from .web import page_url

            stderr_note(f"browsers join at {page_url(web, _lan_host())} (at most {web.max_sessions} at once)")
        table = await server.run()
        if server.failure is not None:
            how = resume[0] if resume else "mahjong-tui serve --log FILE"
            resume.clear()
            raise LogError(f"{server.failure}; the table stopped and its players were told. Free space (or "
                           f"repair the folder), then continue the match with: {how}")
        stderr_note("match over: scores " + " ".join(f"{s:g}" for s in table.scores))
        resume.clear()
        _keep_in_history(server)
        return 0

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        if resume:
            stderr_note(f"stopped; continue the match with: {resume[0]}")
        raise


def _lan_host() -> str:
    """This machine's LAN address, for a page bound to every interface."""
    from .web import lan_host

    return lan_host()


async def _start_web(server: NetServer, args, port: int, note):
    """``--web``: the browser page for the table on ``port`` (:mod:`mahjong_tui.net.web`), or
    None; the table is closed when the page cannot be served (:class:`MahjongError`)."""
    if not getattr(args, "web", False):
        return None
    from .web import start_web

    try:
        return await start_web(args, port, note, title=f"mahjong-tui: {server.table.variant.name}")
    except BaseException:
        await server.close()
        raise


def _check_level(level: str) -> None:
    """Refuse an unknown bot level before taking a seat."""
    from ..ai.baseline import make_bot
    from ..variant import load_variant

    try:
        make_bot("ai" if level in ("", "ai") else f"ai:{level}", load_variant("classic"), 0, 0)
    except ValueError as exc:
        raise NetError(f"--bot {level}: {exc}") from None


# ----------------------------------------------------------------------------------------
# join --bot
# ----------------------------------------------------------------------------------------
def cmd_join_bot(args: argparse.Namespace) -> int:
    """``mahjong-tui join HOST:PORT --bot LEVEL``: play a seat with a bot, no UI.  Prints the
    seat and its token (for ``--token``) on stderr, one line per hand on stdout.  A busy or
    throttled table is tried again for ``--retry`` seconds, saying so on stderr."""
    host, port = parse_address(args.address)
    _check_level(args.bot)
    resolve_secrets(args)

    async def main() -> int:
        token = getattr(args, "token", None)
        store = seat_store(args)
        # rejoining a seat (a token given or kept) keeps its player's name unless --name says otherwise
        client = NetClient(host, port, name=args.name, password=args.password,
                           token=token, seat=getattr(args, "seat", None),
                           reconnect=getattr(args, "retry", 30.0), store=store,
                           fresh=bool(getattr(args, "new_seat", False)), default_name=f"bot-{args.bot}")
        welcome = await client.connect(retry=getattr(args, "retry", 30.0), on_retry=stderr_note)
        client.local_variant()  # NetError before playing if the rules differ
        stderr_note(f"{seated_words(client)} at seat {welcome['seat'] + 1} as {welcome['name']} (seat token "
                    f"{welcome['token']}; {kept_words(client, f'{host}:{port}')})")
        res = await play_bot(client, args.bot, delay=getattr(args, "bot_delay", 0.0),
                             on_hand_end=lambda e: print(hand_line(e), flush=True), on_bot_error=stderr_note)
        if not res["finished"]:
            raise NetError(f"left the table before the match ended: {res['closed']}")
        return 0

    return asyncio.run(main())


def seated_words(client: NetClient) -> str:
    """``seated`` / ``back in your seat`` / ... for the line that says where a join sat."""
    if client.kept == "used":
        return "back in the seat kept for this table"
    if client.kept == "stale":
        return "the kept seat token was no longer valid there: seated"
    return "seated"


def kept_words(client: NetClient, address: str) -> str:
    """How this player gets back to the seat: the kept token (``join ADDRESS`` again), else
    the token's file or environment variable (``--token`` would show in ps)."""
    if client.slot is not None and client.slot.token == client.token:
        return f"kept in {client.slot.path.parent}: 'mahjong-tui join {address}' rejoins this seat"
    why = f"{client.kept_problem}; " if client.kept_problem else ""
    return f"{why}rejoin with --token-file FILE or {SECRET_ENV['token']}=TOKEN: --token shows in ps"


# ----------------------------------------------------------------------------------------
# host (for the TUI)
# ----------------------------------------------------------------------------------------
@dataclass
class HostSession:
    """A table served from this process plus the local players' clients.

    ``server`` is listening; ``clients`` maps each ``human`` seat to a :class:`NetClient`
    holding that seat's token (not yet connected).  :meth:`start` runs the match in the
    background and connects the clients; :meth:`stop` ends both.
    """

    server: NetServer
    clients: dict[int, NetClient]
    address: tuple[str, int]
    description: str
    task: asyncio.Task | None = field(default=None)
    web: object = None  # the browser page (--web), or None
    web_url: str = ""

    async def start(self) -> None:
        self.task = asyncio.ensure_future(self.server.run())
        for c in self.clients.values():
            await c.connect()

    async def stop(self) -> None:
        for c in self.clients.values():
            await c.close()
        if self.task is not None and not self.task.done():
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        if self.web is not None:
            await self.web.close()
        await self.server.close()


async def start_host(args: argparse.Namespace, note=None) -> HostSession:
    """For ``mahjong-tui host``: build the server from ``args`` (or resume ``--log``), listen on
    ``--bind``:``--port``, and prepare one :class:`NetClient` per ``human`` seat.  Call
    ``await session.start()`` next.  ``note(text)`` receives connection notes (default:
    ignored, the TUI shows seat status from ``seats`` messages).  Raises
    :class:`MahjongError`."""
    if getattr(args, "web", False):
        from .web import require_textual_serve

        require_textual_serve()  # before the journal is made
    server, what = build_server(args, local_humans=True, note=note or (lambda text: None))
    humans = [i for i, s in enumerate(server.seat_specs) if s.split(":")[0] == "human"]
    if not humans:
        raise NetError("host plays at least one seat here: mark it human (or use serve)")
    host, port = await _listen(server, args)
    web = await _start_web(server, args, port, note or (lambda text: None))
    connect_to = host if host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    clients = {}
    for i in humans:
        token = server.reserve(i)
        clients[i] = NetClient(connect_to, port, name=None, password=args.password, token=token, reconnect=5.0)
    session = HostSession(server, clients, (host, port), what, web=web)
    if web is not None:
        from .web import page_url

        session.web_url = page_url(web, _lan_host())
    return session
