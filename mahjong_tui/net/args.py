"""Command-line options of the LAN commands, for ``mahjong_tui.cli`` (cheap to import: no
engine, no asyncio)."""

from __future__ import annotations

import argparse
import math


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


def add_net_arguments(sp: argparse.ArgumentParser, command: str) -> None:
    """Add the LAN options of ``command`` (``host``, ``serve`` or ``join``) to its parser.

    host/serve: ``--log FILE`` (journal; an existing unfinished log is resumed),
    ``--turn-timeout S``, ``--claim-timeout S``, ``--bot-delay S``, ``--start-after S``,
    ``--standin LEVEL``.  join: ``--token TOKEN``, ``--seat N``, ``--retry S``,
    ``--bot-delay S``.
    """
    if command in ("host", "serve"):
        sp.add_argument("--log", default=None, metavar="FILE",
                        help="game log (journal) to write; if FILE holds an unfinished match, resume it "
                             "(default: a new file under ~/.local/state/mahjong-tui/net/)")
        sp.add_argument("--turn-timeout", type=_seconds_or_none, default=60.0, metavar="S",
                        help="seconds a player (remote, or the host's own) has for a turn before a bot plays "
                             "it for them (off: no limit)")
        sp.add_argument("--claim-timeout", type=_seconds_or_none, default=20.0, metavar="S",
                        help="seconds a player has to answer a claim window before a bot answers it for them "
                             "(off: no limit)")
        sp.add_argument("--start-after", type=_seconds_or_none, default=None, metavar="S",
                        help="start after S seconds even if remote seats are empty (bots stand in)")
        sp.add_argument("--standin", default="normal", metavar="LEVEL",
                        help="level of the bot that stands in for an absent player")
        if not any(a.dest == "bot_delay" for a in sp._actions):
            sp.add_argument("--bot-delay", type=bot_delay, default=0.5 if command == "host" else 0.3, metavar="S",
                            help="seconds a bot (or stand-in) pauses before acting")
    elif command == "join":
        sp.add_argument("--token", default=None, help="seat token from an earlier join (rejoin your seat)")
        sp.add_argument("--seat", type=int, choices=range(4), default=None, help="ask for this free seat (0-3)")
        sp.add_argument("--retry", type=_nonneg, default=30.0, metavar="S",
                        help="seconds to keep trying to rejoin after the connection drops")
        if not any(a.dest == "bot_delay" for a in sp._actions):
            sp.add_argument("--bot-delay", type=bot_delay, default=0.0, metavar="S",
                            help="seconds the --bot pauses before acting")
    else:  # pragma: no cover - programming error
        raise ValueError(f"no LAN options for {command!r}")
