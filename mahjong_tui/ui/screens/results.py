"""End of a hand and end of the match (issue 3 §6; issue 21 items 6 and 7).

:class:`HandEndScreen` is a scoring screen a player can check by hand: every hand revealed;
each winner's hand laid out in the melds the scorer read it in (the hand summary's ``melds``
and ``winning_group``), how the winning tile came, the patterns in words with values that
cannot be misread, the arithmetic of the total and of every payment — written by
:mod:`mahjong_tui.scoring.explain`, the one place that arithmetic lives; who lost a win on the
same discard to a nearer seat (``beaten``); the others' own values where every player scores
(Classic).  :class:`MatchEndScreen` puts the final standings beside the chart of the match
(:mod:`mahjong_tui.ui.widgets.chart`), each seat in its colour and with its number.  Both read
only the engine's hand summaries (``engine/table.py`` ``_end_hand``), as a LAN client gets them.
"""

from __future__ import annotations

from typing import Callable, Sequence

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from ... import tiles as T
from ...scoring.explain import (arithmetic, meld_label, pattern_amount, result_from_summary, unit_value, value_line,
                               win_payments, zero_sum_payments)
from ..frame import MeldBox, meld_box
from ..model import fmt_num, parse, pattern_words, picked_indices, payment_words, standings, tile_text, transfers, wind_word
from ..widgets.art import TileArt, flow, join_lines
from ..widgets.chart import SEAT_STYLES, ScoreChart
from .base import BaseScreen


def pattern_value(p: dict, unit: str) -> str:
    """A breakdown item's value as :func:`~mahjong_tui.scoring.explain.pattern_amount` says
    it: ``'2 fan'``, ``'×2'``, ``'5 tai (limit)'``, ``'2 × 4 points = 8 points'``."""
    return pattern_amount(result_from_summary({"patterns": [p]}).patterns[0], unit)


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


def revealed_melds(hand: dict, seat: int, winds: Sequence[str] | None) -> list[MeldBox]:
    """A revealed hand's melds (the hand summary's ``melds``, and ``claims``: the discard
    claimed into each and the seat it came from) as the table draws them
    (:func:`~..frame.meld_box`): ``4m(5m)6m←W``."""
    claims = hand.get("claims") or []
    out = []
    for i, text in enumerate(hand["melds"]):
        tiles, down = meld_notation(text)
        c = claims[i] if i < len(claims) else None
        out.append(meld_box(tiles, down, c and c.get("claimed"), c and c.get("from_seat"), seat, winds))
    return out


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
            for m in revealed_melds(h, seat, s["seat_winds"]):
                items.append(art.meld(m.tiles, m.down, m.claimed, m.source))
            bonus = list(parse(h["bonus"]))
            if bonus:
                items.append(art.row(bonus))
            out += flow(items, width, 2, indent=cell_len(head.plain) + 2)  # wraps under the tiles
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return join_lines(self.lines(self.content_size.width))


