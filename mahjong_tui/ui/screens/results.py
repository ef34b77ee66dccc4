"""End of a hand and end of the match (issue 3 §6)."""

from __future__ import annotations

from typing import Callable, Sequence

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from ... import tiles as T
from ..model import fmt_num, parse, pattern_words, picked_indices, payment_words, standings, tile_text, transfers, wind_word
from ..widgets.art import TileArt, flow, join_lines
from ..widgets.chart import ScoreChart
from .base import BaseScreen


def unit_value(value: float, unit: str) -> str:
    """``'68 points'``, ``'×4'`` (multipliers), ``'3 fan'``."""
    v = fmt_num(value)
    if unit.startswith("multiplier"):
        return f"×{v}"
    if unit in ("points", "doublings", "limits") and v == "1":
        unit = unit[:-1]
    return f"{v} {unit}"


def pattern_value(p: dict, unit: str) -> str:
    """A breakdown item's value: ``'2 fan'``, ``'×2'``, ``'5 tai (limit)'`` (a limit hand of
    the tai scheme, singapore.md "Winning hands")."""
    if p.get("kind") == "limit":
        return unit_value(p["value"], unit) + " (limit)"
    return unit_value(p["value"], p.get("kind") or unit)


def hand_change(s: dict, seat: int) -> float:
    """A seat's score change over the hand: the win's settlement plus the instant payments
    made during it (singapore.md "Settlement")."""
    return s["deltas"][seat] + (s.get("instant_deltas") or [0, 0, 0, 0])[seat]


def signed(x: float) -> str:
    """``'+68'``, ``'-4'``, ``'0'``."""
    return ("+" if x > 0 else "") + fmt_num(x)


def meld_notation(text: str) -> tuple[list[int], set[int]]:
    """A revealed meld (``'(777t)'``, ``'[CCCC]'``) as tiles + face-down indices."""
    inner = text.strip("()[]")
    tiles = list(parse(inner))
    down = {0, len(tiles) - 1} if text.startswith("[") else set()
    return tiles, down


def won_without(concealed: Sequence[int], melds: Sequence[str]) -> bool:
    """True if a winner's revealed hand lacks the tile it won on: its concealed tiles and
    melds (a kong counts as three) come to 13, not 14 — the second winner on one discard (the
    discard joins the nearest winner's hand only)."""
    return len(concealed) + 3 * len(melds) == 13


