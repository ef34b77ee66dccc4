"""The table screen: a game being played (issue 3 §2, §4, §5).

The screen is the :class:`~mahjong_tui.ui.session.Presenter` of its :class:`GameSession`:
after every action it builds a :class:`~mahjong_tui.ui.frame.Frame` from the bottom seat's view
and hands it to the area widgets, which repaint only what changed.

Keys (also on the ``?`` screen): left/right (or a mouse click) choose a tile; Enter or ``d``
discard it (a click on the chosen tile discards it too); the prompt's letters and digits pick a
claim or a turn action; ``x`` or space pass; ``o`` auto-draw, ``n`` no calls, ``u`` auto-win
on/off; ``y`` why can't I win with this hand; ``s`` hint; ``?`` keys; ``h`` rules; ``l`` the
moves of the hand (a side panel from 120 columns); ``q`` quit (asks, offers to save).

Hot-seat call window (:mod:`~mahjong_tui.ui.session`, "Claim rounds"): after a discard the
action bar names the seats that may call, each with its key (the player number, ``1``-``4``),
and counts the window down; Space, Enter or ``x`` closes it for everyone.

Hint (``s``, when it is the keyboard's seat's decision): ``ai:strong`` is asked what it would do
with this seat's own view and legal actions — what the player sees, nothing more, so a hint
gives nothing away at a LAN table either.  A discard moves the tile cursor to that tile (the
line under the prompt then says how far from ready it leaves the hand; the hint goes once the
cursor leaves that tile, since the line then speaks of another discard); any other choice is
named with its key under the prompt.  The player still decides.

Call toggles (per human seat: the seat at the keyboard): auto-draw ``o`` (a claim prompt whose
only choices are pick-up and pass, Classic's next player, is answered pass without being
shown), no calls ``n`` (every claim prompt passes by itself) and auto-win ``u`` (a win on offer
is declared), :meth:`~mahjong_tui.ui.session.DeskSession.auto_answer`; the line under the
prompt starts with those that are on (``auto-draw on · no calls``).  Not in the footer, so that
the footer stays short at 80 columns; listed on the ``?`` screen.

Why (``y``): the hand of the seat at the keyboard explained as ``mahjong-tui analyze`` does
(:func:`~mahjong_tui.ui.why.explain`): how far from ready, the waits and what each is worth,
and for a complete shape that is not a win, why.

At a LAN table (a :class:`~mahjong_tui.ui.netsession.NetSession`) the same screen also shows
each seat's connection (``[bot stand-in]``, ``[open]``, ...), connection problems in the header
and the action bar, the time left to answer (and, on another remote seat's turn, that seat's
clock), ``i`` opens the table's seats, address and the seat token to rejoin with, and ``/`` a
line of table talk (chat: shown in the move log and as a toast, never a move).
"""

from __future__ import annotations

import asyncio
import math
import os
from dataclasses import replace
from typing import Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding

from ... import tiles as T
from ..choices import PASS_ALIASES, Choice, assign, parts
from ...engine import Action
from ..frame import ActionBox, Frame, build_frame, log_box
from ..model import advisor, hand_order, latest_discarder, needs, readiness, unseen, wind_word
from ..session import DeskSession, Request
from ..widgets.areas import Collector, TableLayout
from ..widgets.art import TileArt
from .base import BaseScreen


def _win_rank(worth: str) -> int:
    """Where a group of waits of ``worth`` goes in the readiness line: waits that win first,
    then those that win only self-drawn, then those that cannot win."""
    return 2 if worth.startswith("no win") else 1 if worth.startswith("self-draw only") else 0