class MeldLayout(Widget):
    """A winner's hand laid out in the melds the scorer read it in (the hand summary's
    ``melds``: every group of the best decomposition, notation strings), each group named
    under its tiles (``pung``, ``exposed chow``, ``pair``; Uzje's ``arith`` …), the winning
    tile underlined in the group the scorer put it in (``winning_group``), the bonus tiles
    last.  A hand without groups (thirteen orphans, the ultra-long straight) is shown as it
    was revealed; a flower win shows its flowers.  Groups wrap as whole groups."""

    DEFAULT_CSS = """
    MeldLayout { height: auto; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, winner: dict, hand: dict, art: TileArt, variant, winds: Sequence[str] | None = None):
        super().__init__(classes="melds")
        self.winner = winner
        self.hand = hand
        self.art = art
        self.variant = variant
        self.winds = winds  # by seat: a claimed tile's meld names the seat it came from (as the table does)

    def groups(self) -> list[tuple[Text, str]]:
        """(tiles, label) of each group, in-hand groups first (as the scorer ordered them,
        the pair last), then the declared melds, then the bonus tiles."""
        w, art = self.winner, self.art
        melds = list(w.get("melds") or ())
        won_at = w.get("winning_group")
        tile = T.parse_tile(w["tile"]) if w.get("tile") else None
        out: list[tuple[Text, str]] = []
        declared = [i for i, m in enumerate(melds) if m[:1] in "([" and m]
        shown = self.shown_melds()
        for i in [i for i in range(len(melds)) if i not in declared] + declared:
            tiles, down = meld_notation(melds[i])
            kinds = [self.variant.physical(t) for t in tiles]   # a zero read as rank 0 is still the zero
            hi = {kinds.index(tile)} if i == won_at and tile in kinds else set()
            m = shown.pop(melds[i], None) if i in declared and not hi else None
            if m is not None:  # a declared meld as on the table: its claimed tile and whence
                face = art.meld(m.tiles, m.down, m.claimed, m.source)
            else:
                face = art.faces.render_row(tiles, 1, face_down=set(down), highlight=hi)
            out.append((face, meld_label(self.variant, melds[i])))
        if not melds and w.get("form") != "flowers":   # a form without groups: the tiles as revealed
            concealed = list(parse(self.hand["concealed"]))
            if tile is not None and not T.is_bonus(tile) and won_without(concealed, self.hand["melds"]):
                concealed = sorted(concealed + [tile], key=T.sort_key)
            hi = {len(concealed) - 1 - concealed[::-1].index(tile)} if tile in concealed else set()
            out.append((art.row(concealed, highlight=hi), (w.get("form") or "").replace("_", " ")))
            for text, m in zip(self.hand["melds"], revealed_melds(self.hand, w["seat"], self.winds)):
                out.append((art.meld(m.tiles, m.down, m.claimed, m.source), meld_label(self.variant, text)))
        bonus = list(parse(self.hand["bonus"]))
        if tile is not None and T.is_bonus(tile) and tile not in bonus:
            bonus.append(tile)   # a robbed eighth flower joined the nearest winner only
        if bonus:
            hi = {bonus.index(tile)} if w.get("form") == "flowers" and tile in bonus else set()
            out.append((art.row(bonus, highlight=hi), "flowers" if w.get("form") == "flowers" else "bonus"))
        return out

    def shown_melds(self) -> dict[str, MeldBox]:
        """The hand's declared melds as drawn on the table, by their notation (each once)."""
        out: dict[str, MeldBox] = {}
        if self.winds is None:
            return out
        for text, m in zip(self.hand["melds"], revealed_melds(self.hand, self.winner["seat"], self.winds)):
            out.setdefault(text, m)
        return out

    def lines(self, width: int) -> list[Text]:
        gap = 3
        rows: list[list[tuple[Text, str]]] = [[]]
        used = 0
        for face, label in self.groups():
            w = max(cell_len(face.plain), cell_len(label))
            if rows[-1] and used + gap + w > width:
                rows.append([])
                used = 0
            used += (gap if rows[-1] else 0) + w
            rows[-1].append((face, label))
        out: list[Text] = []
        for row in rows:
            if not row:
                continue
            top, bottom = Text(no_wrap=True, end=""), Text(no_wrap=True, end="", style="dim")
            for j, (face, label) in enumerate(row):
                w = max(cell_len(face.plain), cell_len(label))
                if j:
                    top.append(" " * gap)
                    bottom.append(" " * gap)
                top.append_text(face)
                top.append(" " * (w - cell_len(face.plain)))
                bottom.append(label.ljust(w))
            out += [top, bottom]
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return join_lines(self.lines(self.content_size.width))


