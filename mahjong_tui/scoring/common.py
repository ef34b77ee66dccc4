"""Shared machinery of the scoring schemes (``points_doublings``, ``multiplier``, ``fan``, …).

What every scheme needs before it can look for patterns:

- :class:`Group` / :class:`Arrangement` and :func:`arrangements`: every way the winner's hand
  is complete, with the winning tile placed in each group it can sit in and the wait it
  completed (common.md "Decomposition rule": the scheme scores every arrangement and keeps the
  best; wait-based patterns are judged on the arrangement being scored);
- :func:`hand_facts`: tiles of the whole hand (melds included), suits, honours, bonus tiles;
- :func:`waits_of_13`: the wait set W(h) of the hand before the winning tile (common.md "Wait set":
  by shape), cached;
- :func:`best`, :func:`apply_exclusions` (families of a variant's ``scoring.exclusions``),
  :func:`wind_letter`, :func:`all_tiles`, :func:`plain_number`;
- :func:`win_arrangements` and :func:`best_scored`: the arrangements in the variant's win
  forms, and the best of them as a winning result (``multiplier`` and ``fan``);
- :func:`context_from_notation`: a :class:`HandContext` from a hand string (tests, tools).

Conventions (common.md "Melds"): a pung or kong is *concealed* only if none of its tiles came from a
discard; a pung completed by the winning discard is not concealed; G-OX-2: a pung containing a
picked-up unmelded discard (``ctx.claimed_concealed``) is open.  Where the winning tile sits:
when ``ctx.winning_tile`` occurs among ``ctx.concealed`` it is in the concealed part (self-draw,
discard win, robbing a kong); otherwise it is in the first declared meld that holds it (a meld
the winning discard completed, written e.g. ``(777s) +7s``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence, TypeVar

from .. import tiles as T
from ..errors import HandError
from ..melds import ADDED_KONG, CHOW, CONCEALED_KONG, EXPOSED_KONG, KONG, PUNG, Meld
from .context import SITUATIONS, HandContext, PatternScore, ScoreResult

PAIR = "pair"
STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
FOURTEEN_ORPHANS = "fourteen_orphans"
ULTRA_LONG_STRAIGHT = "ultra_long_straight"
_TILE_FORMS = (THIRTEEN_ORPHANS, FOURTEEN_ORPHANS, ULTRA_LONG_STRAIGHT)

# Wait kinds of Arrangement.wait
EDGE = "edge"        # 12 waiting on 3, 89 waiting on 7
CLOSED = "closed"    # 46 waiting on 5
OPEN = "open"        # two-sided chow wait (23 waiting on 1 or 4)
PAIR_WAIT = "pair"   # single wait on the pair
PUNG_WAIT = "pung"   # dual-pung wait (a pair becoming a pung)

TRIPLET_KINDS = (PUNG, KONG)


# ----------------------------------------------------------------------------------------
# Groups and arrangements
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """One meld or the pair of an :class:`Arrangement`.

    - ``kind``: ``"chow"`` | ``"pung"`` | ``"kong"`` | ``"pair"`` (or a variant's other meld kind);
    - ``tiles``: sorted tile codes (4 for a kong, 2 for a pair);
    - ``concealed``: no tile of it came from a discard (common.md "Melds").  False for a pung completed
      by the winning discard, for a pung holding a picked-up discard (G-OX-2), for claimed
      melds and for exposed or added kongs;
    - ``declared``: laid on the table (claimed meld or declared kong) rather than formed in hand;
    - ``kong_type``: ``"concealed"`` / ``"exposed"`` / ``"added"`` for kongs, else None;
    - ``has_winning_tile``: the winning tile sits in this group in this arrangement.
    """

    kind: str
    tiles: tuple[int, ...]
    concealed: bool
    declared: bool = False
    kong_type: str | None = None
    has_winning_tile: bool = False

    @property
    def tile(self) -> int:
        """The lowest tile (the identity of a pung, kong or pair)."""
        return self.tiles[0]

    @property
    def is_triplet(self) -> bool:
        """Pung or kong."""
        return self.kind in TRIPLET_KINDS

    def notation(self) -> str:
        """Hand-string notation: ``(777s)`` / ``[CCCC]`` for declared melds, ``123m`` otherwise."""
        body = T.format_tiles(self.tiles)
        if not self.declared:
            return body
        return f"[{body}]" if self.kong_type == CONCEALED_KONG else f"({body})"


@dataclass(frozen=True)
class Arrangement:
    """One way a hand is complete.

    - ``form``: ``"standard"`` | ``"seven_pairs"`` | ``"thirteen_orphans"``;
    - ``groups``: standard form: the melds (declared melds first, in the context's order, then
      the melds formed in hand) then the pair; seven pairs: 7 ``"pair"`` groups (with
      ``seven_pairs_allow_quads`` four identical tiles give two equal pair groups); thirteen
      orphans: ``()``;
    - ``wait``: what the winning tile completed in this arrangement: ``"edge"`` (12→3, 89→7),
      ``"closed"`` (46→5), ``"open"`` (two-sided chow), ``"pair"`` (single wait on the pair),
      ``"pung"`` (dual-pung wait); None when the winning tile is unknown and for thirteen orphans.
    """

    form: str
    groups: tuple[Group, ...] = ()
    wait: str | None = None

    @property
    def melds(self) -> tuple[Group, ...]:
        """Every group except the pair (standard form); () for the other forms."""
        if self.form != STANDARD:
            return ()
        return tuple(g for g in self.groups if g.kind != PAIR)

    @property
    def pair(self) -> Group | None:
        """The pair of a standard arrangement (None for the other forms)."""
        if self.form != STANDARD:
            return None
        for g in self.groups:
            if g.kind == PAIR:
                return g
        return None

    @property
    def pairs(self) -> tuple[Group, ...]:
        """Every pair group (7 for seven pairs, 1 for standard)."""
        return tuple(g for g in self.groups if g.kind == PAIR)

    @property
    def chows(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == CHOW)

    @property
    def triplets(self) -> tuple[Group, ...]:
        """Pungs and kongs."""
        return tuple(g for g in self.groups if g.kind in TRIPLET_KINDS)

    @property
    def kongs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == KONG)

    @property
    def winning_group(self) -> Group | None:
        """The group holding the winning tile, or None."""
        for g in self.groups:
            if g.has_winning_tile:
                return g
        return None

    def notation(self) -> tuple[str, ...]:
        """Groups as notation strings, for :attr:`ScoreResult.decomposition`."""
        if self.form == THIRTEEN_ORPHANS:
            return ()
        return tuple(g.notation() for g in self.groups)

    def winning_index(self) -> int | None:
        """Index in :meth:`notation` of the group holding the winning tile, for
        :attr:`ScoreResult.winning_group` (None: no group holds it)."""
        if self.form == THIRTEEN_ORPHANS:
            return None
        return next((i for i, g in enumerate(self.groups) if g.has_winning_tile), None)


def _ranks(variant) -> tuple[int, int]:
    lo, hi = variant.tiles_rules["ranks"]
    return int(lo), int(hi)


def _wait_of(group: Group, winning: int, lo: int, hi: int) -> str:
    if group.kind == PAIR:
        return PAIR_WAIT
    if group.kind in TRIPLET_KINDS:
        return PUNG_WAIT
    if group.kind == CHOW and len(group.tiles) == 3:
        a, b, c = group.tiles
        if winning == b:
            return CLOSED
        if winning == a and T.rank_of(c) == hi:
            return EDGE
        if winning == c and T.rank_of(a) == lo:
            return EDGE
        return OPEN
    return OPEN


def winning_tile_location(ctx: HandContext) -> int | None:
    """Where the winning tile sits: ``-1`` = concealed part, ``i >= 0`` = ``ctx.melds[i]``,
    None = no winning tile known (non-winner, or ``winning_tile`` is None or held nowhere)."""
    w = ctx.winning_tile
    if w is None or not ctx.winner:
        return None
    if w in ctx.concealed:
        return -1
    for i, m in enumerate(ctx.melds):
        if w in m.tiles:
            return i
    return None


def declared_groups(ctx: HandContext, winning_meld: int | None = None) -> list[Group]:
    """The declared melds of ``ctx`` as :class:`Group`\\ s (``winning_meld``: index of the meld
    holding the winning tile, see :func:`winning_tile_location`)."""
    out = []
    for i, m in enumerate(ctx.melds):
        concealed = bool(m.concealed)
        if m.kind == KONG and m.kong_type in (EXPOSED_KONG, ADDED_KONG):
            concealed = False
        out.append(Group(m.kind, tuple(sorted(m.tiles)), concealed, True, m.kong_type,
                         winning_meld is not None and i == winning_meld))
    return out


def _concealed_group(kind: str, tiles: tuple[int, ...], *, ccounts: Sequence[int],
                     claimed: Sequence[int], win_here: bool, discard_win: bool) -> Group:
    tiles = tuple(sorted(tiles))
    concealed = True
    if kind in TRIPLET_KINDS:
        t = tiles[0]
        # G-OX-2: a picked-up copy must sit in this pung if there are not enough other copies
        if claimed[t] > ccounts[t] - len(tiles):
            concealed = False
        if win_here and discard_win:
            concealed = False  # common.md "Melds": a pung completed by the winning discard is exposed
    return Group(kind, tiles, concealed, False, None, win_here)


def arrangements(variant, ctx: HandContext) -> list[Arrangement]:
    """Every distinct way the winner's hand is complete, in every form ``variant.win['forms']``
    allows.

    Standard form: every decomposition of the concealed tiles (``variant.hand_shape
    .decompositions``) into ``4 − len(ctx.melds)`` melds + a pair, times every group the
    winning tile can sit in (when it is in the concealed part: each group containing that tile
    kind); declared melds are included as groups (common.md "Decomposition rule").  Seven pairs:
    no declared melds, 14 concealed tiles in 7 pairs of different kinds (with
    ``win.seven_pairs_allow_quads`` four identical tiles are two pairs).  Thirteen orphans: no
    declared melds, one of each terminal and honour of the variant plus one duplicate
    (``variant.orphan_tiles``); fourteen orphans and the ultra-long straight as the hand shape
    says (uzje.md "Melds and winning hands"), the ultra-long straight also with declared runs (G-UZ-13).  These three
    forms have no groups.  With the zero tile (Uzje) the melds come from every reading of the
    zeros (:class:`~mahjong_tui.hand.ZeroShape`): a zero read as a number keeps its rank-0 code.

    Returns ``[]`` when the hand is not complete, and for a non-winner (``ctx.winner`` False)
    — loser scoring does not need arrangements.  Errors: none (a hand of the wrong size or with
    a fifth copy of a kind is simply not complete).  With ``ctx.winning_tile`` None no group
    is marked as holding it and ``wait`` is None.
    """
    if not ctx.winner:
        return []
    forms = tuple(variant.win["forms"])
    ccounts = T.counts_of(ctx.concealed)
    claimed = T.counts_of(ctx.claimed_concealed)
    loc = winning_tile_location(ctx)
    w = ctx.winning_tile
    lo, hi = _ranks(variant)
    discard_win = not ctx.self_draw
    out: list[Arrangement] = []
    seen: set = set()

    def add(arr: Arrangement) -> None:
        key = (arr.form, arr.wait, arr.groups[:len(ctx.melds)],
               tuple(sorted(arr.groups[len(ctx.melds):], key=lambda g: (g.kind == PAIR, g.kind, g.tiles, g.concealed, g.has_winning_tile))))
        if key not in seen:
            seen.add(key)
            out.append(arr)

    n_tiles = len(ctx.concealed) + 3 * len(ctx.melds)
    if n_tiles != 14:
        return []

    if STANDARD in forms:
        decl = declared_groups(ctx, loc if loc is not None and loc >= 0 else None)
        try:
            decs = variant.hand_shape.decompositions(ccounts, len(ctx.melds))
        except ValueError:  # e.g. five copies of a kind: not a possible hand, so not complete
            decs = []
        for dec in decs:
            raw = [(kind, tuple(sorted(ts))) for kind, ts in dec.melds] + [(PAIR, (dec.pair, dec.pair))]
            if loc == -1:
                positions = [i for i, (_, ts) in enumerate(raw) if w in map(variant.physical, ts)]
            else:
                positions = [None]
            for pos in positions:
                groups = list(decl)
                for i, (kind, ts) in enumerate(raw):
                    groups.append(_concealed_group(kind, ts, ccounts=ccounts, claimed=claimed,
                                                   win_here=(pos is not None and i == pos),
                                                   discard_win=discard_win))
                # melds first, then the pair
                melds_part = [g for g in groups if g.kind != PAIR]
                pair_part = [g for g in groups if g.kind == PAIR]
                groups = melds_part + pair_part
                wait = None
                for g in groups:
                    if g.has_winning_tile and w is not None:
                        wait = _wait_of(g, w, lo, hi)
                        break
                add(Arrangement(STANDARD, tuple(groups), wait))

    if not ctx.melds and len(ctx.concealed) == 14:
        if SEVEN_PAIRS in forms:
            allow_quads = bool(variant.win.get("seven_pairs_allow_quads", False))
            ok = True
            pairs: list[int] = []
            for t, n in enumerate(ccounts):
                if n == 0:
                    continue
                if n == 2 or (n == 4 and allow_quads):
                    pairs.extend([t] * (n // 2))
                else:
                    ok = False
                    break
            if ok and len(pairs) == 7:
                groups = []
                placed = False
                for t in pairs:
                    here = (not placed) and w == t and loc == -1
                    placed = placed or here
                    groups.append(Group(PAIR, (t, t), True, False, None, here))
                add(Arrangement(SEVEN_PAIRS, tuple(groups), PAIR_WAIT if placed else None))
        for form in _TILE_FORMS:
            if form in forms and variant.hand_shape.special_form_complete(form, ccounts):
                add(Arrangement(form, (), None))
    elif ULTRA_LONG_STRAIGHT in forms and variant.hand_shape.straight_with_melds(
            ccounts, [m.tiles for m in ctx.melds]):
        add(Arrangement(ULTRA_LONG_STRAIGHT, (), None))
    return out


# ----------------------------------------------------------------------------------------
# Hand facts
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandFacts:
    """Facts about the whole hand (concealed tiles and every declared meld; no bonus tiles).

    - ``tiles``: every physical tile, sorted (a kong gives 4);
    - ``counts``: count array of ``tiles`` (length ``tiles.NUM_KINDS``);
    - ``concealed_counts``: count array of ``ctx.concealed`` only;
    - ``suits``: suit indices present (0 t, 1 s, 2 m);
    - ``honours`` / ``winds`` / ``dragons``: kinds of those present;
    - ``has_honours``, ``all_honours``, ``all_terminals`` (only rank 1 / ``max_rank``),
      ``terminals_and_honours`` (no simples at all);
    - ``bonus``: bonus tiles held; ``flowers`` / ``seasons`` / ``animals``: those held;
    - ``declared``: ``ctx.melds``; ``claimed_melds``: declared melds that are not concealed
      kongs; ``kongs``: declared kongs; ``no_claimed_meld``: no claimed meld (concealed kongs allowed).
    """

    tiles: tuple[int, ...]
    counts: tuple[int, ...]
    concealed_counts: tuple[int, ...]
    suits: frozenset[int]
    honours: frozenset[int]
    winds: frozenset[int]
    dragons: frozenset[int]
    has_honours: bool
    all_honours: bool
    all_terminals: bool
    terminals_and_honours: bool
    bonus: tuple[int, ...]
    flowers: frozenset[int]
    seasons: frozenset[int]
    animals: frozenset[int]
    declared: tuple[Meld, ...]
    claimed_melds: tuple[Meld, ...]
    kongs: tuple[Meld, ...]
    no_claimed_meld: bool

    @property
    def one_suit(self) -> bool:
        """Exactly one number suit present (honours may be present too)."""
        return len(self.suits) == 1


def hand_facts(ctx: HandContext, max_rank: int = 9) -> HandFacts:
    """Compute :class:`HandFacts` for ``ctx`` (works for winners and non-winners).

    ``max_rank`` is the highest rank of the variant's suits (terminals are 1 and ``max_rank``,
    common.md "Terminals and honours").  Pure; no errors.
    """
    tiles = list(ctx.concealed)
    for m in ctx.melds:
        tiles.extend(m.tiles)
    tiles.sort()
    counts = tuple(T.counts_of(tiles))
    kinds = set(tiles)  # each kind classified once
    suited = [t for t in kinds if T.is_suited(t)]
    suits = frozenset(T.suit_of(t) for t in suited)
    honours = frozenset(t for t in kinds if T.is_honour(t))
    winds = frozenset(t for t in honours if T.is_wind(t))
    dragons = frozenset(t for t in honours if T.is_dragon(t))
    term = all(T.rank_of(t) in (1, max_rank) for t in suited)
    claimed = tuple(m for m in ctx.melds if not (m.kind == KONG and m.kong_type == CONCEALED_KONG))
    return HandFacts(
        tiles=tuple(tiles),
        counts=counts,
        concealed_counts=tuple(T.counts_of(ctx.concealed)),
        suits=suits,
        honours=honours,
        winds=winds,
        dragons=dragons,
        has_honours=bool(honours),
        all_honours=bool(tiles) and not suited,
        all_terminals=bool(tiles) and not honours and term,
        terminals_and_honours=term,
        bonus=tuple(sorted(ctx.bonus)),
        flowers=frozenset(t for t in ctx.bonus if t in T.FLOWERS),
        seasons=frozenset(t for t in ctx.bonus if t in T.SEASONS),
        animals=frozenset(t for t in ctx.bonus if t in T.ANIMALS),
        declared=tuple(ctx.melds),
        claimed_melds=claimed,
        kongs=tuple(m for m in ctx.melds if m.kind == KONG),
        no_claimed_meld=not claimed,
    )


# ----------------------------------------------------------------------------------------
# Waits
# ----------------------------------------------------------------------------------------

_WAIT_CACHE: dict[tuple, tuple[int, ...]] = {}
_WAIT_CACHE_MAX = 4096


def hand_before_win(ctx: HandContext) -> tuple[list[int], int] | None:
    """The 13-tile hand before the winning tile: ``(concealed count array, declared melds)``.

    When the winning tile completed a declared meld, that meld is taken back into the
    concealed part minus the winning tile.  None when the winning tile is unknown.
    """
    loc = winning_tile_location(ctx)
    if loc is None:
        return None
    counts = T.counts_of(ctx.concealed)
    w = ctx.winning_tile
    if loc == -1:
        counts[w] -= 1
        return counts, len(ctx.melds)
    rest = list(ctx.melds[loc].tiles)
    rest.remove(w)
    for t in rest:
        counts[t] += 1
    return counts, len(ctx.melds) - 1


def waits_of_13(variant, ctx: HandContext) -> list[int]:
    """The wait set W(h) (sorted tile codes) of the 13-tile hand before the winning tile.

    common.md "Wait set": by shape — every kind that would complete the hand in any form the variant
    allows, even if all its copies are visible, ignoring minimum values.  For a non-winner (or
    a winner whose winning tile is unknown) the hand as held (it must be 13 tiles) is used.
    Cached per (rules hash, counts, melds).  Used for "waited on exactly one kind" patterns
    (Yangzhou ``edge_wait`` / ``single_wait``).
    """
    before = hand_before_win(ctx) if ctx.winner else None
    if before is None:
        counts, n_melds = T.counts_of(ctx.concealed), len(ctx.melds)
    else:
        counts, n_melds = before
    key = (variant.rules_hash, tuple(counts), n_melds)
    hit = _WAIT_CACHE.get(key)
    if hit is None:
        if sum(counts) + 3 * n_melds != 13:
            hit = ()
        else:
            hit = tuple(sorted(variant.hand_shape.waits(counts, n_melds)))
        if len(_WAIT_CACHE) >= _WAIT_CACHE_MAX:
            _WAIT_CACHE.clear()
        _WAIT_CACHE[key] = hit
    return list(hit)


# ----------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------

R = TypeVar("R")


def best(results: Iterable[R], key: Callable[[R], Any] | None = None) -> R | None:
    """The highest-valued item of ``results`` (``key`` defaults to ``item.value``); ties keep
    the first; None for an empty iterable (common.md "Decomposition rule": use the best)."""
    if key is None:
        key = lambda r: r.value  # noqa: E731
    top = None
    top_key = None
    for r in results:
        k = key(r)
        if top is None or k > top_key:
            top, top_key = r, k
    return top


def all_tiles(ctx: HandContext) -> list[int]:
    """Every tile of the hand (tile codes): the concealed tiles, then every tile of every
    declared meld."""
    out = list(ctx.concealed)
    for m in ctx.melds:
        out.extend(m.tiles)
    return out


def plain_number(x: float) -> float:
    """A whole float as an int (``4.0`` → ``4``), for values shown to players; anything else
    unchanged."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def win_arrangements(variant, ctx: HandContext) -> list[Arrangement]:
    """The :func:`arrangements` of ``ctx`` in one of the variant's ``win.forms`` (empty: the
    hand is not complete in any allowed form; see :func:`not_complete_reason`)."""
    forms = set(variant.win["forms"])
    return [a for a in arrangements(variant, ctx) if a.form in forms]


