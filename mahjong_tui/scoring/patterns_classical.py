"""Pattern detectors that Classical Chinese as the DMJL and the BMJA play it needs beyond the
pattern library (:mod:`mahjong_tui.scoring.patterns`): registered in the same registry, named
in ``variants/dmjl.toml`` and ``variants/bmja.toml`` ``[scoring.patterns]``.

Rule sources: ``assets/rules/dmjl.md`` and ``assets/rules/bmja.md`` ("Winning hands",
"Scoring").  A detector sees one reading of a hand (:class:`~mahjong_tui.scoring.patterns.Hand`):
its groups are the declared melds and the melds and pairs read from the concealed tiles (a
winner's whole arrangement; a non-winner's best partial one), a group completed by the
winning discard counting as exposed.  Importing this module registers the detectors.
"""

from __future__ import annotations

from .. import tiles as T
from ..melds import CHOW, CONCEALED_KONG, KONG, PUNG
from .patterns import Hand, Hit, Params, detector

PAIR = "pair"
_FORMS = ("thirteen_orphans", "nine_gates", "gates_of_heaven", "squirming_snake", "wriggling_snake",
          "triple_knitting", "knitting", "all_pair_honours")
_CALLING = ("all_honours", "wriggling_snake", "triple_knitting", "gates_of_heaven", "knitting", "imperial_jade",
            "thirteen_orphans", "three_great_scholars_no_chow", "all_pair_honours", "heads_and_tails",
            "four_blessings", "buried_treasure", "fourfold_plenty", "purity")


def _exposed(g) -> bool:
    """A group with a tile from another player: a claimed meld, an exposed or added kong, a
    group the winning discard completed (a declared concealed kong is not)."""
    if g.kind == KONG and g.kong_type == CONCEALED_KONG:
        return False
    return not g.concealed


def _major(t: int) -> bool:
    return T.is_honour(t) or T.is_terminal(t)


@detector("pair_of", tiles=("dragon", ("dragon", "seat_wind", "prevailing_wind")))
def _pair_of(h: Hand, p: Params) -> int:
    """Each pair of a class: ``dragon``, ``seat_wind``, ``prevailing_wind`` (a pair of a wind
    that is both scores both; dmjl.md "Scoring" ``pair_dragon``, ``pair_own_wind``,
    ``pair_prevailing_wind``); a non-winner's pairs count too."""
    n = 0
    for g in h.groups:
        if g.kind != PAIR:
            continue
        t = g.tiles[0]
        if p.tiles == "dragon" and T.is_dragon(t) or p.tiles == "seat_wind" and t == h.ctx.seat_wind \
                or p.tiles == "prevailing_wind" and t == h.ctx.prevailing_wind:
            n += 1
    return n


@detector("bonus_tile", kind=("flower", ("flower", "season")), own=("any", ("any", "yes")))
def _bonus_tile(h: Hand, p: Params) -> int:
    """Each flower (or season) held; ``own``: ``yes`` only the seat's own (East 1 ... North 4;
    bmja.md "Scoring" ``own_flower``, ``own_season``; dmjl.md ``flower``, ``season``)."""
    tiles = T.FLOWERS if p.kind == "flower" else T.SEASONS
    seat = T.seat_number(h.ctx.seat_wind)
    return sum(1 for b in h.ctx.bonus if b in tiles and (p.own == "any" or T.bonus_number(b) == seat))


@detector("own_flower_and_season")
def _own_flower_and_season(h: Hand, p: Params) -> int:
    """The seat's own flower and its own season both held (dmjl.md "Scoring")."""
    seat = T.seat_number(h.ctx.seat_wind)
    return int(sum(1 for b in h.ctx.bonus if T.is_flower_or_season(b) and T.bonus_number(b) == seat) == 2)


@detector("concealed_pungs", count=(3, None))
def _concealed_pungs(h: Hand, p: Params) -> int:
    """At least ``count`` concealed pungs or kongs (dmjl.md ``three_concealed_pungs``)."""
    return int(sum(1 for g in h.groups if g.kind in (PUNG, KONG) and not _exposed(g)) >= p.count)