class Breakdown(Widget):
    """One winner's scoring breakdown: each pattern in words and its value (a pattern counted
    twice says ``2 × 4 points = 8 points``), then the arithmetic that makes the total
    (:func:`~mahjong_tui.scoring.explain.arithmetic`: ``(4 + 4) × 2 × 2 = 32 points``; Uzje's
    ladder to points).  The value column is always whole: the description wraps when the
    screen is narrow.  ``ids``: the id column too (the scorer's name for each pattern, as
    ``mahjong-tui score`` prints it), shown on request (``i``)."""

    DEFAULT_CSS = """
    Breakdown { height: auto; }
    """

    def __init__(self, winner: dict, variant, ids: bool = False):
        super().__init__(classes="breakdown")
        self.winner = winner
        self.variant = variant
        self.ids = ids

    def table(self, width: int) -> Table:
        w = self.winner
        t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 2), header_style="bold",
                  row_styles=("", "on grey11"), expand=False)
        t.add_column("pattern", overflow="fold")
        if self.ids:
            t.add_column("id", style="dim", no_wrap=True)
        t.add_column("value", no_wrap=True, justify="right")
        # what is added up first, then what multiplies it (Classic's doublings)
        for p in sorted(w["patterns"], key=lambda p: p.get("kind") == "doublings"):
            cells = [pattern_words(p)] + ([p["id"]] if self.ids else []) + [pattern_value(p, w["unit"])]
            t.add_row(*cells)
        return t

    def total(self) -> Table:
        """``Total`` and the lines of arithmetic beside it, wrapping under themselves."""
        w = self.winner
        lines = arithmetic(self.variant, result_from_summary(w)) or [unit_value(w["value"], w["unit"])]
        t = Table.grid(padding=(0, 2))
        t.add_column(no_wrap=True, style="bold", min_width=5)
        t.add_column(style="bold")
        for i, line in enumerate(lines):
            t.add_row("Total" if i == 0 else "", line)
        return t

    def renderable(self, width: int) -> Group:
        return Group(self.table(width), self.total())

    def get_content_height(self, container, viewport, width: int) -> int:
        console = self.app.console
        return len(console.render_lines(self.renderable(width), console.options.update_width(width), pad=False))

    def render(self) -> Group:
        return self.renderable(self.content_size.width)


def others_breakdown(s: dict, names: Sequence[str], variant) -> Table:
    """Each non-winner's own hand value where every player scores his hand (Classic G-OX-6),
    one row each: name, total, then the patterns that made it, compactly (``Exposed pung of
    simples 2 points · Flower or season of another wind 4 points``; those worth nothing, a
    chow, left out) and, where it takes more than one number, the arithmetic (``→ (2 + 4) ×
    2 = 12``), wrapping under themselves on a narrow screen; a hand that scores nothing says
    so."""
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
            items.append(f"{pattern_words(p)} {pattern_value(p, unit)}")
        what = " · ".join(items) if items else ("nothing scores" if not value else "")
        scored = [p for p in patterns.get(seat, []) if p["value"]]
        sums = arithmetic(variant, result_from_summary({"value": value, "unit": unit, "patterns": scored}))
        # the sum where it takes more than one pattern (one pattern's words say its amount)
        if sums and len(scored) > 1:
            what += f" → {sums[0]}"
        t.add_row(Text(f"  {names[seat]}"), Text(unit_value(value, unit) + ":", style="bold"), Text(what))
    return t