def readiness_parts(r, after_discard: bool = False) -> tuple:
    """The readiness line as parts (words and tile codes): ``Ready: 9s 12s 15s (4+3+3 left):
    2.6 fan = 2 pt on any · 3m (2 left): 4.6 fan = 10 pt`` — waits of equal worth grouped, each
    group a `` · `` clause the action bar may wrap between; the groups that win first (so a
    winning wait shows even where the line is cut: play-test pt4 item 1), a worth shared by a
    group said ``on either`` / ``on any`` (of those waits; ``each`` read as "from each
    player"), except a reason in brackets (``5s 8s (4+2 left): no win (completes a chow)``);
    ``2 tiles from ready`` when not ready.  ``after_discard``: said of the hand after the
    chosen discard (one's own turn)."""
    if r.shanten is None:
        return ()
    if r.shanten == 0:
        if not r.waits:
            return ("Ready after this discard" if after_discard else "You are ready",)
        groups: dict[str, list[int]] = {}
        for w in r.waits:
            groups.setdefault(r.worth.get(w, ""), []).append(w)
        out: list = ["Ready after this discard: " if after_discard else "Ready: "]
        for i, (worth, waits) in enumerate(sorted(groups.items(), key=lambda g: _win_rank(g[0]))):
            if i:
                out.append(" · ")
            for j, w in enumerate(waits):
                out += ([" "] if j else []) + [w]
            left = "+".join(str(r.left.get(w, 0)) for w in waits)
            out.append(f" ({left} left)")
            if worth:
                several = len(waits) > 1 and not worth.endswith(")")
                out.append(f": {worth}{(' on either' if len(waits) == 2 else ' on any') if several else ''}")
        return tuple(out)
    n = r.shanten
    lead = "After this discard you are " if after_discard else "You are "
    return (f"{lead}{n} tile{'s' if n != 1 else ''} from ready",)