@detector("honour_groups", honours=("dragons", ("dragons", "winds")), pungs=(3, None), pair=(False, None))
def _honour_groups(h: Hand, p: Params) -> int:
    """Exactly ``pungs`` pungs or kongs of dragons (winds) and, with ``pair``, a pair of them
    besides; every player's hand (dmjl.md ``little_three_dragons``, ``big_three_dragons``,
    ``little_four_winds``, ``big_four_winds``)."""
    fam = T.is_dragon if p.honours == "dragons" else T.is_wind
    pungs = sum(1 for g in h.groups if g.kind in (PUNG, KONG) and fam(g.tiles[0]))
    pairs = sum(1 for g in h.groups if g.kind == PAIR and fam(g.tiles[0]))
    return int(pungs == p.pungs and pairs == (1 if p.pair else 0))


@detector("mahjong")
def _mahjong(h: Hand, p: Params) -> int:
    """Going out with four melds and a pair (dmjl.md "Scoring" ``mahjong``)."""
    return int(h.form == "standard")


@detector("last_tile_pair", tiles=("simple", ("simple", "major")))
def _last_tile_pair(h: Hand, p: Params) -> int:
    """The winning tile completed the pair: of a simple (2-8) or of a terminal or honour
    (dmjl.md ``last_tile_pair_simple``, ``last_tile_pair_major``)."""
    g = next((g for g in h.groups if g.has_winning_tile), None)
    if g is None or g.kind != PAIR:
        return 0
    return int(_major(g.tiles[0]) == (p.tiles == "major"))


@detector("only_possible_tile")
def _only_possible_tile(h: Hand, p: Params) -> int:
    """Only one kind of tile could have completed the hand, and it did not complete a kong
    (dmjl.md ``only_possible_tile``)."""
    from .classical import waits_before_win

    g = next((g for g in h.groups if g.has_winning_tile), None)
    if h.ctx.winning_tile is None or (g is not None and g.kind == KONG) or h.form != "standard":
        return 0
    return int(waits_before_win(h.variant, h.ctx) == 1)


@detector("zero_point_hand")
def _zero_point_hand(h: Hand, p: Params) -> int:
    """No pung, kong or valued pair (dragons, the seat's or the prevailing wind) in a standard
    hand: nothing but the bonus tiles earns points (dmjl.md ``zero_point_hand``)."""
    if h.form != "standard":
        return 0
    for g in h.groups:
        if g.kind in (PUNG, KONG):
            return 0
        if g.kind == PAIR and (T.is_dragon(g.tiles[0]) or g.tiles[0] in (h.ctx.seat_wind, h.ctx.prevailing_wind)):
            return 0
    return 1


@detector("no_chow", plans=lambda p: ("triplets",))
def _no_chow(h: Hand, p: Params) -> int:
    """No chow in the hand (dmjl.md ``no_chow``)."""
    return int(not any(g.kind == CHOW for g in h.groups))


@detector("nothing_exposed")
def _nothing_exposed(h: Hand, p: Params) -> int:
    """No exposed group: nothing claimed, no exposed kong, not even the group the winning
    discard completed (dmjl.md ``only_concealed_melds``)."""
    return int(not any(_exposed(g) for g in h.groups) and not any(
        not m.concealed and not (m.kind == KONG and m.kong_type == CONCEALED_KONG) for m in h.ctx.melds))


@detector("suit_purity", plans=lambda p: ("suit_triplets",) if p.chows == "none" else ("suit",),
          chows=("any", ("any", "none")), concealed=(False, None))
def _suit_purity(h: Hand, p: Params) -> int:
    """One suit, no honours (a full flush), with ``chows = "none"`` no chow (bmja.md
    ``purity``), with ``concealed`` nothing exposed (dmjl.md ``concealed_full_flush``)."""
    if len(h.suits) != 1 or h.has_honours:
        return 0
    if p.chows == "none" and not _no_chow(h, p):
        return 0
    return int(not p.concealed or bool(_nothing_exposed(h, p)))