class RevealedHands(Widget):
    """Every seat's hand at the end of a hand, winners marked, the winning tile underlined, a
    discard picked up into the hand followed by ``*`` (Classic G-OX-2)."""

    DEFAULT_CSS = """
    RevealedHands { height: auto; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, summary: dict, names: Sequence[str], art: TileArt):
        super().__init__()
        self.summary = summary
        self.names = list(names)
        self.art = art

    def lines(self, width: int) -> list[Text]:
        s = self.summary
        art = self.art
        winners = {w["seat"]: w for w in s["winners"]}
        out: list[Text] = []
        for seat in range(4):
            h = s["hands"][seat]
            head = Text(no_wrap=True, end="")
            mark = "*" if art.faces.ascii_only else "★"
            head.append(f"{mark} " if seat in winners else "  ", "bold")
            head.append(f"{s['seat_winds'][seat]} ", "bold")
            head.append(f"{self.names[seat]:<9}", "bold" if seat in winners else "")
            delta = hand_change(s, seat)
            head.append(signed(delta).rjust(6), "bold" if delta > 0 else "")
            items = [head]
            concealed = list(parse(h["concealed"]))
            win_tile = T.parse_tile(winners[seat]["tile"]) if seat in winners and winners[seat].get("tile") else None
            if win_tile is not None and not T.is_bonus(win_tile) and won_without(concealed, h["melds"]):
                # several winners on one discard: the one tile joined the nearest winner's hand;
                # every other winner is shown with it too, as he was scored
                concealed = sorted(concealed + [win_tile], key=T.sort_key)
            hi = set()
            if win_tile is not None and win_tile in concealed:
                hi = {len(concealed) - 1 - concealed[::-1].index(win_tile)}
            picked = picked_indices(concealed, h.get("picked_up"))
            if picked:  # discards picked up into the hand (G-OX-2: they count as open) get a *
                row = Text(no_wrap=True, end="")
                for i, t in enumerate(concealed):
                    if i:
                        row.append(" ")
                    face = art.tile(t, highlight=i in hi)
                    row.append_text(art.with_picked_mark(face) if i in picked else face)
                items.append(row)
            else:
                items.append(art.row(concealed, highlight=hi))
            for m in h["melds"]:
                tiles, down = meld_notation(m)
                items.append(art.meld(tiles, down))
            bonus = list(parse(h["bonus"]))
            if bonus:
                items.append(art.row(bonus))
            out += flow(items, width, 2, indent=cell_len(head.plain) + 2)  # wraps under the tiles
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return join_lines(self.lines(self.content_size.width))


class Breakdown(Widget):
    """One winner's scoring breakdown: each pattern in words, its id, count and value, then
    the total (and the points of a ladder, Uzje).  The value, count and total columns are
    always whole: the description wraps when the screen is narrow, and below
    :attr:`ID_WIDTH` columns the id column (the scorer's name, as ``mahjong-tui score``
    prints it) is left out."""

    DEFAULT_CSS = """
    Breakdown { height: auto; }
    """
    #: narrowest width that shows the pattern ids
    ID_WIDTH = 100

    def __init__(self, winner: dict):
        super().__init__(classes="breakdown")
        self.winner = winner

    def table(self, width: int) -> Table:
        w = self.winner
        ids = width >= self.ID_WIDTH
        t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 2), header_style="bold",
                  row_styles=("", "on grey11"), expand=False)
        t.add_column("pattern", overflow="fold")
        if ids:
            t.add_column("id", style="dim", no_wrap=True)
        t.add_column("count", no_wrap=True, justify="right")
        t.add_column("value", no_wrap=True, justify="right")

        def row(*cells):
            t.add_row(*(cells if ids else cells[:1] + cells[2:]))

        for p in w["patterns"]:
            row(pattern_words(p), p["id"], f"×{p['count']}" if p.get("count", 1) != 1 else "",
                pattern_value(p, w["unit"]))
        row(Text("Total", style="bold"), "", "", Text(unit_value(w["value"], w["unit"]), style="bold"))
        if w.get("points") is not None:   # a ladder from the unit to points (Uzje)
            row(Text("Points", style="bold"), "", "", Text(unit_value(w["points"], "points"), style="bold"))
        return t

    def get_content_height(self, container, viewport, width: int) -> int:
        console = self.app.console
        return len(console.render_lines(self.table(width), console.options.update_width(width), pad=False))

    def render(self) -> Table:
        return self.table(self.content_size.width)


def others_breakdown(s: dict, names: Sequence[str]) -> Table:
    """Each non-winner's own hand value where every player scores his hand (Classic G-OX-6),
    one row each: name, total, then the patterns that made it, compactly (``Open pung of
    2–8 2 points · Flower or season 4 points``; those worth nothing, a chow, left out),
    wrapping under themselves on a narrow screen; a hand that scores nothing says so."""
    unit = s["winners"][0]["unit"] if s.get("winners") else "points"
    patterns = {int(k): v for k, v in (s.get("loser_patterns") or {}).items()}
    t = Table.grid(padding=(0, 1))
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True, justify="right")
    t.add_column(overflow="fold")
    for k, value in sorted(s["loser_scores"].items(), key=lambda kv: int(kv[0])):
        seat = int(k)
        items = []
        for p in patterns.get(seat, []):
            if not p["value"] and p.get("kind") != "limit":
                continue  # a chow's 0 points
            count = f" ×{p['count']}" if p.get("count", 1) != 1 else ""
            items.append(f"{pattern_words(p)}{count} {pattern_value(p, unit)}")
        what = " · ".join(items) if items else ("nothing scores" if not value else "")
        t.add_row(Text(f"  {names[seat]}"), Text(unit_value(value, unit) + ":", style="bold"), Text(what))
    return t


def headline(s: dict, names: Sequence[str]) -> str:
    """The scoring screen's title: the hand, the round, who won on what (tiles as the table
    shows them: ``13s``, not the notation's ``cs``; ``You (East) win``, ``Bot 2 (South)
    wins``)."""
    n = s["hand"] + 1
    wind = wind_word(s["prevailing_wind"])
    head = f"Hand {n} · {wind} round — "

    def who(seat: int) -> str:
        return f"{names[seat]} ({wind_word(s['seat_winds'][seat])})"

    def wins(seat: int) -> str:  # "Bot 2 (South) wins", "You (East) win"
        return f"{who(seat)} {'win' if names[seat] == 'You' else 'wins'}"

    if s["result"] != "win" or not s["winners"]:
        return head + "exhaustive draw: nobody wins"
    ws = s["winners"]
    tile = tile_text(ws[0]["tile"]) if ws[0].get("tile") else ""
    if len(ws) == 1:
        w = wins(ws[0]["seat"])
        if ws[0].get("form") == "flowers":  # singapore.md "Tai table" flower wins
            if s.get("robbed"):
                return head + f"{w} by robbing {who(s['discarder'])}'s eighth flower"
            return head + f"{w} with all eight flowers"
        if s["self_draw"]:
            return head + f"{w}, self-drawn {tile}"
        if s.get("robbed"):
            return head + f"{w} by robbing {who(s['discarder'])}'s kong of {tile}"
        return head + f"{w} on {who(s['discarder'])}'s discard of {tile}"
    names_w = " and ".join(who(w["seat"]) for w in ws)
    both = "both" if len(s["winners"]) == 2 else "all"
    return head + f"{names_w} {both} win on {who(s['discarder'])}'s discard of {tile}"


class HandEndScreen(BaseScreen):
    """Every hand revealed, each winner's scoring breakdown (patterns in words, values, total),
    who pays whom, then the standings.  Enter goes on.

    ``replay``: opened from a replay (Enter on a step), where Enter, Esc (and q) only close it,
    back to the replay, and its key line says so; at a table Enter goes on to the next hand and
    q leaves the table."""

    BINDINGS = [
        Binding("enter", "next", "Next hand"),
        Binding("space", "next", "Next hand", show=False),
        Binding("q", "leave", "Leave the table"),
        Binding("escape", "back", "Back to the replay", show=False),  # a replay's only
    ]

    def __init__(self, summary: dict, names: Sequence[str], art: TileArt, variant, match_over: bool = False,
                 notice: Callable[[], str] | None = None, you: int | None = None, replay: bool = False):
        super().__init__(classes="results")
        self.replay = replay
        self.summary = summary
        self.names = list(names)
        self.you = you  # the seat addressed as "You" ("You pay …"), if any
        self.art = art
        self.variant = variant
        self.match_over = match_over
        self.notice = notice  # LAN: what waits at the table meanwhile (the match goes on)

    def compose_body(self) -> ComposeResult:
        s = self.summary
        names = self.names
        # player names may come from the network: every text holding one is plain, not markup
        yield Static(headline(s, names), id="result-title", markup=False)
        with VerticalScroll(id="result-body"):
            yield RevealedHands(s, names, self.art)
            for w in s["winners"]:
                seat = w["seat"]
                form = (w.get("form") or "").replace("_", " ")
                yield Static(f"Scoring — {names[seat]} ({wind_word(s['seat_winds'][seat])}), {form} hand",
                             classes="section", markup=False)
                yield Breakdown(w)
            if s.get("loser_scores"):
                yield Static("Hand values of the others", classes="section")
                yield Static(others_breakdown(s, names), markup=False)
            pays = transfers(s["deltas"])
            if pays:
                yield Static("Who pays whom", classes="section")
                yield Static("\n".join(f"  {names[a]} {'pay' if a == self.you else 'pays'} {names[b]} "
                                        f"{fmt_num(x)}" for a, b, x in pays),
                             markup=False)
            elif s["result"] == "win":
                yield Static("Nobody pays: each hand's value is added to its owner's score.", classes="section")
            if s.get("instant_payments"):
                yield Static("Instant payments during the hand (each other player paid)", classes="section")
                yield Static("\n".join(f"  {names[p['seat']]} +{fmt_num(p['amount'])} each: {payment_words(p)}"
                                        for p in s["instant_payments"]), markup=False)
            yield Static("Standings", classes="section")
            st: DataTable = DataTable(show_cursor=False, zebra_stripes=True, classes="standings")
            st.can_focus = False
            st.add_columns("#", "player", "this hand", "score")
            for rank, seat, score in standings(s["scores"]):
                d = hand_change(s, seat)
                st.add_row(str(rank), Text(names[seat]), signed(d), fmt_num(score))
            yield st
        nxt = "see the final standings" if self.match_over else "next hand"
        if self.notice is not None:
            nxt = "back to the table" if not self.match_over else nxt
            yield Static("", id="result-notice", markup=False)
        if self.replay:
            yield Static("Enter/Esc: back to the replay   ↑↓: scroll", classes="screen-hint")
        else:
            yield Static(f"Enter: {nxt}   ↑↓: scroll   q: leave the table", classes="screen-hint")

    def on_mount(self) -> None:
        if self.notice is not None:
            self._show_notice()
            self.set_interval(0.5, self._show_notice)

    def _show_notice(self) -> None:
        text = self.notice() if self.notice is not None else ""
        w = self.query_one("#result-notice", Static)
        w.display = bool(text)
        w.update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc closes the screen in a replay only (at a table Enter goes on, q leaves)."""
        return self.replay if action == "back" else True

    def action_next(self) -> None:
        self.dismiss("next")

    def action_back(self) -> None:
        """Esc in a replay: back to the replay."""
        self.dismiss("back")

    def action_leave(self) -> None:
        self.dismiss("quit")


