"""Single keys for the decisions a seat may take (issue 3 §4).

Discards are made with the tile cursor (left/right, Enter or ``d``).  Every other legal action
gets one key: its usual letter when it is the only action of that letter, digits when several
actions would share a letter (two chows, two kongs, two bloom tiles to win on).  The prompt
lists exactly these choices, nothing else.
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
ORDER = ("win", "kong", "concealed_kong", "added_kong", "pung", "chow", "pickup", "draw", "pass")


@dataclass(frozen=True)
class Choice:
    key: str
    action: Action
    label: str  # words, e.g. "chow 3-4-5m", "pass"


def label(action: Action, phase: str = "claim") -> str:
    """Words for an action in a prompt (``phase``: the view's phase)."""
    k = action.kind
    if k == "chow":
        return "chow " + " ".join(T.name(t) for t in action.tiles)
    if k == "win":
        if phase == "turn":
            return "win (self-drawn)"
        if phase == "after_kong":
            return f"win on bloom tile {T.name(action.tile)}"
        if phase == "rob":
            return f"rob the kong: win on {T.name(action.tile)}"
        return f"win on {T.name(action.tile)}"
    if k == "pass":
        return "pass"
    if k == "draw":
        return "take the replacement tile"
    if k == "pickup":
        return f"take {T.name(action.tile)} into hand"
    return f"{k.replace('_', ' ')} {T.name(action.tile)}"


def assign(legal: list[Action], phase: str = "claim") -> list[Choice]:
    """Keys for every non-discard action of ``legal``, in prompt order.

    ``phase`` is the view's phase: on one's own turn a win is self-drawn.
    """
    acts = [a for a in legal if a.kind != "discard"]
    acts.sort(key=lambda a: (ORDER.index(a.kind) if a.kind in ORDER else 99, a.tile or 0, a.tiles))
    by_letter: dict[str, list[Action]] = {}
    for a in acts:
        by_letter.setdefault(LETTERS.get(a.kind, "?"), []).append(a)
    out: list[Choice] = []
    digit = 1
    for a in acts:
        letter = LETTERS.get(a.kind, "?")
        if len(by_letter[letter]) == 1 and letter != "?":
            key = letter
        else:
            key = str(digit)
            digit += 1
        out.append(Choice(key, a, label(a, phase)))
    return out


#: Keys that also mean "pass" in a claim prompt.
PASS_ALIASES = ("x", "space")
