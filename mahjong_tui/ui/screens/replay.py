"""Step through a saved game, forwards and back (issue 3 §8; ``mahjong-tui replay FILE``).

The log is replayed from its first action; each step's four views are kept, so stepping back is
instant and stepping forward applies one more action.  Every hand is shown face up (the game is
over, or at least it is being watched, not played); Tab turns the table so another seat sits at
the bottom.

Every step shows one moment of the table: its header, winds, dealer, scores and tiles agree.
The engine ends a hand and deals the next inside one action (:meth:`Table.apply`), so the
action that ends a hand gives two steps: first the finished hand (its tiles, ponds and settled
scores, under the hand's own number, winds and dealer; "the hand is over"), then the next deal,
a step of its own with no action (``Hand 2: the deal · dealer: Bot 2``).  PgUp/PgDn land on
these deal steps.  The finished hand is read from a second table that replays the log up to
that action with the match cut short after that hand (``hands`` of :class:`Table`), so that it
stops there instead of dealing again; its number, dealer and winds are then set back to those
the hand was played with, from the hand's summary (the engine has already moved them on).

``s`` compares the move the step shows with what ``ai:strong`` would have made in its place:
the bot is given that seat's view just before it (what the player could see then, as the
previous step stored it)
and its legal actions, and the line under the prompt says ``ai:strong would discard 5m ·
played: discard 9t`` (or that it agrees).  A way to look back over one's own game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.binding import Binding

from ...engine.actions import Action
from ...engine.log import GameLog
from ...engine.table import Table
from ...review import judge
from ..frame import ActionBox, LogBox, build_frame
from ..model import advisor, describe_event, latest_discarder, needs, seat_specs, wind_word
from ..widgets.areas import TableLayout
from ..widgets.art import TileArt
from .base import BaseScreen


@dataclass
class Step:
    """One step of a replay: the table at one moment."""

    views: list[dict]  # view of each seat at this step
    latest: int | None
    text: str  # what this step's action did, in words
    acted: int = 0  # actions of the log applied up to this step
    action: Action | None = None  # the move this step shows (None: a deal)
    deal: bool = False  # the first step of a hand: its deal
    ended: bool = False  # the last step of a hand: the hand is over, a deal follows (or the match ended)


def as_the_hand_ended(view: dict, summary: dict, hands_limit: int | None) -> dict:
    """``view`` of a table that has just ended a hand (its tiles and settled scores), with the
    hand's own number, dealer, prevailing wind and seat winds put back from the hand's summary
    (the ``hand_end`` event / ``last_hand``), where the engine has already moved them on to the
    next deal; ``hands_limit`` is the match's (``view['hands_limit']``).  A new dict; ``view``
    is left as it was."""
    out = dict(view)
    out.update(hand_number=summary["hand"], hands_limit=hands_limit, dealer=summary["dealer"],
               prevailing_wind=summary["prevailing_wind"], waiting_for=[], legal=[])
    out["players"] = [dict(p, wind=summary["seat_winds"][s], dealer=s == summary["dealer"])
                      for s, p in enumerate(view["players"])]
    return out


def recorded_names(log: GameLog) -> list[str] | None:
    """The players' names a history file records in its header (mahjong_tui/history.py), or
    None for a log without them (a save, a journal: the seats' own names are used)."""
    from ...history import header_of, read_names

    try:
        head = header_of(log.source)
    except (OSError, ValueError):  # not read from a file ("the log")
        return None
    return read_names(head, log.seats) if isinstance(head.get("names"), list) else None


class ReplayScreen(BaseScreen):
    BINDINGS = [
        Binding("right", "step(1)", "Step"),
        Binding("left", "step(-1)", "Back"),
        Binding("pagedown", "hand(1)", "Next hand"),
        Binding("pageup", "hand(-1)", "Previous hand"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("tab", "turn", "Turn the table"),
        Binding("enter", "scoring", "Scoring"),
        Binding("s", "suggest", "ai:strong?"),
        Binding("l", "move_log", "Moves", show=False),
        Binding("question_mark", "keys", "Keys"),
        Binding("h", "rules", "Rules"),
        Binding("q", "leave", "Leave"),
        Binding("escape", "leave", "Leave", show=False),
    ]

    def __init__(self, log: GameLog, art: TileArt, *, on_leave=None):
        super().__init__()
        self.game_log = log
        self.art = art
        self.on_leave = on_leave
        self.table = log.replay(upto=0)
        self.variant = self.table.variant
        self.actions = list(log.actions)
        self.specs = seat_specs(log.seats)
        self.names = recorded_names(log) or [s.name for s in self.specs]
        humans = [i for i, s in enumerate(self.specs) if s.human]
        self.bottom = humans[0] if humans else 0
        first = [self.table.view(s) for s in range(4)]
        self.steps: list[Step] = [Step(first, None, self._deal_text(first[0]), deal=True)]
        self.pos = 0
        # how many steps there are: one per action, and one more for each deal after a hand
        # (a full replay of the log, without views, is quick; raises LogError for a bad log)
        whole = log.replay()
        ended = len(whole.history)
        self.last = len(self.actions) + ended - (1 if ended and whole.phase == "match_over" else 0)
        self._length = needs(dict(self.variant.match), log.hands)
        self._compare = ""  # what ai:strong would do at this step (action_suggest), until a step
        self._advisors: dict[int, object] = {}  # seat -> its ai:strong, made on first use

    def compose_body(self) -> ComposeResult:
        yield TableLayout(self.art, id="table")

    def on_mount(self) -> None:
        self.layout_widget = self.query_one(TableLayout)
        self.redraw()

    # -- stepping ---------------------------------------------------------------------------
    def _deal_text(self, view: dict) -> str:
        """The status of a deal step: which hand, who deals."""
        return f"Hand {view['hand_number'] + 1}: the deal · dealer: {self.names[view['dealer']]}"

    def _extend(self, upto: int) -> None:
        """Build steps until step ``upto`` exists (or the log's last step)."""
        while len(self.steps) <= min(upto, self.last):
            prev = self.steps[-1]
            if prev.ended and self.table.phase != "match_over":
                # the table has dealt the next hand already (in the action that ended this one)
                views = [self.table.view(s) for s in range(4)]
                self.steps.append(Step(views, None, self._deal_text(views[0]), prev.acted, deal=True))
                continue
            k = prev.acted
            action = self.actions[k]
            events = self.table.apply_decision(action)  # and the forced passes after it
            end = next((ev for ev in events if ev.get("type") == "hand_end"), None)
            if end is None:
                views = [self.table.view(s) for s in range(4)]
            else:
                events = events[:events.index(end)]  # what follows belongs to the next deal
                views = [as_the_hand_ended(v, end, self.game_log.hands) for v in self._finished(k + 1, end)]
            latest = latest_discarder(prev.views[0], views[0], prev.latest)
            words = [f"{self.names[action.seat]}: {action.describe()}"]
            for ev in events:
                if ev.get("type") in ("claim", "kong", "bonus", "instant_payment"):
                    t = describe_event(ev, lambda s: self.names[s], self.variant)
                    if t:
                        words.append(t)
            if end is not None:
                words.append("the hand is over (Enter: scoring)")
            self.steps.append(Step(views, latest, " · ".join(words), k + 1, action, ended=end is not None))

    def log_box(self, view: dict) -> LogBox:
        """The move log beside the board: the steps of this hand up to the one shown, in the
        step's words (a replay shows every hand, so every move is there to read)."""
        start = next((i for i in range(self.pos, 0, -1) if self.steps[i].deal), 0)
        players = view["players"]
        lines = []
        for st in self.steps[start:self.pos + 1]:
            seat = st.action.seat if st.action is not None else view["dealer"]
            lines.append((players[seat]["wind"], st.text, st.action.kind if st.action is not None else "hand_start"))
        return LogBox(tuple(lines[-200:]))

    def _finished(self, acted: int, summary: dict) -> list[dict]:
        """The four views of the table just after the action that ended the hand of
        ``summary`` (the first ``acted`` actions applied), before the next deal: the log
        replayed on a table whose match ends with that hand (see the module docstring)."""
        if self.table.phase == "match_over":
            return [self.table.view(s) for s in range(4)]
        table = Table(self.variant, self.game_log.seed, summary["hand"] + 1)
        for a in self.actions[:acted]:
            table.apply_decision(a)
        return [table.view(s) for s in range(4)]

    def go(self, pos: int) -> None:
        """Show step ``pos`` (clamped to the replay's steps)."""
        pos = max(0, min(pos, self.last))
        self._extend(pos)
        if pos != self.pos:
            self._compare = ""
        self.pos = pos
        self.redraw()

    def action_move_log(self) -> None:
        """``l``: the steps of this hand so far (beside the board from 120 columns)."""
        from .movelog import MoveLogScreen

        self.app.push_screen(MoveLogScreen(self.log_box(self.steps[self.pos].views[self.bottom])))

    def action_suggest(self) -> None:
        """``s``: what ``ai:strong`` would have done instead of the move this step shows, from
        the view of the seat that made it, just before it (see the module docstring)."""
        played = self.steps[self.pos].action
        if played is None:  # a deal
            self._compare = "Step to a move first (→): s compares the move just shown"
            self.redraw()
            return
        view = self.steps[self.pos - 1].views[played.seat]  # the seat's view when it chose
        bot = self._advisors.get(played.seat)
        if bot is None:
            bot = self._advisors[played.seat] = advisor(self.variant, played.seat)
        try:
            verdict = judge(bot, view, played)  # one place with stats: mahjong_tui/review.py
        except Exception as exc:  # noqa: BLE001 - a comparison must never close the replay
            self._compare = f"ai:strong could not answer: {type(exc).__name__}: {exc}"
        else:
            who = self.names[played.seat]
            if verdict.would is None:
                self._compare = f"{who} had no choice: {played.describe()}"
            elif verdict.agrees:
                self._compare = f"ai:strong agrees with {who}: {played.describe()}"
            else:
                self._compare = f"ai:strong would {verdict.would.describe()} · {who} played: {played.describe()}"
        self.redraw()

    def action_step(self, delta: int) -> None:
        self.go(self.pos + delta)

    def action_jump(self, where: int) -> None:
        self.go(self.last if where < 0 else where)

    def action_hand(self, delta: int) -> None:
        """Go to the start (the deal) of the next hand (in the last hand: to its end), or back
        to the start of this (at its start: the previous) hand."""
        if delta > 0:
            k = self.pos
            while k < self.last:
                k += 1
                self._extend(k)
                if self._hand_start(k):
                    break
        else:
            k = self.pos - 1
            while k > 0 and not self._hand_start(k):
                k -= 1
        self.go(max(0, k))

    def _hand_start(self, k: int) -> bool:
        """Step ``k`` (built already) is a hand's deal."""
        return self.steps[k].deal

    def action_turn(self) -> None:
        self.bottom = (self.bottom + 1) % 4
        self.redraw()

    def action_scoring(self) -> None:
        from .results import HandEndScreen

        last = self.steps[self.pos].views[0].get("last_hand")
        if last:
            self.app.push_screen(HandEndScreen(last, self.names, self.art, self.variant, replay=True))

    def action_keys(self) -> None:
        from .dialogs import KeysScreen

        self.app.push_screen(KeysScreen())

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.variant.id, self.variant))

    def action_leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave(None)

    # -- drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        step = self.steps[self.pos]
        view = step.views[self.bottom]
        title = (f"Step {self.pos}/{self.last} · {step.text}",)
        choices = (("←→", ("step",)), ("PgUp PgDn", ("hand",)), ("Tab", ("turn the table",)))
        if view.get("last_hand"):
            choices += (("Enter", ("scoring" if step.ended else "last scoring",)),)
        info = (f"Replay · at the bottom: {self.names[self.bottom]} "
                f"({wind_word(view['players'][self.bottom]['wind'])}) · s: what would ai:strong play?",)
        if self._compare:
            info = (self._compare,)
        frame = build_frame(
            view, bottom=self.bottom, names=self.names, title=self.variant.name, hand_text=view["hand"],
            show_own_hand=True, latest=step.latest, selected=None, hand_active=False,
            actions=ActionBox(title, choices, info, False),
            revealed={s: step.views[s]["hand"] for s in range(4)}, extra="replay", match_length=self._length,
            wall_rules=self.variant.wall,
        )
        frame = replace(frame, log=self.log_box(view))
        self.layout_widget.show(frame)