def best_scored(arrs: Iterable[Arrangement], unit: str,
                score: Callable[[Arrangement], tuple[Any, float, Sequence[PatternScore]]]) -> ScoreResult:
    """Score each arrangement with ``score(arr)`` → ``(key, value, patterns)`` and report the
    one with the highest key (ties: the first; common.md "Decomposition rule") as a winning
    :class:`ScoreResult` of ``unit``: its value (:func:`plain_number`), form, patterns and
    decomposition.  Minimums and payments are the caller's.  ``arrs`` must not be empty
    (ValueError)."""
    top = best(((arr, *score(arr)) for arr in arrs), key=lambda s: s[1])
    if top is None:
        raise ValueError("best_scored needs at least one arrangement")
    arr, _key, value, patterns = top
    return ScoreResult(winning=True, value=plain_number(value), unit=unit, form=arr.form,
                       patterns=tuple(patterns), decomposition=arr.notation(),
                       winning_group=arr.winning_index())


# Situations (CLI.md) that make the winning tile self-drawn whatever ``--by`` says, in every
# variant: a kong or flower replacement or a bloom tile is drawn by the winner himself from the
# wall (G-YX-3, G-YX-9, singapore.md "Tai table" ``win_on_replacement``, uzje.md "Setting up" and "Fan table" ``quad_draw``, classic.md "Setting up" loose tiles,
# yangzhou.md "Setting up"), and a heavenly win is the dealer's own dealt hand (yuxi.md "Settlement", singapore.md "Tai table", classic.md "Scoring").
SELF_DRAWN_SITUATIONS = frozenset({"kong_replacement", "double_kong_replacement", "bloom_tile", "heavenly",
                                   "flower_replacement"})


