"""Instant payments (Singapore "bites"): which payments a bonus tile or a kong sets off.

singapore.md "Settlement" (seed-silent defaults, G-SG-8).  Pure rules; the engine
(:mod:`mahjong_tui.engine.table`) calls them the moment a bonus tile is set aside or a kong
stands, looks the amount up in the variant's ``[instant_payments]`` table and moves the scores.

Payment ids (the keys of ``[instant_payments]``; ``<id>_hidden`` is the amount of a hidden
bite, when given):

- ``bite_animals`` — one player holds Cat + Rat, or Rooster + Centipede (each pair bites once);
- ``bite_seat_flowers`` — one player holds the season and the flower of his seat's number
  (E 1, S 2, W 3, N 4);
- ``bite_complete_group`` — all four seasons, or all four flowers (each group bites once);
- ``bite_all_animals`` — all four animals (on top of both animal bites);
- ``kong_exposed`` — an exposed or added kong stands; ``kong_concealed`` — a concealed kong.

A bite is *hidden* when every tile that makes it came in the dealt hand or the bonus
replacements of the deal (``dealt``).
"""

from __future__ import annotations

from typing import Collection

from .. import tiles as T

CAT, RAT, ROOSTER, CENTIPEDE = T.ANIMALS
ANIMAL_PAIRS = ((CAT, RAT), (ROOSTER, CENTIPEDE))

#: payment id → the kong types (common.md "Melds") that set it off
KONG_PAYMENTS = {"kong_exposed": ("exposed", "added"), "kong_concealed": ("concealed",)}


def bites(held: Collection[int], new: int, seat_number: int,
          dealt: Collection[int]) -> list[tuple[str, bool, tuple[int, ...]]]:
    """The bites that setting aside bonus tile ``new`` sets off, as ``(id, hidden, tiles)``.

    - ``held``: the player's bonus tiles, ``new`` included;
    - ``seat_number``: 1..4 for East..North (the seat wind of this hand);
    - ``dealt``: those of ``held`` that came in the deal (for the hidden bites).

    Each bite is reported once: only the bites that ``new`` completes.  singapore.md "Settlement".
    """
    held = set(held)
    out: list[tuple[str, bool, tuple[int, ...]]] = []
    if T.is_animal(new):
        for pair in ANIMAL_PAIRS:
            if new in pair and all(t in held for t in pair):
                out.append(("bite_animals", all(t in dealt for t in pair), pair))
        if all(t in held for t in T.ANIMALS):
            out.append(("bite_all_animals", all(t in dealt for t in T.ANIMALS), T.ANIMALS))
    elif T.is_flower_or_season(new):
        if T.bonus_number(new) == seat_number:
            own = (T.SEASONS[seat_number - 1], T.FLOWERS[seat_number - 1])
            if all(t in held for t in own):
                out.append(("bite_seat_flowers", all(t in dealt for t in own), own))
        group = T.SEASONS if new in T.SEASONS else T.FLOWERS
        if all(t in held for t in group):
            out.append(("bite_complete_group", all(t in dealt for t in group), group))
    return out


def kong_payment(kong_type: str) -> str:
    """The payment id of a kong of ``kong_type`` (``exposed``, ``added``, ``concealed``;
    singapore.md "Settlement": an added kong pays as an exposed one).  ValueError for any other type."""
    for pid, types in KONG_PAYMENTS.items():
        if kong_type in types:
            return pid
    raise ValueError(f"unknown kong type {kong_type!r}; expected exposed, added or concealed")


def rate(table, pid: str, hidden: bool) -> tuple[float, bool]:
    """``(amount, at_hidden_rate)``: what each other player pays for payment ``pid`` under the
    variant's ``[instant_payments]`` ``table`` (0 if the table does not list it), and whether
    that is the hidden rate — ``<pid>_hidden`` for a ``hidden`` bite when the table has it,
    else ``pid`` (singapore.md "Settlement", G-SG-8)."""
    if hidden and f"{pid}_hidden" in table:
        return table[f"{pid}_hidden"], True
    return table.get(pid, 0), False


__all__ = ["bites", "kong_payment", "rate", "ANIMAL_PAIRS", "KONG_PAYMENTS"]


def each_pays(variant, pid: str, hidden: bool = False) -> tuple[float, bool]:
    """``(amount, at_hidden_rate)``: what each of the other three players pays for payment
    ``pid`` in ``variant``'s score unit — :func:`rate` of its ``[instant_payments]`` times
    ``scoring.base`` (singapore.md "Settlement"); 0 where the variant does not list it."""
    amount, at_hidden = rate(variant.instant_payments, pid, hidden)
    return amount * variant.scoring["base"], at_hidden
