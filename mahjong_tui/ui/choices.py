"""Single keys for the decisions a seat may take (issue 3 §4).

Discards are made with the tile cursor (left/right, Enter or ``d``).  Every other legal action
gets one key: its usual letter when it is the only action of that letter, digits when several
actions would share a letter (two chows, two kongs, two bloom tiles to win on).  Past nine such
actions (Uzje: a discard may complete a dozen ariths, gems and powers) the keys go on with
``0`` and then letters that mean nothing else at the table.  The prompt lists exactly these
choices, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from ..engine.actions import Action

#: Preferred key of each action kind.
LETTERS = {
    "win": "w",
    "pung": "p",
    "kong": "k",
    "chow": "c",
    "pickup": "t",
    "concealed_kong": "k",
    "added_kong": "a",
    "draw": "r",
    "pass": "x",
}

#: Order of the choices in a prompt: the strongest claim first, pass last.
ORDER = ("win", "kong", "concealed_kong", "added_kong", "pung", "chow", "pickup", "draw", "original_call", "pass")


@dataclass(frozen=True)
class Choice:
    key: str
    action: Action
    label: str  # words, e.g. "chow 3m 4m 5m", "arith 2s 7s 12s", "Original Call: discard N and declare ready", "pass"


#: Keys after 1-9 for numbered choices: 0, then letters no other key of the table uses (not
#: the prompt letters above, nor d h i l o q x of the table screen).
MORE_KEYS = "0befgjmnuvyz"  # not s: the hint (screens/table.py)


def meld_word(tiles, variant=None) -> str:
    """The name of the three-tile sequence meld ``tiles`` (codes, a zero read as rank 0 of
    the suit): the kind of the variant's meld template that has its ranks — Uzje's
    ``arith``, ``gem`` or ``power`` (uzje.md "Melds and winning hands"), ``chow`` elsewhere; ``chow`` without a
    variant."""
    if variant is None:
        return "chow"
    from ..scoring import meld_kind

    return meld_kind(variant, tiles)


def parts(action: Action, phase: str = "claim", variant=None) -> tuple:
    """Words for an action in a prompt, as pieces: ``str`` words and ``int`` tile codes (drawn
    with the face set).  ``phase`` is the view's phase.  A claimed sequence is named by its
    meld kind in ``variant`` (:func:`meld_word`: ``chow``, Uzje's ``arith``/``gem``/``power``);
    a zero in it is shown as the number it is read as (``0s``)."""
    k = action.kind
    t = action.tile
    if k == "chow":
        read = T.zero_as_number(action.tiles)
        out: list = [meld_word(read, variant) + " "]
        for i, x in enumerate(read):
            out += ([" "] if i else []) + [x]
        return tuple(out)
    if k == "win":
        if t is not None and T.is_bonus(t):  # a win by bonus tiles (win.bonus_wins: singapore.md "Tai table", G-UZ-14)
            return ("win by flowers on ", t) if phase == "turn" else ("rob the flower: win on ", t)
        if phase == "turn":
            return ("win (self-drawn)",)
        if phase == "after_kong":
            return ("win on bloom tile ", t)
        if phase == "rob":
            return ("rob the kong: win on ", t)
        return ("win on ", t)
    if k == "pass":
        return ("pass",)
    if k == "original_call":  # dmjl.md "Play": the first discard, announcing a ready hand
        return ("Original Call: discard ", t, " and declare ready")
    if k == "draw":
        return ("take the replacement tile",)
    if k == "pickup":
        return ("take ", t, " into hand")
    if t is None:
        return (k.replace("_", " "),)
    return (k.replace("_", " ") + " ", t)


def label(action: Action, phase: str = "claim", variant=None) -> str:
    """:func:`parts` as plain words (tiles as the table shows them: ``13s``)."""
    from .model import tile_text

    return "".join(tile_text(p) if isinstance(p, int) else p for p in parts(action, phase, variant))


def assign(legal: list[Action], phase: str = "claim", variant=None) -> list[Choice]:
    """Keys for every non-discard action of ``legal``, in prompt order.

    ``phase`` is the view's phase: on one's own turn a win is self-drawn.  ``variant`` names
    the sequence melds in the labels (:func:`meld_word`).
    """
    acts = [a for a in legal if a.kind != "discard"]
    acts.sort(key=lambda a: (ORDER.index(a.kind) if a.kind in ORDER else 99, a.tile or 0, a.tiles))
    by_letter: dict[str, list[Action]] = {}
    for a in acts:
        by_letter.setdefault(LETTERS.get(a.kind, "?"), []).append(a)
    out: list[Choice] = []
    numbered = iter([str(d) for d in range(1, 10)] + list(MORE_KEYS))
    for a in acts:
        letter = LETTERS.get(a.kind, "?")
        if len(by_letter[letter]) == 1 and letter != "?":
            key = letter
        else:
            # past the 23 numbered keys (never seen in play) a choice is taken by a click only
            key = next(numbered, f"#{len(out) + 1}")
        out.append(Choice(key, a, label(a, phase, variant)))
    return out


#: Keys that also mean "pass" in a claim prompt.
PASS_ALIASES = ("x", "space")
