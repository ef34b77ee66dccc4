"""Command-line options of the LAN commands, for ``mahjong_tui.cli`` (cheap to import: no
engine, no asyncio).

Secrets stay off the process list: the table password and a seat token can come from a file
(``--password-file``, ``--token-file``: its first line) or from the environment
(:data:`SECRET_ENV`) instead of the command line, which ``ps`` shows to every user of the
machine; :func:`resolve_secrets` settles which one counts.
"""

from __future__ import annotations

import argparse
import math
import os

from ..errors import MahjongError

#: where a secret comes from when neither its option nor its file option is given
SECRET_ENV = {"password": "MAHJONG_TUI_PASSWORD", "token": "MAHJONG_TUI_TOKEN"}
#: how the commands this program prints ask for the table password again: from a file (a
#: ``--password`` there would show in ``ps``; $MAHJONG_TUI_PASSWORD does as well as the file)
PASSWORD_FILE_HINT = "--password-file FILE"
#: the longest secret file read, in bytes (a password or a token is one short line)
SECRET_FILE_MAX = 4096


class OptionError(MahjongError):
    """Options that contradict each other, or a secret given empty (the CLI: one line, exit 2)."""


def _nonneg(text: str, also: str = "") -> float:
    """``text`` as a number of seconds, 0 or more and finite; ``argparse.ArgumentTypeError``
    otherwise (``also`` is added to the "not a number" message, e.g. `` (or 'off')``)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds{also}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds{also}")
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds cannot be negative")
    return v


#: the longest pause a bot may be given before it acts (``--bot-delay``), in seconds
MAX_BOT_DELAY = 10.0


def bot_delay(text: str) -> float:
    """``--bot-delay S``: seconds a bot pauses before acting, 0 to :data:`MAX_BOT_DELAY`;
    ``argparse.ArgumentTypeError`` otherwise (``inf`` or ``1e3`` would stall the table)."""
    v = _nonneg(text)
    if v > MAX_BOT_DELAY:
        raise argparse.ArgumentTypeError(f"{text!r}: a bot pauses at most {MAX_BOT_DELAY:g} seconds")
    return v


def _seconds_or_none(text: str) -> float | None:
    """Like :func:`_nonneg`, but ``none``, ``off`` or ``0`` mean no limit (None)."""
    if text.lower() in ("none", "off", "0"):
        return None
    return _nonneg(text, " (or 'off')")


def start_after(text: str) -> float | None:
    """``--start-after S``: seconds to wait for the remote seats before bots stand in for the
    empty ones; ``0`` starts at once, ``off`` / ``none`` waits for every seat (the default).
    ``argparse.ArgumentTypeError`` otherwise."""
    if text.lower() in ("none", "off"):
        return None
    return _nonneg(text, " (or 'off': wait for every remote seat)")


def port_number(text: str) -> int:
    """``--port N``: a TCP port, 0 to 65535 (0: any free port, said when serving);
    ``argparse.ArgumentTypeError`` otherwise."""
    return _whole(text, 0, 65535, "a port number (0 to 65535)", "a port is 0 to 65535 (0: any free port)")


def _whole(text: str, lo: int, hi: int | None, what: str, allowed: str) -> int:
    """``text`` as a whole number from ``lo`` to ``hi`` (None: no upper bound);
    ``argparse.ArgumentTypeError`` naming ``what`` it should be, or saying what is ``allowed``."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if n < lo or (hi is not None and n > hi):
        raise argparse.ArgumentTypeError(f"{text}: {allowed}")
    return n


#: the most browser sessions a table may allow at once (``--web-sessions``)
MAX_WEB_SESSIONS = 16


def session_cap(text: str) -> int:
    """``--web-sessions N``: 1 to :data:`MAX_WEB_SESSIONS`; ``argparse.ArgumentTypeError``
    otherwise."""
    return _whole(text, 1, MAX_WEB_SESSIONS, "a number of browser sessions",
                  f"browser sessions are 1 to {MAX_WEB_SESSIONS}")


