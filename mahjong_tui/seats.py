"""Seat specs: what ``--seats`` and a game log's ``seats`` may hold (CLI.md): ``human``, ``ai``
(= ``ai:normal``), ``ai:LEVEL`` or ``remote``.  The one place of that rule: the command line
(:mod:`mahjong_tui.cli`), game logs (:mod:`mahjong_tui.engine.log`) and the app check seats with it.

No Textual, no asyncio, no engine: the command line imports it to build its parser.
"""

from __future__ import annotations

import json

#: the levels of ``ai:LEVEL`` (:func:`mahjong_tui.ai.baseline.make_bot`)
AI_LEVELS = ("easy", "normal", "strong", "baseline")
#: the kinds of seat
SEAT_KINDS = ("human", "ai", "remote")


def seat_problem(spec: object) -> str | None:
    """What is wrong with seat ``spec``, in one line, or None for ``human``, ``remote``, ``ai``
    or ``ai:LEVEL`` (LEVEL one of :data:`AI_LEVELS`)."""
    if not isinstance(spec, str):
        return f"a seat is a string (human, ai, ai:LEVEL or remote), got {json.dumps(spec)[:40]}"
    kind, colon, level = spec.partition(":")
    if kind not in SEAT_KINDS or (colon and kind != "ai"):
        return f"seat {spec[:40]!r}: a seat is human, ai, ai:LEVEL or remote"
    if colon and level not in AI_LEVELS:
        return f"seat {spec[:40]!r}: AI levels are {', '.join(AI_LEVELS)}"
    return None
