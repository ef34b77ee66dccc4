""""Why can't I win with this?" (``y`` at the table; issue 22, item 6): the hand of the seat
at the keyboard explained as ``mahjong-tui analyze`` explains a hand (mahjong_tui/CLI.md,
``analyze``): how far from ready, and by which form; the waits and what a win on each is worth;
the best discards on one's own turn; and, for a complete shape that is not a win, why — under
the variant's minimum (``win.minimum``: yangzhou.md "Winning hands", singapore.md "Tai
table"), a hand that wins only self-drawn on a discard (yuxi.md "Winning hands"), a chow not
claimable (classic.md "Winning hands").

Nothing here decides a rule: the shape is the variant's :attr:`~mahjong_tui.variant.Variant.
hand_shape` (shanten, forms, waits, completeness) and the worth of a win is the scorer's,
through :func:`~mahjong_tui.ui.model.wait_worth` and :func:`~mahjong_tui.ui.model.readiness`
(the readiness line uses the same).  Only the seat's own view is read, so the answer never
says more than the player can see.
"""

from __future__ import annotations

from typing import Sequence

from .. import tiles as T
from ..engine import Action
from .model import parse, readiness, wait_worth


def _counts(hand: Sequence[int]) -> list[int]:
    counts = [0] * T.NUM_KINDS
    for t in hand:
        counts[t] += 1
    return counts


def _why_not(worth: str, *, on_discard: bool = True) -> str:
    """A wait's worth (:func:`wait_worth`: ``'no win: 3/15 fan'``, ``'self-draw only: …'``,
    ``'no win (completes a chow)'``) as the reason a complete shape is not a win."""
    if worth.startswith("self-draw only"):
        rest = worth[len("self-draw only"):].lstrip(": ")
        return "it wins only self-drawn, not on a discard" + (f" (self-drawn: {rest})" if rest else "")
    if worth.startswith("no win"):
        rest = worth[len("no win"):].strip()
        if rest.startswith(":"):
            value = rest[1:].strip()
            return f"it is under the minimum a win needs ({value})"
        if rest.startswith("("):
            return rest.strip("()")
        return "it is not a winning hand here"
    return f"it would be a win ({worth})"


def _form_line(shape, counts: list[int], melds: int) -> str | None:
    try:
        forms = shape.shanten_by_form(counts, melds)
    except ValueError:
        return None
    if len(forms) < 2:
        return None
    return "By form (tiles from ready): " + ", ".join(f"{f} {s}" for f, s in forms.items())


def _ready_lines(variant, view: dict, discard: int | None = None) -> list[str]:
    r = readiness(variant, view, discard)
    if r.shanten is None:
        return []
    if r.shanten > 0:
        n = r.shanten
        return [f"{n} tile{'s' if n != 1 else ''} from ready."]
    if not r.waits:
        return ["Ready, but no tile completes the hand."]
    out = ["Ready. Waits (unseen copies): what a win on each is worth:"]
    for w in r.waits:
        out.append(f"  {T.name(w)} ({r.left.get(w, 0)} left): {r.worth.get(w, '')}")
    return out


def explain(variant, view: dict, legal: Sequence[Action] | None = None) -> list[str]:
    """Lines of text about the hand of ``view``'s seat (its own view; ``legal``: the actions
    of the prompt on screen, if any).  A 14-tile hand (one's own turn): complete and why it is
    not a win, or the best discards as ``analyze`` ranks them (fewest tiles from ready, then
    most tiles accepted); a 13-tile hand: with a discard to claim, whether it completes the
    hand and why that is not a win; then readiness and the worth of each wait.  Never raises
    for a hand the table produced; an odd count gives one line saying so."""
    shape = variant.hand_shape
    me = view["players"][view["seat"]]
    melds = len(me["melds"])
    hand = list(parse(view["hand"]))
    counts = _counts(hand)
    n = len(hand) + 3 * melds
    kinds = {a.kind for a in legal or ()}
    out: list[str] = []
    if "win" in kinds:
        out.append("This hand wins now: press w.")
    if n == 14:
        try:
            complete = shape.is_complete(counts, melds)
        except ValueError:
            complete = False
        if complete and "win" not in kinds:
            drawn = parse(view.get("drawn"))
            last = drawn[0] if drawn else hand[-1]
            rest = list(counts)
            rest[last] -= 1
            worth = wait_worth(variant, view, rest, [last]).get(last, "")
            if worth.startswith("no win"):
                out.append(f"Your 14 tiles are a complete shape, but not a win self-drawn on {T.name(last)}: "
                           + _why_not(worth, on_discard=False) + ".")
            else:  # a win self-drawn by the scorer: only the moment's rules keep it off the prompt
                rest_worth = worth[len("self-draw only"):].lstrip(": ") if worth.startswith("self-draw only") else worth
                out.append(f"Your 14 tiles are a complete hand, a win self-drawn ({rest_worth}), "
                           "but the table does not offer the win at this moment.")
        elif not complete:
            try:
                sh = shape.shanten(counts, melds)
            except ValueError:
                return out + ["This hand cannot be read."]
            out.append(f"Not a complete hand: after your best discard, {sh} tile{'s' if sh != 1 else ''} from ready."
                       if sh else "Not a complete hand: the right discard leaves you ready.")
            ranked = []
            for t in sorted(set(hand)):
                r = readiness(variant, view, t)
                if r.shanten is not None:
                    ranked.append((r.shanten, -sum(r.left.values()), t, r))
            ranked.sort(key=lambda x: x[:3])
            for sh_t, _acc, t, r in ranked[:4]:
                waits = (" → waits " + " ".join(f"{T.name(w)} ({r.left.get(w, 0)})" for w in r.waits)) if r.waits else ""
                out.append(f"  discard {T.name(t)}: {sh_t} from ready{waits}")
            form = _form_line(shape, counts, melds)
            if form:
                out.append(form)
        return out
    if n != 13:
        return out + [f"{len(hand)} tiles in hand and {melds} melds: not a hand to explain now."]
    d = view.get("discard")
    if d and view.get("phase") in ("claim", "rob") and d.get("tile"):
        tile = T.parse_tile(d["tile"])
        if not T.is_bonus(tile):
            plus = list(counts)
            plus[tile] += 1
            try:
                complete = shape.is_complete(plus, melds)
            except ValueError:
                complete = False
            if complete and "win" not in kinds:
                worth = wait_worth(variant, view, counts, [tile]).get(tile, "")
                out.append(f"{T.name(tile)} completes your hand, but it is not a win on this discard: "
                           + _why_not(worth, on_discard=True) + ".")
            elif not complete:
                out.append(f"{T.name(tile)} does not complete your hand.")
    out += _ready_lines(variant, view)
    form = _form_line(shape, counts, melds)
    if form:
        out.append(form)
    return out