def hand_count(text: str) -> int:
    """``--hands K``: at least 1 (as ``sim`` and ``play``); ``argparse.ArgumentTypeError``
    otherwise."""
    return _whole(text, 1, None, "a number of hands",
                  "a match has at least 1 hand (leave --hands out for the variant's whole match)")


def _secret(what: str):
    def check(text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError(f"an empty {what} is no {what}: give one, or leave the option out")
        return text
    check.__name__ = what  # argparse names the type in its messages
    return check


def _secret_file(text: str) -> str:
    """``--password-file`` / ``--token-file FILE``: the first line of FILE (its line end
    dropped); ``argparse.ArgumentTypeError`` for a file that cannot be read or whose first
    line is empty."""
    try:
        with open(text, "rb") as fh:
            data = fh.read(SECRET_FILE_MAX + 1)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > SECRET_FILE_MAX:
        raise argparse.ArgumentTypeError(f"{text}: more than {SECRET_FILE_MAX} bytes; the file holds one line, the secret")
    try:
        line = data.decode("utf-8").splitlines()[0] if data else ""
    except UnicodeDecodeError:
        raise argparse.ArgumentTypeError(f"{text}: not UTF-8 text") from None
    if not line:
        raise argparse.ArgumentTypeError(f"{text}: its first line is empty; it should hold the secret")
    return line


def _retype(sp: argparse.ArgumentParser, dest: str, kind, help: str | None = None) -> None:
    """Give the option ``dest`` that the main CLI added to ``sp`` the type ``kind`` (and
    ``help``, when it has none)."""
    for a in sp._actions:
        if a.dest == dest:
            a.type = kind
            if help and not a.help:
                a.help = help


def resolve_secrets(args: argparse.Namespace, env=os.environ) -> argparse.Namespace:
    """Settle ``args.password`` (and ``args.token``, where the command has one): the option
    itself, else its ``--…-file``, else the environment variable of :data:`SECRET_ENV` (only
    when ``args.secrets_from_env`` is not False: the menu's forms say what they mean).  The
    ``*_file`` attributes are cleared, so calling it again changes nothing.  Raises
    :class:`OptionError` for an option given together with its file, or an empty secret from
    the environment."""
    for key, var in SECRET_ENV.items():
        if not hasattr(args, key):
            continue
        value = getattr(args, key)
        from_file = getattr(args, f"{key}_file", None)
        flag = key.replace("_", "-")
        if from_file is not None:
            if value is not None:
                raise OptionError(f"give --{flag} or --{flag}-file, not both")
            value = from_file
        elif value is None and getattr(args, "secrets_from_env", True) and var in env:
            value = env[var]
            if not value:
                raise OptionError(f"{var} is set but empty: set it to the {key}, or unset it")
        elif value == "":
            raise OptionError(f"an empty --{flag} is no {key}: give one, or leave the option out")
        setattr(args, key, value)
        setattr(args, f"{key}_file", None)
    return args


def add_net_arguments(sp: argparse.ArgumentParser, command: str) -> None:
    """Add the LAN options of ``command`` (``host``, ``serve`` or ``join``) to its parser.

    host/serve: ``--log FILE`` (journal; an existing unfinished log is resumed),
    ``--turn-timeout S``, ``--claim-timeout S``, ``--bot-delay S``, ``--start-after S``,
    ``--standin LEVEL``, ``--password-file FILE``, ``--web``, ``--web-port N``,
    ``--web-sessions N``, ``--web-idle S``; and the main CLI's ``--port`` (0 to 65535),
    ``--hands`` (at least 1) and ``--password`` (not empty) are checked here.  join:
    ``--token TOKEN``, ``--token-file FILE``, ``--password-file FILE``, ``--seat N``,
    ``--new-seat``, ``--retry S``, ``--bot-delay S``.  Call :func:`resolve_secrets` on the parsed arguments.
    """
    _retype(sp, "password", _secret("password"),
            help="the table password (shows in ps to every user of this machine: prefer --password-file or "
                 f"${SECRET_ENV['password']})")
    sp.add_argument("--password-file", type=_secret_file, default=None, metavar="FILE",
                    help=f"read the table password from the first line of FILE (else ${SECRET_ENV['password']}); "
                         "unlike --password it does not show in ps")
    if command in ("host", "serve"):
        _retype(sp, "port", port_number)
        _retype(sp, "hands", hand_count)
        sp.add_argument("--log", default=None, metavar="FILE",
                        help="game log (journal) to write; if FILE holds an unfinished match, resume it "
                             "(default: a new file under ~/.local/state/mahjong-tui/net/)")
        sp.add_argument("--turn-timeout", type=_seconds_or_none, default=60.0, metavar="S",
                        help="seconds a player (remote, or the host's own) has for a turn before a bot plays "
                             "it for them (off: no limit)")
        sp.add_argument("--claim-timeout", type=_seconds_or_none, default=20.0, metavar="S",
                        help="seconds a player has to answer a claim window before a bot answers it for them "
                             "(off: no limit)")
        sp.add_argument("--start-after", type=start_after, default=None, metavar="S",
                        help="start after S seconds even if remote seats are empty (bots stand in; 0: at once; "
                             "default off: wait for every remote seat)")
        sp.add_argument("--standin", default="normal", metavar="LEVEL",
                        help="level of the bot that stands in for an absent player")
        if not any(a.dest == "bot_delay" for a in sp._actions):
            sp.add_argument("--bot-delay", type=bot_delay, default=0.5 if command == "host" else 0.3, metavar="S",
                            help="seconds a bot (or stand-in) pauses before acting")
        # browsers at the table (mahjong_tui/net/web.py; the optional extra "web")
        sp.add_argument("--web", action="store_true",
                        help="also serve the table to browsers (each browser session joins as a remote seat; needs "
                             "pip install 'mahjong-tui[web]'); the page listens on --bind too")
        sp.add_argument("--web-port", type=port_number, default=None, metavar="N",
                        help="port of the browser page (default: --port + 1, e.g. 7778)")
        sp.add_argument("--web-sessions", type=session_cap, default=4, metavar="N",
                        help="browser sessions at once, 1 to 16 (default 4)")
        sp.add_argument("--web-idle", type=_seconds_or_none, default=900.0, metavar="S",
                        help="close a browser session after S seconds without a key, click or resize (default 900; "
                             "off: never); its seat goes to the stand-in until its player is back")
    elif command == "join":
        sp.add_argument("--token", type=_secret("token"), default=None,
                        help="seat token from an earlier join (rejoin your seat; shows in ps: prefer --token-file "
                             f"or ${SECRET_ENV['token']})")
        sp.add_argument("--token-file", type=_secret_file, default=None, metavar="FILE",
                        help=f"read the seat token from the first line of FILE (else ${SECRET_ENV['token']})")
        sp.add_argument("--seat", type=int, choices=range(4), default=None, help="ask for this free seat (0-3)")
        sp.add_argument("--new-seat", action="store_true",
                        help="take a free seat even if this machine kept a seat token for that table (without "
                             "--token, join rejoins the seat it kept: it keeps each table's token in the saves "
                             "folder)")
        sp.add_argument("--retry", type=_nonneg, default=30.0, metavar="S",
                        help="seconds to keep trying while the table is busy (it says so), and to rejoin after "
                             "the connection drops")
        if not any(a.dest == "bot_delay" for a in sp._actions):
            sp.add_argument("--bot-delay", type=bot_delay, default=0.0, metavar="S",
                            help="seconds the --bot pauses before acting")
    else:  # pragma: no cover - programming error
        raise ValueError(f"no LAN options for {command!r}")