def how_won(s: dict, w: dict, names: Sequence[str]) -> str:
    """How the winning tile came, in words: ``'Won with 6m, drawn from the wall'``, ``'… a
    replacement tile after a kong'``, ``'Won on 5s, Bot 2 (South)'s discard'``, ``'Won on
    5s, your discard'``, ``'Won on 9s, robbed from Bot 2 (South)'s kong'``, ``'Won on Bm,
    Bot 3 (West)'s eighth flower'``."""
    sits = set(w.get("situations") or ())
    tile = tile_text(w["tile"]) if w.get("tile") else ""

    def who(seat: int) -> str:  # possessive: "Bot 2 (South)'s", "your"
        if names[seat] == "You":
            return "your"
        return f"{names[seat]} ({wind_word(s['seat_winds'][seat])})'s"

    if w.get("form") == "flowers":
        if s.get("robbed") and s.get("discarder") is not None:
            return f"Won on {tile}, {who(s['discarder'])} eighth flower"
        return f"Won with the flowers, {tile} the last"
    if s.get("self_draw"):
        if sits & {"kong_replacement", "double_kong_replacement"} and "bloom_tile" not in sits:
            how = "a replacement tile after " + ("two kongs in a row" if "double_kong_replacement" in sits else "a kong")
        elif "bloom_tile" in sits:
            how = "a bloom tile"
        elif "flower_replacement" in sits:
            how = "a replacement tile after a flower"
        elif "heavenly" in sits:
            how = "the dealer's dealt hand"
        elif sits & {"last_wall_tile", "last_wall_replacement"}:
            how = "the last tile of the wall"
        else:
            how = "drawn from the wall"
        return f"Won with {tile}, {how}"
    if s.get("robbed") and s.get("discarder") is not None:
        return f"Won on {tile}, robbed from {who(s['discarder'])} kong"
    what = "the last discard" if "last_discard" in sits else "discard"
    after = " (after a kong)" if "discard_after_kong" in sits else ""
    return f"Won on {tile}, {who(s['discarder'])} {what}{after}" if s.get("discarder") is not None else f"Won on {tile}"