@detector("majors_only")
def _majors_only(h: Hand, p: Params) -> int:
    """Only terminals (1 and 9) and honours (dmjl.md ``terminals_and_honours``)."""
    return int(bool(h.tiles) and all(_major(t) for t in h.tiles))


@detector("hidden_treasure")
def _hidden_treasure(h: Hand, p: Params) -> int:
    """Four concealed pungs or kongs and a pair, the winning tile drawn (dmjl.md
    ``hidden_treasure``)."""
    return int(h.form == "standard" and h.ctx.winning_tile is not None and h.ctx.self_draw
               and _no_chow(h, p) and bool(_nothing_exposed(h, p)))


@detector("buried_treasure")
def _buried_treasure(h: Hand, p: Params) -> int:
    """Four concealed pungs (no kong) and a pair, one suit with or without honours (bmja.md
    ``buried_treasure``)."""
    return int(len(h.suits) == 1 and sum(1 for g in h.groups if g.kind == PUNG) == 4
               and all((g.kind == PUNG and not _exposed(g)) or g.kind == PAIR for g in h.groups))


@detector("dragon_pungs", no_chow=(False, None))
def _dragon_pungs(h: Hand, p: Params) -> int:
    """Three pungs or kongs of dragons; ``no_chow``: and no chow (dmjl.md
    ``three_great_scholars``; bmja.md ``three_great_scholars_no_chow``)."""
    n = sum(1 for g in h.groups if g.kind in (PUNG, KONG) and T.is_dragon(g.tiles[0]))
    return int(n == 3 and (not p.no_chow or bool(_no_chow(h, p))))


@detector("won_with", situation=("kong_replacement", ("kong_replacement", "last_wall_tile", "robbing_kong")),
          tile=("5t", None))
def _won_with(h: Hand, p: Params) -> int:
    """Won in ``situation`` on the tile ``tile`` (dmjl.md ``plum_blossom``: 5 of dots from the
    kong box; ``plucking_moon``: 1 of dots, the last tile of the wall; ``scratching_pole``:
    robbing a kong of 2 bamboo)."""
    return int(p.situation in h.ctx.situations and h.ctx.winning_tile == T.parse_tile(p.tile))


@detector("original_call")
def _original_call(h: Hand, p: Params) -> int:
    """Won after Original Call, with fewer than three exposed groups (dmjl.md "Play")."""
    exposed = sum(1 for g in h.groups if _exposed(g))
    return int("original_call" in h.ctx.situations and exposed < 3)


@detector("blessing", dealer=("yes", ("yes", "no")))
def _blessing(h: Hand, p: Params) -> int:
    """Blessing of Heaven (``dealer = "yes"``: East's dealt hand, nothing exposed) or of Earth
    (``"no"``: won on East's first discard) (dmjl.md ``heavenly``, ``earthly``)."""
    if p.dealer == "yes":
        return int("heavenly" in h.ctx.situations and h.ctx.is_dealer and not any(_exposed(g) for g in h.groups))
    return int("earthly" in h.ctx.situations and not h.ctx.is_dealer)


@detector("special_form", form=("thirteen_orphans", _FORMS))
def _special_form(h: Hand, p: Params) -> int:
    """A special winning hand (dmjl.md, bmja.md "Winning hands"): ``thirteen_orphans``,
    ``nine_gates`` (the extra tile the winning one), ``gates_of_heaven`` (the extra one of 2-8),
    ``squirming_snake``, ``wriggling_snake``, ``triple_knitting``, ``knitting``,
    ``all_pair_honours``."""
    from .classical import special_forms

    return int(p.form in special_forms(h.ctx))


@detector("calling", hand=("purity", _CALLING))
def _calling(h: Hand, p: Params) -> int:
    """A non-winner's waiting hand that one more tile would make a win scored by ``hand``
    (its limit, or purity): bmja.md "Scoring" ``calling_*``."""
    from .classical import calling_for

    return int(h.arr is None and p.hand in calling_for(h.variant, h.ctx))
