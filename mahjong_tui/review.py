"""Looking back over a game: what ``ai:strong`` would have done in a player's place.

One place for that comparison, shared by the replay's ``s`` key
(:mod:`mahjong_tui.ui.screens.replay`), the table's hint and the statistics of the history
(:mod:`mahjong_tui.stats`, ``mahjong-tui stats``): the bot is given the view the seat had just
before its move (what the player could see then) and the legal actions that view lists, and
its choice is set against the move that was played.

No Textual, no asyncio here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .engine.actions import Action


def advisor(variant, seat: int):
    """The bot that gives hints at the table and judges moves in a replay: ``ai:strong`` for
    ``seat``, which reads only the view it is handed (seed 0: ai:strong draws no random
    numbers; only easy's noise does)."""
    from .ai import make_bot

    return make_bot("ai:strong", variant, seat, 0)


@dataclass(frozen=True)
class Verdict:
    """``ai:strong`` on one move: ``choices`` (how many legal actions the seat had), ``would``
    (the bot's choice; None when there was no choice, ``choices`` < 2) and ``played``."""

    played: Action
    choices: int
    would: Action | None

    @property
    def agrees(self) -> bool:
        """The bot would have made the move that was played (False when there was no choice)."""
        return self.would is not None and self.would == self.played


def judge(bot, view: dict, played: Action) -> Verdict:
    """What ``bot`` (:func:`advisor` for ``played.seat``) would have done in ``view`` (that
    seat's view just before ``played``, its ``legal`` list included).  Raises whatever the bot
    raises."""
    legal = [Action.from_dict(d) for d in view.get("legal") or ()]
    if len(legal) < 2:
        return Verdict(played, len(legal), None)
    return Verdict(played, len(legal), bot.choose(view, legal))


def discard_agreement(table, actions: Iterable[Action], seats: Iterable[int]) -> dict[int, tuple[int, int]]:
    """For each seat of ``seats``: ``(discards, agreed)`` — how many of its turns it ended with
    a discard, and in how many of those ``ai:strong`` (:func:`advisor`) would have discarded
    the same tile from the seat's view at that moment.  ``table`` is a fresh
    :class:`~mahjong_tui.engine.table.Table` of the match (its variant, seed and length) and
    ``actions`` the match's logged decisions, applied to it here in order
    (:meth:`Table.apply_decision`).  Raises :class:`~mahjong_tui.errors.IllegalAction` for an
    action that does not replay."""
    wanted = set(seats)
    bots = {s: advisor(table.variant, s) for s in wanted}
    counts = {s: [0, 0] for s in wanted}
    for a in actions:
        if a.kind == "discard" and a.seat in wanted:
            verdict = judge(bots[a.seat], table.view(a.seat), a)
            counts[a.seat][0] += 1
            counts[a.seat][1] += verdict.agrees
        table.apply_decision(a)
    return {s: (c[0], c[1]) for s, c in counts.items()}