def effective_self_draw(ctx: HandContext) -> bool:
    """True when the winning tile came from the wall: ``ctx.self_draw``, or a situation of
    :data:`SELF_DRAWN_SITUATIONS` (it can only be a self-draw)."""
    return bool(ctx.self_draw or (ctx.situations & SELF_DRAWN_SITUATIONS))


def robs_the_eighth(ctx: HandContext) -> bool:
    """The flower win on another player's eighth flower: Singapore's ``robbing_the_eighth``
    (singapore.md "Tai table": you hold seven of the eight seasons and flowers and another player draws
    the eighth), Uzje's ``ivies_on_the_wall`` (uzje.md "Fan table", G-UZ-14: you hold seven flowers
    and another player exposes the eighth).  True when the situation ``robbing_the_eighth`` is given, the winning tile is a
    season or flower, and with it the player has all eight: the other seven held, the eighth
    written as the winning tile only (``+r |hijkopq``, as the engine passes it) or among the
    held ones too (``+r |hijkopqr``, the winner's bonus tiles after he took it)."""
    w = ctx.winning_tile
    return ("robbing_the_eighth" in ctx.situations and w in T.SEASONS_AND_FLOWERS
            and set(ctx.bonus) | {w} >= T.SEASONS_AND_FLOWERS)