class TableScreen(BaseScreen):
    """A game at the table."""

    BINDINGS = [
        Binding("question_mark", "keys", "Keys"),
        Binding("h", "rules", "Rules"),
        Binding("i", "table_info", "Table", show=False),
        Binding("o", "auto_draw", "Auto-draw", show=False),
        Binding("n", "no_calls", "No calls", show=False),
        Binding("u", "auto_win", "Auto-win", show=False),
        Binding("y", "why", "Why", show=False),
        Binding("s", "suggest", "Hint", show=False),
        Binding("l", "move_log", "Moves", show=False),
        Binding("slash", "chat", "Chat", show=False),  # LAN: say something to the table
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: DeskSession, art: TileArt, *, on_leave: Callable[[str | None], None] | None = None):
        super().__init__()
        self.session = session
        self.art = art
        self.on_leave = on_leave
        self.selected: int | None = None
        self.choice_map: dict[str, Choice] = {}
        self._prev_view: dict | None = None
        self._latest: int | None = None
        self._req_seen: Request | None = None
        self._order: list[int] = []
        self._title = session.variant.name
        self._length = needs(dict(session.variant.match), None)
        self.frame: Frame | None = None
        self._game_worker = None
        self._leaving = False
        self._hint: tuple = ()  # shown under the prompt until the next decision (str / tile parts)
        self._hint_tile: int | None = None  # the discard the hint names: the hint goes once the cursor leaves it
        self._advisor = None  # the ai:strong bot that gives hints (action_suggest), made on first use
        self._why_seat: int | None = None  # the seat whose hand an open "why" dialog explains

    def compose_body(self) -> ComposeResult:
        yield TableLayout(self.art, id="table")

    def on_mount(self) -> None:
        self.layout_widget = self.query_one(TableLayout)
        self.session.presenter = self
        self.redraw()
        if self.session.network:  # countdowns, "reconnecting (N s)"
            self.set_interval(0.5, self._tick)
        elif self.session.hot_seat:  # the call window's countdown
            self.set_interval(0.25, self._tick_window)
        self._game_worker = self.run_worker(self._run_game(), name="game", exclusive=True, exit_on_error=True)

    def _tick(self) -> None:
        s = self.session
        if s.seconds_left() is not None or s.problem() or s.notice() or s.clock_running():
            self.redraw()

    def _tick_window(self) -> None:
        if self.session.call_window() is not None:
            self.redraw()

    async def _run_game(self) -> None:
        """Play the match; if anything breaks (a bot's bug), keep the game: save it, say so,
        and leave the table instead of dropping the player out of the app."""
        try:
            await self.session.play()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - shown to the player, kept for the report
            import traceback

            from .dialogs import MessageScreen

            self.app.game_error = traceback.format_exc()
            saved = None
            s = self.session
            if s.network:
                how = s.rejoin_command()
                where = f"Back to the table with: {how}" if how else ""
            else:
                try:
                    saved = str(s.save(s.save_path or self.app.default_save_path(s.variant.id)))
                except Exception:  # noqa: BLE001
                    saved = str(s.journal_path) if s.journal_path is not None else None
                where = (f"The game so far is saved: mahjong-tui resume {saved}" if saved
                         else "The game could not be saved.")
            self.app.push_screen(
                MessageScreen("The game stopped because of an error",
                              f"{type(exc).__name__}: {exc}\n\n{where}", plain=True),
                lambda _r: self.leave(saved),
            )

    # ----------------------------------------------------------------------------------------
    # Presenter
    # ----------------------------------------------------------------------------------------
    def table_changed(self) -> None:
        self.redraw()

    def request_changed(self) -> None:
        req = self.session.request_now
        if req is not self._req_seen:
            self._req_seen = req
            self._hint, self._hint_tile = (), None
            self.selected = None
            if req is not None and req.is_turn:
                tiles, drawn = hand_order(req.view["hand"], req.view.get("drawn"))
                self.selected = drawn if drawn is not None else (len(tiles) - 1 if tiles else None)
                your_turn = getattr(self.app, "your_turn", None)  # the bell, if the settings ask for it
                if your_turn is not None:
                    your_turn()
                    if self.session.network:
                        self.flash()
        self.redraw()

    def flash(self) -> None:
        """LAN: a short flash of the whole screen when it becomes your turn, with the bell
        (the settings' ``bell``), for a player who looked away while the others played."""
        settings = getattr(self.app, "settings", None)
        if settings is None or not settings.bell:
            return
        self.styles.tint = "yellow 25%"
        self.set_timer(0.3, lambda: self.styles.clear_rule("tint"))

    def chat_received(self, who: str, text: str) -> None:
        """LAN table talk: a toast (plain text, never markup); the move log has it too."""
        self.app.notify(text, title=who, timeout=8, markup=False)

    async def painted(self) -> None:
        """Wait (a frame at most) until the answer to a key is on the screen: the game goes on
        after its repaint, not before (areas.Collector.settled)."""
        await Collector.settled()

    def event_text(self, text: str) -> None:
        pass  # shown with the next redraw (the runner reports the action right after)

    async def privacy(self, seat: int, take) -> None:
        from .dialogs import PrivacyScreen

        s = self.session
        self._close_private()
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        said = s.handoff(seat)
        screen = PrivacyScreen(s.name(seat), s.seat_wind(seat), said.kind, take,
                               guard=getattr(self.app, "privacy_guard", 0.3), why=said.why, then=said.then)
        self.app.push_screen(screen, lambda _r: fut.done() or fut.set_result(None))
        await fut

    async def hand_over(self, summary: dict, last: bool | None = None) -> None:
        from .results import HandEndScreen

        s = self.session
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        screen = HandEndScreen(summary, [s.name(i) for i in range(4)], self.art, s.variant,
                               match_over=s.match_is_over() if last is None else last,
                               notice=s.pending_notice if s.network else None, you=s.you())
        self.app.push_screen(screen, lambda r: fut.done() or fut.set_result(r))
        result = await fut
        if result == "quit":
            self.action_quit()

    async def match_over(self) -> None:
        from .results import MatchEndScreen

        s = self.session
        kept = self.keep_in_history()  # before the screen: a terminal closed on it loses nothing
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        screen = MatchEndScreen(s.history(), [s.name(i) for i in range(4)], self.art, s.variant,
                                start_score=s.variant.match["start_score"],
                                save=self.save_finished if s.can_save else None, kept=kept)
        self.app.push_screen(screen, lambda r: fut.done() or fut.set_result(r))
        await fut
        self.leave(None)

    async def connection_closed(self, detail: str) -> None:
        """LAN: the table is gone (not the end of the match): say why and how to come back,
        then leave."""
        from .dialogs import MessageScreen

        s = self.session
        how = s.rejoin_command()
        text = detail + (f"\n\nBack to the table with:\n{how}" if how else "")
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self.app.push_screen(MessageScreen("Disconnected from the table", text, plain=True),
                             lambda r: fut.done() or fut.set_result(r))
        await fut
        self.leave(None)

    # ----------------------------------------------------------------------------------------
    # drawing
    # ----------------------------------------------------------------------------------------
    def redraw(self) -> None:
        if not self.is_mounted:
            return
        s = self.session
        if self._why_seat is not None and s.keyboard != self._why_seat:
            self._close_private()  # "why" speaks of a hand no longer shown (a public call window)
        view = s.view()
        if view is None:
            return
        bottom = s.perspective
        self._latest = latest_discarder(self._prev_view, view, self._latest)
        self._prev_view = view
        show = s.shows_hand(bottom)
        req = s.request_now if (s.request_now is not None and s.request_now.seat == bottom) else None
        if req is not None and req.future.done():
            req = None  # answered: drawn as it will be once the desk takes it back (one repaint, not two)
        if show:
            self._order, _ = hand_order(view["hand"], view.get("drawn"))
        else:
            self._order = []
        if self.selected is not None and self._order:
            self.selected = max(0, min(self.selected, len(self._order) - 1))
        actions = self.action_box(view, req, show)
        track = self.tracked(req)
        toggles = s.toggle_words(bottom) if s.call_window() is None else []
        if toggles:
            actions = replace(actions, info=(" · ".join(toggles) + (" · " if actions.info else ""),) + actions.info)
        self.frame = build_frame(
            view, bottom=bottom, names=[s.name(i) for i in range(4)], title=self._title,
            hand_text=view["hand"], show_own_hand=show, latest=self._latest, selected=self.selected,
            hand_active=bool(req and req.is_turn), actions=actions, match_length=self._length,
            statuses=[s.seat_status(i) for i in range(4)] if s.network else None,
            alert=s.problem(), net=s.network, wall_rules=s.variant.wall, track=track,
        )
        self.frame = replace(self.frame, log=log_box(s.visible_moves(), view))
        self.layout_widget.show(self.frame)

    def tracked(self, req: Request | None) -> int | None:
        """The tile under the cursor on one's own turn: the tile tracker marks its copies in
        the ponds, melds and bonus tiles, and the prompt says how many are unseen."""
        if req is None or not req.is_turn or self.selected is None or not self._order:
            return None
        return self._order[self.selected]

    def action_box(self, view: dict, req: Request | None, show: bool) -> ActionBox:
        s = self.session
        name = s.name
        players = view["players"]

        def who(seat: int) -> str:
            return f"{name(seat)} ({wind_word(players[seat]['wind'])})"

        rnd = s.call_window()
        if rnd is not None and req is None:
            return self.call_box(view, rnd)
        if req is None:
            self.choice_map = {}
            phase = view["phase"]
            cur = view["current"]
            notice = s.notice()
            if notice is not None:
                title_text, detail = notice
                info = (detail,) if detail else ()
                if s.last_text and not s.problem():
                    info = info + ((" · " if info else "") + s.last_text,)
                return ActionBox((title_text,), (), info, False)
            if phase == "turn":
                if s.plays_by_hand(cur):
                    title = (f"{who(cur)} to play",)
                else:
                    title = (f"{who(cur)} is thinking",)
                left = s.turn_clock(cur) if s.network else None  # LAN: the turn timer, counting down
                if left is not None:
                    title += (f" · {left:.0f} s left",)
            elif phase in ("claim", "rob"):
                d = view.get("discard")
                title = (f"Claims on {who(d['seat'])}'s ", T.parse_tile(d["tile"])) if d else ("Claims",)
            elif phase == "after_kong":
                title = (f"{who(cur)} declared a kong",)
            else:
                title = ("The match is over",)
            info: tuple = ()
            if show:
                info = readiness_parts(readiness(s.variant, view))
            if s.last_text:
                info = info + ((" · " if info else "") + s.last_text,)
            return ActionBox(title, (), info, False, self._news(s.last_text))
        phase = view["phase"]
        choices = assign(req.legal, "turn" if req.is_turn else phase, s.variant)
        self.choice_map = {c.key: c for c in choices}
        rows = [(c.key, parts(c.action, "turn" if req.is_turn else phase, s.variant)) for c in choices]
        you = "Your" if not s.hot_seat else f"{name(req.seat)}:"
        left = s.seconds_left()
        clock = () if left is None else (f" · {left:.0f} s left",)
        if req.is_turn:
            tile = self._order[self.selected] if (self.selected is not None and self._order) else None
            lead = [("←→", ("choose",))]
            if tile is not None:  # the tile tracker: copies of it not yet seen
                lead.append(("Enter", ("discard ", tile, f" ({unseen(s.variant, view, tile)} unseen)")))
            title = (f"{you} turn" if not s.hot_seat else f"{you} your turn",) + clock
            wins = [c.key for c in choices if c.action.kind == "win"]
            if wins:  # a win on offer: say so, not what a discard would leave (pt1 item 10)
                info = ("You can win now: press " + " or ".join(wins),)
            elif tile is not None:
                info = readiness_parts(readiness(s.variant, view, tile), after_discard=True)
            else:
                info = ()
            if self._hint_tile is not None and tile != self._hint_tile:
                # the cursor left the hinted discard: the line now speaks of another tile, and
                # "Hint: discard 1t · Ready after this discard: …" would read as 1t's (pt4 item 5)
                self._hint, self._hint_tile = (), None
            if self._hint:
                info = self._hint + ((" · ",) if info else ()) + info
            return ActionBox(title, tuple(lead + rows), info, True, self._news())
        d = view.get("discard")
        if phase == "claim" and d:
            title = (f"{who(d['seat'])} discarded ", T.parse_tile(d["tile"]), " —")
        elif phase == "rob" and any(a.kind == "win" and a.tile is not None and T.is_bonus(a.tile) for a in req.legal):
            title = ("The eighth flower is drawn —",)  # robbing the eighth (singapore.md "Tai table")
        elif phase == "rob":
            title = ("A kong is being added —",)
        elif phase == "after_kong":
            title = ("Kong! Bloom tile or replacement —",)
        else:
            title = ("Your call —",)
        if s.hot_seat:
            title = (f"{name(req.seat)}: ",) + title
        if clock:
            title = (title[:-1] + clock + (" —",)) if title[-1] == " —" else title + clock
        info = readiness_parts(readiness(s.variant, view))
        if self._hint:
            info = self._hint + ((" · ",) if info else ()) + info
        return ActionBox(title, tuple(rows), info, True, self._news())

    def call_box(self, view: dict, rnd) -> ActionBox:
        """The public call window (hot-seat): who may call, each with his key, and the time
        left; the same for every discard whatever anyone holds."""
        s = self.session
        self.choice_map = {}
        players = view["players"]
        who = f"{s.name(rnd.discarder)} ({wind_word(players[rnd.discarder]['wind'])})"
        if rnd.what == "discard":
            title: tuple = (f"{who} discarded ", T.parse_tile(rnd.tile), " — call?")
        elif rnd.what == "kong":
            title = (f"Rob {who}'s kong of ", T.parse_tile(rnd.tile), "?")
        else:
            title = (f"Rob {who}'s eighth flower, {rnd.tile}?",)
        rows = tuple((str(seat + 1), (f"{s.name(seat)} called" if seat in rnd.called else f"call ({s.name(seat)})",))
                     for seat in rnd.keys)
        left = max(0.0, (rnd.deadline or 0) - asyncio.get_running_loop().time()) if rnd.deadline else s.call_seconds
        info = (f"Space: no calls · {math.ceil(left)} s",)
        if rnd.asked is not None:
            info += (f" · {s.name(rnd.asked)} is asked anyway (auto-draw off)",)
        return ActionBox(title, rows, info, True, ())

    def _news(self, shown: str = "") -> tuple:
        """The action bar's news line: a recent instant payment (singapore.md "Settlement"; e.g. the flower just
        drawn bit), unless the status line already says it."""
        paid = self.session.recent_payment()
        return (paid,) if paid and paid != shown else ()

    # ----------------------------------------------------------------------------------------
    # keys and mouse
    # ----------------------------------------------------------------------------------------
    def _my_request(self) -> Request | None:
        s = self.session
        req = s.request_now
        if req is None or req.seat != s.keyboard or self.too_small:
            return None
        return req

    def on_key(self, event: events.Key) -> None:
        Collector.hold()  # no garbage collection until the answer is painted (areas.Collector)
        if self._call_key(event):
            return
        req = self._my_request()
        if req is None:
            return
        key = event.key
        if req.is_turn and self._order:
            n = len(self._order)
            sel = self.selected if self.selected is not None else n - 1
            if key == "left":
                self.selected = (sel - 1) % n
            elif key == "right":
                self.selected = (sel + 1) % n
            elif key == "home":
                self.selected = 0
            elif key == "end":
                self.selected = n - 1
            elif key in ("enter", "d"):
                event.stop()
                self.discard(sel)
                return
            else:
                if not self.choose(key, event):
                    self._unknown_key(event)
                return
            event.stop()
            self.redraw()
            return
        if not self.choose(key, event):
            self._unknown_key(event)

    def _call_key(self, event: events.Key) -> bool:
        """A key of the public call window: a player's call key (his number) or Space, Enter,
        ``x`` (nobody else calls).  True if it was one."""
        s = self.session
        rnd = s.call_window()
        if rnd is None or self.too_small:
            return False
        key = event.key
        if key in ("1", "2", "3", "4"):
            event.stop()
            if not s.call(int(key) - 1):
                self.app.notify(f"Call keys now: {', '.join(str(k + 1) for k in rnd.keys)}", timeout=2)
            return True
        if key in ("space", "enter", "x"):
            event.stop()
            s.close_call_window()
            return True
        return False

    def _unknown_key(self, event: events.Key) -> None:
        """A key that means nothing in this prompt: say which keys do (not for keys that have
        a binding elsewhere, like ? h q)."""
        if event.key in ("question_mark", "h", "q", "i", "o", "n", "u", "y", "s", "l", "slash", "tab", "shift+tab") or not (event.is_printable or event.key == "enter"):
            return
        req = self._my_request()
        self._hint = ("Use the keys shown: Enter or d discards the chosen tile; s: a hint" if req is not None and req.is_turn
                      else "Use one of the keys shown; x or Space passes; s: a hint",)
        self._hint_tile = None
        self.redraw()

    def action_suggest(self) -> None:
        """``s``: ask ``ai:strong`` what it would do in the keyboard seat's decision, from that
        seat's view and legal actions only (see the module docstring): a discard moves the
        cursor to the tile; anything else is named with its key under the prompt."""
        req = self._my_request()
        if req is None:
            return
        if self._advisor is None or self._advisor.seat != req.seat:
            self._advisor = advisor(self.session.variant, req.seat)
        try:
            a = self._advisor.choose(req.view, list(req.legal))
        except Exception as exc:  # noqa: BLE001 - a hint must never cost the game
            self._hint, self._hint_tile = (f"No hint: {type(exc).__name__}: {exc}",), None
            self.redraw()
            return
        phase = "turn" if req.is_turn else req.view.get("phase", "claim")
        if a.kind == "discard" and req.is_turn and a.tile in self._order:
            at = [i for i, t in enumerate(self._order) if t == a.tile]
            self.selected = at[-1]  # the tile just drawn, if it is that one (set apart at the right)
            self._hint, self._hint_tile = ("Hint: discard ", a.tile), a.tile
        else:
            key = next((k for k, c in self.choice_map.items() if c.action == a), None)
            self._hint_tile = None
            self._hint = ("Hint: ",) + ((f"{key}  ",) if key else ()) + parts(a, phase, self.session.variant)
        self.redraw()

    def choose(self, key: str, event: events.Key | None = None) -> bool:
        req = self._my_request()
        if req is None:
            return False
        c = self.choice_map.get(key)
        if c is None and key in PASS_ALIASES:
            c = next((x for x in self.choice_map.values() if x.action.kind == "pass"), None)
        if c is None:
            return False
        if event is not None:
            event.stop()
        return self.session.answer(c.action)

    def discard(self, index: int) -> bool:
        req = self._my_request()
        if req is None or not req.is_turn or not (0 <= index < len(self._order)):
            return False
        return self.session.answer(Action(req.seat, "discard", self._order[index]))

    def action_choose(self, key: str) -> None:
        self.choose(key)

    def action_tile(self, index: int) -> None:
        req = self._my_request()
        if req is None or not req.is_turn:
            return
        if self.selected == index:
            self.discard(index)
        else:
            self.selected = index
            self.redraw()

    def action_keys(self) -> None:
        from .dialogs import KeysScreen

        s = self.session
        seat = s.keyboard if s.keyboard is not None else s.perspective
        self.app.push_screen(KeysScreen(s.variant, self.art, s.seat_wind(seat)))

    def action_move_log(self) -> None:
        """``l``: the moves of the hand so far, as the seat at the bottom may read them (the
        side panel shows them too where the terminal is wide enough)."""
        from .movelog import MoveLogScreen

        if self.frame is not None and self.frame.log is not None:
            self.app.push_screen(MoveLogScreen(self.frame.log))

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.session.variant.id, self.session.variant))

    def action_auto_draw(self) -> None:
        """``o``: turn auto-draw on or off for the seat at the keyboard (see the module
        docstring), and say which it is now."""
        self._toggle("auto_draw", "auto-draw", "on: take-or-draw prompts answer draw")

    def action_no_calls(self) -> None:
        """``n``: turn "no calls" (auto-pass) on or off for the seat at the keyboard."""
        self._toggle("no_calls", "no calls", "on: every claim passes (a win too, without auto-win)")

    def action_auto_win(self) -> None:
        """``u``: turn auto-win on or off for the seat at the keyboard."""
        self._toggle("auto_win", "auto-win", "on: a win on offer is declared")

    def _toggle(self, name: str, title: str, on_text: str) -> None:
        s = self.session
        seat = s.keyboard
        if seat is None and len(s.humans) == 1:
            seat = s.humans[0]
        if seat not in s.humans:
            self.app.notify("Only the player at the keyboard can change his toggles.", title=title.capitalize(),
                            timeout=2)
            return
        on = seat not in getattr(s, name)
        getattr(s, f"set_{name}")(seat, on)
        who = f"{s.name(seat)}: " if s.hot_seat else ""
        # short and brief: the toast lies over the hand at 80x24; the line under the prompt
        # keeps saying which toggles are on, and the keys screen explains them
        self.app.notify(f"{who}{title} {on_text if on else 'off'}", timeout=2)
        self.redraw()

    def action_why(self) -> None:
        """``y``: why can't I win with this?  The hand of the seat at the keyboard explained
        as ``analyze`` does (:func:`~mahjong_tui.ui.why.explain`), in a dialog that closes
        before the keyboard changes hands."""
        from ..why import explain
        from .dialogs import WhyScreen

        s = self.session
        seat = s.keyboard
        if seat is None or not s.shows_hand(seat):
            self.app.notify("Only the player at the keyboard can ask about his hand.", title="Why", timeout=2)
            return
        req = s.request_now if (s.request_now is not None and s.request_now.seat == seat) else None
        view = req.view if req is not None else s.view()
        lines = explain(s.variant, view, legal=req.legal if req is not None else None)
        self._why_seat = seat
        self.app.push_screen(WhyScreen(lines))

    def _close_private(self) -> None:
        """Close a dialog about the hand at the keyboard (``y``) before the keyboard changes hands."""
        from .dialogs import WhyScreen

        self._why_seat = None
        while isinstance(self.app.screen, WhyScreen):
            self.app.pop_screen()

    def action_chat(self) -> None:
        """``/`` at a LAN table: type a short message to the other players (it goes to the
        move log; never a move)."""
        if not self.session.network:
            return
        from .lan import ChatScreen

        self.app.push_screen(ChatScreen(self.session))

    def action_table_info(self) -> None:
        if not self.session.network:
            return
        from .lan import TableInfoScreen

        self.app.push_screen(TableInfoScreen(self.session))

    def action_quit(self) -> None:
        from .dialogs import QuitScreen

        if self._leaving:
            return
        s = self.session
        if s.finished:
            self.leave(None)
            return
        if s.network:
            from .lan import NetQuitScreen

            self.app.push_screen(NetQuitScreen(s), lambda result: result and self.leave(None))
            return

        def done(result) -> None:
            if not result:
                return
            if result[0] == "save":
                try:
                    path = s.save(result[1])
                except OSError as exc:
                    self.app.notify(f"Could not save: {exc}", severity="error")
                    return
                self.leave(str(path))
            else:
                self.leave(None)

        self.app.push_screen(QuitScreen(str(s.save_path or self.app.default_save_path(s.variant.id))), done)

    def keep_in_history(self) -> str | None:
        """Keep the finished match in the history (:func:`mahjong_tui.history.record`, with
        the names the table shows); returns the file written, or None: a LAN joiner (only the
        host has the game log) or a file that could not be written (said in a notice)."""
        from ...history import record
        from ...paths import history_dir

        s = self.session
        if not s.can_save:
            return None
        try:
            return str(record(s.game_log(), [s.name(i) for i in range(4)],
                              folder=history_dir(getattr(self.app, "env", os.environ))))
        except OSError as exc:
            self.app.notify(f"The match could not be kept in the history: {exc.strerror or exc}",
                            severity="warning", timeout=10)
            return None

    def save_finished(self, path: str) -> str:
        """Save a finished match for replay: to its journal (or the file it was resumed from)
        when there is one, else to ``path``; returns the path written."""
        return str(self.session.save(self.session.save_path or path))

    def leave(self, saved: str | None) -> None:
        """Stop the game and leave the table (to the menu, or out of the app)."""
        if self._leaving:
            return
        self._leaving = True
        self.session.stop()
        # the journal stays only where the player saved (or where an error left the game)
        self.session.close_journal(keep=saved is not None and self.session.journal_path is not None
                                   and saved == str(self.session.journal_path))
        if self._game_worker is not None:
            self._game_worker.cancel()
        if self.on_leave is not None:
            self.on_leave(saved)