def beaten_note(s: dict, names: Sequence[str], you: int | None) -> str | None:
    """Who else declared a win on the same discard and lost it to a nearer seat (one winner
    per discard, ``claims.multiple_winners`` false; the hand summary's ``beaten``):
    ``'You also declared a win on 5s, but Bot 2 (South) sits nearer after the discarder and
    takes it: one winner per discard.'``; None when nobody was."""
    beaten = list(s.get("beaten") or ())
    if not beaten or not s.get("winners"):
        return None
    w = s["winners"][0]
    tile = tile_text(w["tile"]) if w.get("tile") else "it"

    def who(seat: int) -> str:
        return "You" if seat == you else f"{names[seat]} ({wind_word(s['seat_winds'][seat])})"

    them = " and ".join(who(b) for b in beaten)
    winner = who(w["seat"])
    return (f"{them} also declared a win on {tile}, but {winner} {'sit' if w['seat'] == you else 'sits'} nearer "
            f"after the discarder and {'take' if w['seat'] == you else 'takes'} it: one winner per discard.")


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
    """The scoring screen, to be checked by hand: every hand revealed; each winner's hand laid
    out in the melds the scorer read it in, the winning tile and how it came, the patterns in
    words with their values, the arithmetic of the total and of each payment (V and who pays
    whom how much, :mod:`mahjong_tui.scoring.explain`); who lost a win on the same discard to
    a nearer seat; the others' own hand values where every player scores (Classic); the
    instant payments; then the standings.  Enter goes on; ``i`` shows the pattern ids.

    ``replay``: opened from a replay (Enter on a step), where Enter, Esc (and q) only close it,
    back to the replay, and its key line says so; at a table Enter goes on to the next hand and
    q leaves the table."""

    BINDINGS = [
        Binding("enter", "next", "Next hand"),
        Binding("space", "next", "Next hand", show=False),
        Binding("q", "leave", "Leave the table"),
        Binding("i", "ids", "Pattern ids", show=False),
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
        self.show_ids = False

    def payment_lines(self, w: dict) -> list[str]:
        """One winner's payments with their arithmetic: ``V = 2^(4 − 1) = 8``, then
        ``Bot 2 pays You 2 × 8 = 16 (discarder)`` … (``winner_collects``); [] where nobody
        pays (``cumulative``) or the variant settles otherwise."""
        s, names = self.summary, self.names
        res = result_from_summary(w)
        try:
            pays = win_payments(self.variant, res, winner=w["seat"], self_draw=bool(s.get("self_draw")),
                                discarder=s.get("discarder"), liable=w.get("paid_by"),
                                winners=[x["seat"] for x in s["winners"]], situations=w.get("situations") or ())
        except ValueError:
            return []
        if not pays:
            return []
        return [value_line(self.variant, res)] + [self.payment_text(p) for p in pays]

    def payment_text(self, p) -> str:
        """``'Bot 2 pays You: 2 × 16 = 32 (discarder)'``, ``'You pay Bot 3: 2'``."""
        verb = "pay" if p.payer == self.you else "pays"
        amount = f"{p.how} = {fmt_num(p.amount)}" if p.how else fmt_num(p.amount)
        why = f" ({p.why})" if p.why and p.why != "self-draw" else ""
        return f"{self.names[p.payer]} {verb} {self.names[p.payee]}: {amount}{why}"

    def zero_sum_lines(self) -> list[str]:
        """Classic's zero-sum option: every payment worked out
        (:func:`~mahjong_tui.scoring.explain.zero_sum_payments`), [] in the other modes."""
        s = self.summary
        pays = zero_sum_payments(self.variant, seat_winds=s["seat_winds"],
                                 winners=[(w["seat"], w["value"]) for w in s["winners"]],
                                 loser_scores={int(k): v for k, v in (s.get("loser_scores") or {}).items()})
        return [self.payment_text(p) for p in pays]

    def compose_body(self) -> ComposeResult:
        s = self.summary
        names = self.names
        # player names may come from the network: every text holding one is plain, not markup
        yield Static(headline(s, names), id="result-title", markup=False)
        with VerticalScroll(id="result-body"):
            yield RevealedHands(s, names, self.art)
            note = beaten_note(s, names, self.you)
            if note:
                yield Static(note, classes="section beaten", markup=False)
            explained = False
            for w in s["winners"]:
                seat = w["seat"]
                form = (w.get("form") or "").replace("_", " ")
                yield Static(f"Scoring — {names[seat]} ({wind_word(s['seat_winds'][seat])}), {form} hand. "
                             f"{how_won(s, w, names)}", classes="section", markup=False)
                yield MeldLayout(w, s["hands"][seat], self.art, self.variant, s["seat_winds"])
                yield Breakdown(w, self.variant, ids=self.show_ids)
                pays = self.payment_lines(w)
                if pays:
                    explained = True
                    grid = Table.grid(padding=(0, 2))
                    grid.add_column(no_wrap=True, style="bold", min_width=5)
                    grid.add_column()
                    for i, line in enumerate(pays):
                        grid.add_row("Paid" if i == 0 else "", Text(line))   # names are plain text, never markup
                    yield Static(grid, classes="payments", markup=False)
            if s.get("loser_scores"):
                yield Static("Hand values of the others", classes="section")
                yield Static(others_breakdown(s, names, self.variant), markup=False)
            pays = transfers(s["deltas"])
            zero_sum = self.zero_sum_lines() if pays and not explained else []
            if zero_sum:
                yield Static("Who pays whom (each loser pays the winner his value; the losers settle the "
                             "differences of their own)", classes="section")
                yield Static("\n".join(f"  {x}" for x in zero_sum), markup=False)
            elif pays and not explained:
                yield Static("Who pays whom", classes="section")
                yield Static("\n".join(f"  {names[a]} {'pay' if a == self.you else 'pays'} {names[b]} "
                                        f"{fmt_num(x)}" for a, b, x in pays),
                             markup=False)
            elif s["result"] == "win" and not pays:
                yield Static("Nobody pays: each player's hand value is added to his own score.", classes="section")
            if s.get("instant_payments"):
                yield Static("Instant payments during the hand", classes="section")
                yield Static("\n".join(f"  {names[p['seat']]} +{fmt_num(p['deltas'][p['seat']])} "
                                        f"({fmt_num(p['amount'])} from each other player): {payment_words(p)}"
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
        ids = "   i: ids" if s["winners"] else ""
        if self.replay:
            yield Static(f"Enter/Esc: back to the replay{ids}   ↑↓: scroll", classes="screen-hint")
        else:
            yield Static(f"Enter: {nxt}{ids}   ↑↓: scroll   q: leave", classes="screen-hint")

    def action_ids(self) -> None:
        """``i``: show or hide the pattern ids in every breakdown."""
        self.show_ids = not self.show_ids
        for b in self.query(Breakdown):
            b.ids = self.show_ids
            b.refresh(layout=True)

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
    """The end of the match: the final standings (hands won, of them self-drawn, hands dealt
    in — the discard or robbed tile another seat won on —, score), each seat with its marker
    and colour as the chart draws it, and the chart of each seat's score over the hands with
    its legend.  On a screen of :attr:`WIDE` columns or more the standings stand beside the
    chart, else above it."""

    DEFAULT_CSS = """
    MatchEndScreen #match-body { height: 1fr; }
    MatchEndScreen #match-side { height: auto; }
    MatchEndScreen .-wide #match-side { width: auto; height: 1fr; margin-left: 2; }
    MatchEndScreen .-wide #match-side DataTable { width: auto; }
    MatchEndScreen #match-chart-box { height: 1fr; }
    MatchEndScreen .-wide #match-chart-box { width: 1fr; }
    """

    #: narrowest screen that puts the standings beside the chart
    WIDE = 110

    BINDINGS = [
        Binding("enter", "leave", "Leave"),
        Binding("q", "leave", "Leave", show=False),
        Binding("escape", "leave", "Leave", show=False),
        Binding("s", "save", "Save for replay"),
    ]

    def __init__(self, history: Sequence[dict], names: Sequence[str], art: TileArt, variant,
                 start_score: float = 0, save: Callable[[str], str] | None = None, kept: str | None = None):
        super().__init__(classes="results")
        #: where the match was kept in the history (None: not kept, a LAN joiner)
        self.kept = kept
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
        self.wide = self.app.size.width >= self.WIDE
        st: DataTable = DataTable(show_cursor=False, zebra_stripes=True, classes="standings")
        st.can_focus = False
        st.add_columns("#", "seat", "player", "won", "self-drawn", "dealt in", "score")
        for rank, seat, score in standings(final):
            mark = Text(str(seat + 1), style=SEAT_STYLES[seat % 4], justify="center")
            st.add_row(str(rank), mark, Text(self.names[seat], style=SEAT_STYLES[seat % 4].replace("bold ", "")),
                       str(wins[seat]), str(self_drawn[seat]), str(dealt_in[seat]), Text(fmt_num(score), style="bold"))
        side = Vertical(Static("Final standings", classes="section"), st, id="match-side")
        chart = Vertical(Static("Score over the hands (each seat's number marks its score)",
                                classes="section"),
                         ScoreChart(series, self.names, ascii=self.art.faces.ascii_only, id="chart"),
                         id="match-chart-box")
        # beside the chart on a wide screen, above it on a narrow one
        yield (Horizontal(chart, side, id="match-body", classes="-wide") if self.wide
               else Vertical(side, chart, id="match-body"))
        if self.kept:  # every finished match is kept; s still saves a copy among the saved games
            hint = "Kept in the history (menu: History) · Enter: leave" + (" · s: save a copy too" if self.save else "")
        else:
            hint = "Enter: leave" + ("   s: save the game for replay" if self.save else "")
        yield Static(hint, classes="screen-hint", id="match-hint")

    def on_resize(self, event) -> None:
        if (event.size.width >= self.WIDE) != getattr(self, "wide", None):
            self.refresh(recompose=True)

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