def won_context(variant, ctx: HandContext) -> HandContext:
    """``ctx`` as every scheme scores and pays it, whatever the caller said about how the hand
    was won:

    - a win whose situation can only be a self-draw (:func:`effective_self_draw`: a
      replacement or bloom tile, a heavenly hand) is a self-draw with no discarder;
    - where flowers win (``win.bonus_wins``): a win on another player's eighth flower
      (:func:`robs_the_eighth`) is a discard win, paid by the player who drew or exposed it
      as the discarder (singapore.md "Settlement": the player who drew the eighth flower pays for all;
      uzje.md "Fan table" ``ivies_on_the_wall``: he pays as discarder); a win declared on a flower
      with all eight held, none robbed, is a self-draw (singapore.md "Settlement":
      ``all_eight_flowers`` is paid as a self-draw; Uzje ``crossing_the_sea``, by own draws).

    Applied once, by :func:`mahjong_tui.scoring.evaluate`, before the scheme sees the
    context; a context that already says how the hand was won (the engine's always do) comes
    back unchanged.  Who pays an earthly win is
    :func:`~mahjong_tui.scoring.settlement.payments_for_score`'s to say."""
    if not ctx.winner:
        return ctx
    if variant.win.get("bonus_wins"):
        if robs_the_eighth(ctx):
            return replace(ctx, self_draw=False) if ctx.self_draw else ctx
        if ctx.winning_tile in T.SEASONS_AND_FLOWERS and T.SEASONS_AND_FLOWERS <= set(ctx.bonus):
            return ctx if ctx.self_draw else replace(ctx, self_draw=True, discarder=None)
    if effective_self_draw(ctx) and not ctx.self_draw:
        return replace(ctx, self_draw=True, discarder=None)
    return ctx