class MatchEndScreen(BaseScreen):
    """Final standings (hands won, of them self-drawn, hands dealt in — the discard or robbed
    tile another seat won on —, score) and a chart of each seat's score over the hands."""

    BINDINGS = [
        Binding("enter", "leave", "Leave"),
        Binding("q", "leave", "Leave", show=False),
        Binding("escape", "leave", "Leave", show=False),
        Binding("s", "save", "Save for replay"),
    ]

    def __init__(self, history: Sequence[dict], names: Sequence[str], art: TileArt, variant,
                 start_score: float = 0, save: Callable[[str], str] | None = None):
        super().__init__(classes="results")
        self.history = list(history)
        self.names = list(names)
        self.art = art
        self.variant = variant
        self.start_score = start_score
        self.save = save

    def series(self) -> list[list[float]]:
        out = [[float(self.start_score)] for _ in range(4)]
        for h in self.history:
            for s in range(4):
                out[s].append(float(h["scores"][s]))
        return out

    def compose_body(self) -> ComposeResult:
        series = self.series()
        final = [s[-1] for s in series]
        wins, self_drawn, dealt_in = [0] * 4, [0] * 4, [0] * 4
        for h in self.history:
            for w in h["winners"]:
                wins[w["seat"]] += 1
                if h.get("self_draw"):
                    self_drawn[w["seat"]] += 1
            if h.get("result") != "draw" and h.get("discarder") is not None:
                dealt_in[h["discarder"]] += 1  # the discard (or robbed kong) that won
        yield Static(f"Match over — {self.variant.name}, {len(self.history)} hand{'s' if len(self.history) != 1 else ''}", id="result-title")
        st: DataTable = DataTable(show_cursor=False, zebra_stripes=True, classes="standings")
        st.can_focus = False
        st.add_columns("#", "seat", "player", "hands won", "self-drawn", "dealt in", "score")
        for rank, seat, score in standings(final):
            st.add_row(str(rank), str(seat + 1), Text(self.names[seat]), str(wins[seat]), str(self_drawn[seat]),
                       str(dealt_in[seat]), fmt_num(score))
        yield st
        yield Static("Score over the hands (seat numbers mark each hand)", classes="section")
        yield ScoreChart(series, self.names, ascii=self.art.faces.ascii_only, id="chart")
        hint = "Enter: leave" + ("   s: save the game for replay" if self.save else "")
        yield Static(hint, classes="screen-hint", id="match-hint")

    def action_leave(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        if self.save is None:
            return
        path = self.app.default_save_path(self.variant.id)
        try:
            written = self.save(path)
        except OSError as exc:
            self.app.notify(f"Could not save: {exc}", severity="error")
            return
        self.query_one("#match-hint", Static).update(f"Saved to {written}  ·  Enter: leave")
        self.app.notify(f"Saved: mahjong-tui replay {written}")