def nine_gates(variant, ctx: HandContext, *, by_tiles: bool = False) -> bool:
    """Nine gates, two readings of one shape ``1112345678999`` (lowest and highest rank of the
    variant three times, every rank between once) of one suit, no declared meld:

    - ``by_tiles=False`` (Classic "grand waiting", classic.md "Special hands", seed 003: the
      hand *waits* on every tile of its suit): the 13 concealed tiles before the winning tile
      are exactly that shape, so any tile of the suit wins;
    - ``by_tiles=True`` (Singapore ``nine_gates``, singapore.md "Tai table"): the 14 concealed
      tiles are that shape plus any one more tile of its suit, whichever of them was the
      winning tile (``11123456789999t +1t`` is nine gates, though before the win the hand
      waited on 1t, 4t and 7t only)."""
    w = ctx.winning_tile
    if ctx.melds or w is None or not T.is_suited(w) or w not in ctx.concealed:
        return False
    lo, hi = _ranks(variant)
    base = T.suit_of(w) * T.SUIT_SIZE
    want = [0] * T.NUM_KINDS
    want[base + lo] = 3
    want[base + hi] = 3
    for r in range(lo + 1, hi):
        want[base + r] = 1
    have = T.counts_of(ctx.concealed)
    if not by_tiles:
        have[w] -= 1
        return have == want
    extra = [t for t in range(T.NUM_KINDS) if have[t] != want[t]]
    return (len(extra) == 1 and have[extra[0]] == want[extra[0]] + 1
            and base + lo <= extra[0] <= base + hi)


_WIND_LETTERS = {T.EAST: "E", T.SOUTH: "S", T.WEST: "W", T.NORTH: "N"}


def wind_letter(code: int) -> str:
    """``"E"``/``"S"``/``"W"``/``"N"`` for a wind tile code (tiles.EAST …).  ValueError otherwise."""
    try:
        return _WIND_LETTERS[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a seat wind code (52..55 = E S W N)") from None


def wind_code(letter: str) -> int:
    """Inverse of :func:`wind_letter`.  ValueError for anything but E, S, W, N."""
    for code, ch in _WIND_LETTERS.items():
        if ch == letter:
            return code
    raise ValueError(f"{letter!r} is not a seat wind; expected one of E, S, W, N")


def apply_exclusions(variant, pattern_scores: Sequence[PatternScore]) -> list[PatternScore]:
    """Drop overlapped patterns: within each family listed in ``variant.scoring['exclusions']``
    (a list of lists of ids) keep only the highest-valued present member (by
    ``PatternScore.total``; ties: the member listed first in the family).  Every family is
    judged on the input list, so the result does not depend on the order of the families
    (yuxi.md "Scoring table", yangzhou.md "Fan table", G-YZ-5).  Order of the kept items is preserved."""
    present = {p.id: p for p in pattern_scores}
    drop: set[str] = set()
    for family in variant.scoring.get("exclusions", ()):
        members = [pid for pid in family if pid in present]
        if len(members) < 2:
            continue
        keep = members[0]
        for pid in members[1:]:
            if present[pid].total > present[keep].total:
                keep = pid
        drop.update(pid for pid in members if pid != keep)
    return [p for p in pattern_scores if p.id not in drop]


def context_from_notation(
    text: str,
    *,
    self_draw: bool = False,
    seat_wind: int | str = T.EAST,
    prevailing_wind: int | str = T.EAST,
    situations: Iterable[str] = (),
    claimed: str | Iterable[int] = (),
    discarder: int | str | None = None,
    fed_third_meld: int | str | None = None,
    indicators: Iterable[int] = (),
    winner: bool = True,
    variant=None,
) -> HandContext:
    """Build a :class:`HandContext` from a hand string (``CLI.md`` "Hand strings").

    ``(…)`` of three identical tiles is a claimed pung, of four an exposed kong, of three
    consecutive tiles a chow (with ``variant`` given: of any of its meld templates' ranks, as
    Uzje's ariths, gems and powers); ``[…]`` a declared concealed kong.  ``+T`` is the winning
    tile, already counted in the concealed tiles or in the meld it completed (or a bonus tile,
    for a flower win: held, or another player's for Uzje's ivies on the wall).  Winds may be
    given as codes or letters; ``claimed`` lists picked-up unmelded discards (G-OX-2) as codes
    or a tile string.  With ``variant`` given the tiles are checked
    (:meth:`Variant.check_hand`), so is an exposed chow where chows are claimed only to win
    (the ``score`` command also checks the situations and indicators,
    :func:`check_situations`), and a zero written as a number (``0s``) is the zero tile
    ``Z`` (the scorer reads each zero as best it can; uzje.md "Melds and winning hands").

    Raises :class:`~mahjong_tui.errors.NotationError` for bad notation,
    :class:`~mahjong_tui.errors.HandError` for a meld that is no pung, kong or chow, an
    unknown situation, a winning tile that is not in the hand, and (with ``variant``) a hand
    the variant's table cannot reach.
    """
    spec = T.parse_hand(text)
    physical = variant.physical if variant is not None else (lambda t: t)
    melds = []
    for ms in spec.melds:
        ts = tuple(sorted(ms.tiles))
        same = len(set(map(physical, ts))) == 1
        if ms.concealed:
            if not same:
                raise HandError(f"[{T.format_tiles(ts)}] is not a kong; a concealed kong is four identical tiles")
            melds.append(Meld(KONG, tuple(map(physical, ts)), declared=True, concealed=True, kong_type=CONCEALED_KONG))
        elif len(ts) == 4 and same:
            melds.append(Meld(KONG, tuple(map(physical, ts)), declared=True, concealed=False, kong_type=EXPOSED_KONG))
        elif len(ts) == 3 and same:
            melds.append(Meld(PUNG, tuple(map(physical, ts)), declared=True, concealed=False))
        elif len(ts) == 3 and _is_sequence(variant, T.zero_as_number(ts)):
            melds.append(Meld(CHOW, tuple(sorted(map(physical, ts))), declared=True, concealed=False))
        else:
            kinds = "a pung, kong or chow" if variant is None else (
                "a pung, kong or " + ", ".join(dict.fromkeys(t.kind for t in variant.meld_templates)))
            raise HandError(f"({T.format_tiles(ts)}) is not a meld; expected {kinds}")
    spec = T.HandSpec(tuple(sorted(map(physical, spec.concealed))), spec.melds, spec.bonus,
                      None if spec.winning is None else physical(spec.winning))
    sits = frozenset(situations)
    bad = sits - set(SITUATIONS)
    if bad:
        raise HandError(f"unknown situation {sorted(bad)[0]!r}; known: {', '.join(SITUATIONS)}")
    if "double_kong_replacement" in sits:
        sits = sits | {"kong_replacement"}
    if (spec.winning is not None and not T.is_bonus(spec.winning) and spec.winning not in spec.concealed
            and not any(spec.winning in m.tiles for m in melds)):
        raise HandError(f"the winning tile {T.name(spec.winning)} is not in the hand")
    if variant is not None:
        variant.check_hand(spec.concealed, [m.tiles for m in melds], spec.bonus)
        _check_claimed_chows(variant, melds, spec.winning, self_draw)

    def wcode(v):
        return wind_code(v) if isinstance(v, str) else v

    if isinstance(claimed, str):
        claimed = T.parse_tiles(claimed) if claimed else []
    return HandContext(
        concealed=tuple(spec.concealed),
        melds=tuple(melds),
        bonus=tuple(spec.bonus),
        winning_tile=spec.winning if winner else None,
        self_draw=self_draw,
        seat_wind=wcode(seat_wind),
        prevailing_wind=wcode(prevailing_wind),
        situations=sits,
        claimed_concealed=tuple(claimed),
        discarder=wcode(discarder) if discarder is not None else None,
        fed_third_meld=wcode(fed_third_meld) if fed_third_meld is not None else None,
        indicators=tuple(indicators),
        winner=winner,
    )


_KONG_SITUATIONS = {   # the most demanding first: double_kong_replacement implies kong_replacement
    "double_kong_replacement": (2, "a win on the replacement after two kongs in a row"),
    "kong_replacement": (1, "a win on a kong replacement tile"),
    "bloom_tile": (1, "a win on a bloom tile (taken instead of a kong replacement)"),
}


def check_situations(variant, ctx: HandContext) -> None:
    """Raise :class:`~mahjong_tui.errors.HandError` when the hand cannot have been won in the
    situations ``ctx`` names, or shows indicators the table cannot show (the ``score``
    command's ``--situation`` and ``--indicator``; the engine only passes what happened):

    - ``kong_replacement`` and ``bloom_tile`` need at least one kong (exposed ``(7777s)`` or
      concealed ``[7777s]``) in the hand: the replacement or bloom tile is taken after the
      winner's own kong; ``double_kong_replacement`` needs two;
    - ``flower_replacement`` needs a bonus tile held (the flower just set aside);
      ``last_wall_replacement`` a kong or a bonus tile (it was replaced);
    - ``robbing_kong`` of tile T: the robbed player shows three other copies of T (the pung he
      adds T to, or the rest of his concealed kong), so the winner's hand, T included, holds at
      most ``copies − 3`` of T (one, with four copies): another copy would make T a fifth; and
      the tile is another player's, so not with a self-draw or a self-drawn situation;
    - ``heavenly`` is the dealer's hand (the winner is East); ``earthly`` is won by another
      player (not East) on the dealer's first discard (the discarder, if named, is East);
    - indicators (Ùzje's bonus tile indicators, uzje.md "Setting up"): only in a variant that
      turns them up (``wall.indicators``), at most as many as can be turned up (the first ones,
      one more a kong with ``wall.kong_indicator``, never more than the dead wall holds), each
      a tile of the variant, and no kind shown more often than the copies left after the hand's
      own tiles.
    """
    sits = ctx.situations
    kongs = sum(1 for m in ctx.melds if m.kind == KONG)
    for sit, (need, what) in _KONG_SITUATIONS.items():
        if sit in sits and kongs < need:
            raise HandError(
                f"--situation {sit}: {what} needs {'a kong' if need == 1 else f'{need} kongs'} in the hand "
                f"(written (7777s) or [7777s]); this hand has {kongs}")
    if "flower_replacement" in sits and not ctx.bonus:
        raise HandError("--situation flower_replacement: " + (
            f"the {variant.name} variant has no flowers" if not variant.bonus_kinds else
            "a win on a flower's replacement needs the flower held (a bonus tile after |); this hand has none"))
    if "last_wall_replacement" in sits and not ctx.bonus and not kongs:
        raise HandError("--situation last_wall_replacement: a replacement needs a kong or a bonus tile in the hand; "
                        "this hand has neither")
    if "heavenly" in sits and not ctx.is_dealer:
        raise HandError("--situation heavenly: a heavenly hand is the dealer's own dealt hand; the winner must be "
                        "East (--seat-wind E)")
    if "earthly" in sits and (ctx.is_dealer or ctx.self_draw or ctx.discarder not in (None, T.EAST)):
        raise HandError("--situation earthly: an earthly hand is won by another player on the dealer's first "
                        "discard; the winner is not East (--seat-wind), the discarder is East (--discarder E), "
                        "not a self-draw")
    drawn = sits & SELF_DRAWN_SITUATIONS
    if "robbing_kong" in sits and (ctx.self_draw or drawn):
        how = "--by self-draw" if ctx.self_draw else f"--situation {sorted(drawn)[0]}"
        raise HandError(f"--situation robbing_kong: a robbed kong's tile is another player's, never self-drawn; "
                        f"it cannot go with {how}")
    w = ctx.winning_tile
    if "robbing_kong" in sits and w is not None and not T.is_bonus(w):
        held = all_tiles(ctx).count(w)
        most = variant.copies_of(w) - 3
        if held > most:
            times = {0: "no", 1: "once"}.get(most, f"{most} times")
            raise HandError(
                f"--situation robbing_kong: the robbed player holds 3 copies of {T.name(w)} besides the robbed one "
                f"(his pung, or the rest of his kong), so the winner's hand holds {T.name(w)} at most {times}, the "
                f"robbed tile included; this hand holds it {held} times")
    if ctx.indicators:
        wall = variant.wall
        if not wall.get("indicators") and not wall.get("kong_indicator"):
            raise HandError(f"--indicator: the {variant.name} variant turns up no indicator tiles; leave it out")
        most = wall.get("dead_wall", 0) if wall.get("kong_indicator") else wall["indicators"]
        if len(ctx.indicators) > most:
            raise HandError(f"--indicator given {len(ctx.indicators)} times: at most {most} indicators are turned "
                            f"up in {variant.name}")
        counts: dict[int, int] = {}
        for t in list(ctx.concealed) + [x for m in ctx.melds for x in m.tiles] + list(ctx.bonus):
            counts[variant.physical(t)] = counts.get(variant.physical(t), 0) + 1
        for i in ctx.indicators:
            t = variant.physical(i)
            if variant.copies_of(t) == 0:
                raise HandError(f"--indicator {T.name(i)}: that tile is not used in the {variant.name} variant; "
                                f"an indicator is a tile of the set")
            counts[t] = counts.get(t, 0) + 1
            if counts[t] > variant.copies_of(t):
                raise HandError(f"--indicator {T.name(i)}: the set has {variant.copies_of(t)} "
                                f"{'copy' if variant.copies_of(t) == 1 else 'copies'} of {T.name(t)}, and the hand "
                                f"and the indicators would show {counts[t]}")


def chows_claimed_only_to_win(variant) -> bool:
    """True where a discard can be taken for a chow only to win: ``claims.chow = "none"`` and
    no next-player pick-up (Yuxi G-YX-2; Yangzhou, yangzhou.md "How a hand goes": "no chow
    claims, except to win").  Classic's ``claims.chow`` is ``"none"`` too, but its next player
    may take any discard and expose the chow it makes (``claims.next_player_pickup``,
    classic.md "How a hand goes", G-OX-2), as the table does: there an exposed chow is a meld
    like any other."""
    return variant.claims.get("chow") == "none" and not variant.claims.get("next_player_pickup")


def _check_claimed_chows(variant, melds, winning: int | None, self_draw: bool) -> None:
    """Where chows are claimed only to win (:func:`chows_claimed_only_to_win`) an exposed chow
    can only be the meld the winning discard completed: one at most, holding the winning tile,
    on a discard win.  Raises :class:`~mahjong_tui.errors.HandError` for any other (not a
    possible hand)."""
    if not chows_claimed_only_to_win(variant):
        return
    chows = [m for m in melds if m.kind == CHOW and not m.concealed]
    if not chows:
        return
    if len(chows) > 1 or self_draw or winning not in chows[0].tiles:
        raise HandError(
            f"({T.format_tiles(chows[-1].tiles)}) cannot be an exposed meld in {variant.name}: a chow is claimed only "
            f"to win, so an exposed chow is the one meld the winning discard completed (+T in it, won on a discard)")


def _is_sequence(variant, ts: tuple[int, ...]) -> bool:
    """Three number tiles of one suit whose ranks are a chow (no variant given) or a rank set
    of one of the variant's meld templates (rank 0 = the zero read as a number)."""
    if not all(T.is_suited(t) for t in ts) or len({T.suit_of(t) for t in ts}) != 1:
        return False
    ranks = tuple(sorted(T.rank_of(t) for t in ts))
    if variant is None:
        return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
    if variant.zero is None and ranks[0] == 0:
        return False
    return any(ranks in tpl.rank_sets for tpl in variant.meld_templates)


_FORM_WORDS = {
    "standard": "four melds and a pair",
    "seven_pairs": "seven pairs",
    "thirteen_orphans": "thirteen orphans",
    "fourteen_orphans": "fourteen orphans",
    "ultra_long_straight": "an ultra-long straight",
}


def not_complete_reason(variant) -> str:
    """A player's words for a hand that completes none of ``variant.win["forms"]``."""
    allowed = " or ".join(_FORM_WORDS.get(f, f) for f in variant.win["forms"])
    return f"not a winning hand: the tiles do not form {allowed}"


__all__ = [
    "Group", "Arrangement", "HandFacts", "arrangements", "hand_facts", "waits_of_13",
    "hand_before_win", "winning_tile_location", "declared_groups", "best", "wind_letter",
    "all_tiles", "plain_number", "win_arrangements", "best_scored",
    "wind_code", "apply_exclusions", "context_from_notation", "not_complete_reason",
    "effective_self_draw", "won_context", "chows_claimed_only_to_win", "check_situations", "robs_the_eighth", "nine_gates", "SELF_DRAWN_SITUATIONS",
    "STANDARD", "SEVEN_PAIRS", "THIRTEEN_ORPHANS", "PAIR",
    "EDGE", "CLOSED", "OPEN", "PAIR_WAIT", "PUNG_WAIT",
]
