"""Variants: rules as data.

A variant is a TOML file in ``variants/`` (or any path).  This module loads it, resolves
``extends = "other"`` (tables merge key by key; scalars and arrays replace), validates every
key against :data:`SCHEMA`, and returns a frozen :class:`Variant`.  Every error names the
file, the key and what is allowed (:class:`~mahjong_tui.errors.VariantError`).

The rules hash (:attr:`Variant.rules_hash`) is a SHA-256 over the merged rules in canonical
JSON form; it is recorded in every game log and checked when a log is replayed or a client
joins a LAN table.  ``id``, ``name``, ``summary`` and ``seed`` do not enter the hash.

The meaning of each key is documented in ``variants/README.md``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from . import tiles as T
from .errors import HandError, VariantError
from .paths import data_dir, read_regular

#: the largest variant file that is read (the shipped ones are under 10 KB)
MAX_VARIANT_BYTES = 2**20

# --------------------------------------------------------------------------------------
# Schema: section -> key -> (type check, description of what is allowed, default)
# --------------------------------------------------------------------------------------

_REQUIRED = object()


class _OneOf:
    """The check of a one-of-these-strings key; ``choices`` are the allowed values (the menu
    lists them, :func:`option_values`)."""

    def __init__(self, choices: tuple[str, ...]):
        self.choices = choices

    def __call__(self, v: Any) -> bool:
        return isinstance(v, str) and v in self.choices


def _one_of(*choices: str) -> tuple[Callable[[Any], bool], str]:
    return _OneOf(tuple(choices)), "one of " + ", ".join(repr(c) for c in choices)


def _int(lo: int = 0, hi: int = 10**9) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi), \
        (f"{lo}" if lo == hi else f"a whole number from {lo} to {hi}")


def _is_number(v: Any, lo: float, hi: float) -> bool:
    """A TOML integer or float (not a bool) from ``lo`` to ``hi``; ``inf`` and ``nan`` never are."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi


def _num(lo: float, hi: float) -> tuple[Callable[[Any], bool], str]:
    """A number from ``lo`` to ``hi``: every number a variant holds is bounded, so that no score,
    payment or bot estimate it enters can overflow (a value such as ``1e308`` is refused)."""
    return (lambda v: _is_number(v, lo, hi)), f"a number from {_num_text(lo)} to {_num_text(hi)}"


def _num_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


_BOOL = (_is_bool, "true or false")
_STR = ((lambda v: isinstance(v, str) and v != ""), "a non-empty string")


def _str_list(allowed: tuple[str, ...] | None = None) -> tuple[Callable[[Any], bool], str]:
    if allowed is None:
        return (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)), "a list of strings"
    return (
        (lambda v: isinstance(v, list) and all(isinstance(x, str) and x in allowed for x in v)),
        "a list drawn from " + ", ".join(repr(a) for a in allowed),
    )


def _stacks() -> tuple[Callable[[Any], bool], str]:
    check, allowed = _int_list(4, 1, 40)
    return (lambda v: v == "even" or check(v)), allowed + ', or "even"'


def _rank_table() -> tuple[Callable[[Any], bool], str]:
    return ((lambda v: isinstance(v, dict) and all(
        k in ("t", "s", "m") and isinstance(r, list) and r
        and all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 16 for x in r) for k, r in v.items())),
        "a table of suit letter (t, s, m) = a list of ranks 1..16")


def _rank_sets() -> tuple[Callable[[Any], bool], str]:
    return ((lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and k and isinstance(sets, list) and sets and all(
            isinstance(r, list) and len(r) == 3 and len(set(r)) == 3
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 16 for x in r) for r in sets)
        for k, sets in v.items())),
        "a table of meld kind = a list of rank sets, each three distinct ranks 0..16")


def _int_list(n: int, lo: int, hi: int) -> tuple[Callable[[Any], bool], str]:
    return (
        (lambda v: isinstance(v, list) and len(v) == n and all(
            isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in v)),
        f"a list of {n} whole numbers from {lo} to {hi}",
    )


#: what a variant's ``id`` may be (it names files: no ``/``, no ``..``)
VARIANT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

WIN_FORMS = ("standard", "seven_pairs", "thirteen_orphans", "fourteen_orphans", "ultra_long_straight")
SCHEMES = ("points_doublings", "multiplier", "fan", "tai", "fan_ladder", "classical")
SETTLEMENTS = ("cumulative", "classical_zero_sum", "winner_collects")
#: The ``[scoring]`` tables that give pattern ids their values (each scheme reads its own).
SCORE_TABLES = ("special", "points", "doublings", "multipliers", "fan", "tai", "limits")
#: The values a pattern may have in each of those tables (``variants/README.md``): wide enough
#: for any table the rules pages describe (Classic's limit hands 800 points, Yangzhou's 480 fan,
#: Yuxi's ×32), small enough that a hand of every pattern at once stays a finite number.
SCORE_TABLE_RANGES = {"special": (0, 10**6), "points": (0, 10**4), "doublings": (0, 10), "multipliers": (0, 1000),
                      "fan": (0, 1000), "tai": (0, 100), "limits": (0, 100)}
#: The largest ``scoring.limit`` with ``settlement.hand_value = "doubling"`` (the worth of a hand
#: is ``base`` × 2^(value − 1)).
MAX_DOUBLING_LIMIT = 64
#: Instant payments the engine knows (singapore.md "Settlement"; ``mahjong_tui.scoring.instant``).
INSTANT_PAYMENTS = ("bite_animals", "bite_animals_hidden", "bite_seat_flowers", "bite_seat_flowers_hidden",
                    "bite_complete_group", "bite_all_animals", "kong_exposed", "kong_concealed")
#: Liability (pay-for-all) rules of ``settlement.liability`` (singapore.md "Settlement", yangzhou.md "Settlement").
LIABILITY_RULE = re.compile(r"^(discarder|(meld|dragon_meld|wind_meld):[1-4])$")
LIABILITY_RULES_TEXT = "'discarder', 'meld:N', 'dragon_meld:N' or 'wind_meld:N' (N = 1..4)"

#: The dice a ``break_roll`` option names: (number of dice, sides) (uzje.md "Setting up").
BREAK_ROLLS = {"3d6": (3, 6), "1d20": (1, 20)}

#: The bots' settings a variant file's ``[ai]`` section may set, as ``normal_<key>`` or
#: ``strong_<key>`` (variants/README.md "[ai]"; read by :class:`mahjong_tui.ai.player.LevelBot`):
#: numbers with their allowed range, and features turned on or off.
AI_NUMBERS = (("claim_boost", 1, 3), ("claim_margin", 0.3, 2), ("alpha", 0.1, 1.5),
              ("danger_weight", 0, 5), ("loser_weight", 0, 3), ("scorer_budget", 0, 10000))
AI_FLAGS = ("reads", "kong_reads", "look_ahead", "kong_payments")

SCHEMA: dict[str, dict[str, tuple[Callable[[Any], bool], str, Any]]] = {
    "": {
        # the id names the saves' files (``classic-20250101-120000.jsonl``): no path in it
        "id": ((lambda v: isinstance(v, str) and VARIANT_ID.fullmatch(v) is not None),
               "1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit", _REQUIRED),
        "name": ((lambda v: isinstance(v, str) and 0 < len(v) <= 100), "a non-empty string of at most 100 characters",
                 _REQUIRED),
        "summary": (*_STR, ""),
        "seed": (*_STR, ""),
        "extends": (*_STR, None),
    },
    "tiles": {
        "suits": (*_str_list(("t", "s", "m")), ["t", "s", "m"]),
        "ranks": (*_int_list(2, 0, 16), [1, 9]),
        "copies": (*_int(1, 8), 4),
        "honours": (*_str_list(tuple(T.HONOUR_CHARS)), ["E", "S", "W", "N", "C", "F", "P"]),
        "bonus": (*_str_list(tuple(T.BONUS_CHARS)), []),
        "suit_ranks": (*_rank_table(), {}),
        "zero_rank": (*_BOOL, False),
    },
    "wall": {
        "stacks": (*_stacks(), _REQUIRED),
        "height": (*_int(2, 2), 2),
        "dice": (*_int(1, 3), 2),
        "die_sides": (*_int(4, 20), 6),    # Uzje's break_roll = "1d20" (uzje.md "Setting up")
        "break": (*_one_of("generic"), "generic"),
        "tail": (*_one_of("loose_tiles", "dead_wall", "live_wall"), "live_wall"),
        "dead_wall": (*_int(0, 40), 0),
        "bloom_tiles": (*_int(0, 4), 0),
        "reserve": (*_int(0, 40), 0),
        "indicators": (*_int(0, 40), 0),
        "kong_indicator": (*_BOOL, False),
    },
    "deal": {
        "first_dealer": (*_one_of("random", "highest_roll", "breaker"), "random"),
        "dealer_tiles": (*_int(14, 14), 14),
        "bonus_replacement": (*_BOOL, True),
    },
    "claims": {
        "chow": (*_one_of("none", "next"), "next"),
        "next_player_pickup": (*_BOOL, False),
        "discard_picked_up": (*_BOOL, False),
        "pung": (*_BOOL, True),
        "exposed_kong": (*_BOOL, True),
        "rob_kong": (*_one_of("none", "added"), "added"),
        "rob_kong_concealed_pung": (*_BOOL, False),
        "multiple_winners": (*_BOOL, False),
        "win_completing_chow": (*_BOOL, True),
        "rob_kong_forms": (*_str_list(WIN_FORMS), []),
    },
    "melds": {
        "sequence": (*_one_of("chow", "arith"), "chow"),
        "steps": ((lambda v: isinstance(v, list) and v and all(
            isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 8 for x in v)), "a list of steps 1..8", [1]),
        "sets": (*_rank_sets(), {}),
    },
    "win": {
        "forms": ((lambda v: _str_list(WIN_FORMS)[0](v) and len(v) > 0),
                  "a non-empty list drawn from " + ", ".join(repr(f) for f in WIN_FORMS) + " (a hand must be winnable)",
                  ["standard"]),
        "minimum": (*_num(0, 1000), 0),
        "self_draw_only_patterns": (*_str_list(), []),
        "seven_pairs_allow_quads": (*_BOOL, False),
        "bonus_wins": (*_BOOL, False),
        # dmjl.md, bmja.md "Play": Original Call may be announced with a player's first discard
        "original_call": (*_BOOL, False),
    },
    "scoring": {
        "scheme": (*_one_of(*SCHEMES), _REQUIRED),
        "unit": (*_one_of("points", "multiplier", "fan", "tai"), _REQUIRED),
        "limit": (*_num(0, 10**6), 0),
        "score_losers": (*_BOOL, False),
        "base": (*_num(0, 1000), 1),
        "exclusions": ((lambda v: isinstance(v, list) and all(isinstance(f, list) and all(isinstance(x, str) for x in f) for f in v)),
                       "a list of lists of pattern ids", []),
        "points": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 10000", {}),
        "doublings": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 10", {}),
        "special": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 1000000", {}),
        "multipliers": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 1000", {}),
        "fan": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 1000", {}),
        "tai": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 100", {}),
        "limits": ((lambda v: isinstance(v, dict)), "a table of pattern id = a number from 0 to 100", {}),
        "ladder": ((lambda v: isinstance(v, list) and len(v) <= 100 and all(_is_number(x, 0, 10**6) for x in v)),
                   "a list of at most 100 numbers from 0 to 1000000", []),
        "limit_points": (*_num(0, 10**6), 0),
        "limit_step": (*_num(1, 100), 3),
        "lucky_tiles": ((lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values())),
                        "a table of pattern id = tile", {}),
        "extra_fan": (*_num(0, 100), 0),
        # classical (dmjl.md, bmja.md): no cap on points x 2^doublings; chows a winning hand may hold
        "roof_off": (*_BOOL, False),
        "max_chows": (*_int(0, 4), 4),
        # the pattern library's listing (mahjong_tui/scoring/patterns.py, variants/README.md
        # "Scoring patterns"): pattern id = { detector = ..., parameters, name, ... }
        "patterns": ((lambda v: isinstance(v, dict) and all(isinstance(x, dict) for x in v.values())),
                     "a table of pattern id = { detector = ..., name = ..., parameters }", {}),
    },
    "settlement": {
        "mode": (*_one_of(*SETTLEMENTS), "cumulative"),
        "east_pays_double": (*_BOOL, False),
        "self_draw_each": (*_num(0, 100), 1),
        "discarder": (*_num(0, 100), 1),
        "discard_others": (*_num(0, 100), 0),
        "robbed_pays_as_discarder": (*_BOOL, True),
        "liability_patterns": (*_str_list(), []),
        "liability_meld": (*_int(0, 4), 0),
        "liability": ((lambda v: isinstance(v, dict)), "a table of pattern id = liability rule", {}),
        "hand_value": (*_one_of("linear", "doubling"), "linear"),
        "shooter_pays_all": (*_BOOL, False),
        # dmjl.md, bmja.md "Settlement": a dangerous discard that makes somebody win pays for all
        "dangerous_game": (*_BOOL, False),
    },
    "match": {
        "hands": (*_int(1, 1000), 16),
        "rounds": (*_int(0, 16), 0),
        "start_score": (*_num(-10**9, 10**9), 0),
        "prevailing_wind": (*_one_of("every_hand", "dealer_cycle"), "dealer_cycle"),
        "dealer_stays_on": (*_str_list(("dealer_win", "draw")), ["dealer_win", "draw"]),
        "new_dealer": (*_one_of("next", "winner"), "next"),
    },
    # amounts in units of ``scoring.base``, paid by each of the other three players (singapore.md "Settlement")
    "instant_payments": {pid: (*_num(0, 1000), None) for pid in INSTANT_PAYMENTS},
    # the bots' settings where a variant's scoring asks for other play than the defaults
    # (mahjong_tui/ai/player.py LEVELS): not rules, so never in the rules hash
    "ai": {
        **{f"{level}_{key}": (*_num(lo, hi), None) for level in ("normal", "strong") for key, lo, hi in AI_NUMBERS},
        **{f"{level}_{flag}": (*_BOOL, None) for level in ("normal", "strong") for flag in AI_FLAGS},
    },
    "options": {
        "flowers": (*_BOOL, None),
        "compressed_winds": (*_BOOL, None),
        "all_tongs": (*_BOOL, None),
        "concealed_quad_mode": (*_one_of("known", "hidden"), "known"),
        "bonus_tile_mode": (*_one_of("identity", "successor"), "identity"),
        "break_roll": (*_one_of(*BREAK_ROLLS), "3d6"),
    },
}

_TABLE_SECTIONS = {("scoring", k) for k in SCORE_TABLES}

#: Keys added after variant files and game logs already existed (Singapore and Uzje, seeds 001
#: and 002): left out of the rules hash while they hold their default, so an older file keeps
#: its hash (and its saved games replay); a section with nothing left in it is left out too.
_LATER_KEYS = {
    ("tiles", "suit_ranks"), ("tiles", "zero_rank"), ("wall", "indicators"), ("wall", "kong_indicator"),
    ("claims", "rob_kong_forms"), ("win", "bonus_wins"), ("melds", "sequence"), ("melds", "steps"), ("melds", "sets"),
    ("scoring", "limits"), ("scoring", "ladder"), ("scoring", "limit_points"), ("scoring", "limit_step"),
    ("scoring", "lucky_tiles"), ("scoring", "extra_fan"), ("scoring", "roof_off"), ("scoring", "max_chows"),
    ("options", "concealed_quad_mode"), ("options", "bonus_tile_mode"), ("options", "break_roll"),
    ("wall", "die_sides"),
    ("settlement", "liability"), ("settlement", "hand_value"), ("settlement", "shooter_pays_all"),
    ("win", "original_call"), ("settlement", "dangerous_game"),
    *(("instant_payments", pid) for pid in INSTANT_PAYMENTS),
}

#: The tile-set options (uzje.md "Tiles"): each, when set, rewrites [tiles] keys before validation.
FLOWER_TILES = ["h", "i", "j", "k", "o", "p", "q", "r"]
_FULL_WINDS = ["E", "S", "W", "N"]
_COMPRESSED_WINDS = ["H", "V"]


def _apply_options(path: Path, data: dict) -> dict:
    """Rewrite the [tiles] keys that the tile-set options of ``[options]`` govern (uzje.md "Tiles"):

    - ``flowers``: true = ``tiles.bonus`` is the eight flowers ``hijkopqr``; false = none;
    - ``compressed_winds``: true = the winds ``E S W N`` in ``tiles.honours`` become ``H V``;
      false = back to ``E S W N``;
    - ``all_tongs``: true = tongs (``t``) hold every rank; false = only the terminals (lowest
      rank from 1, highest), in ``tiles.suit_ranks``.

    - ``break_roll``: the dice of the break roll, ``"3d6"`` or ``"1d20"`` (uzje.md "Setting up": the
      starter rolls three dice, or with the option one twenty-sided die), as ``wall.dice`` and ``wall.die_sides``.

    An option that is absent changes nothing.  Raises :class:`VariantError` for a value that
    is not true or false.
    """
    opts = data.get("options")
    if not isinstance(opts, dict):
        return data
    for key in ("flowers", "compressed_winds", "all_tongs"):
        if key in opts and not isinstance(opts[key], bool):
            raise VariantError(f"{path}: key 'options.{key}' = {opts[key]!r} is not allowed; expected true or false")
    out = copy.deepcopy(data)
    tiles = out.setdefault("tiles", {})
    if not isinstance(tiles, dict):
        return out
    if "flowers" in opts:
        tiles["bonus"] = list(FLOWER_TILES) if opts["flowers"] else []
    if "compressed_winds" in opts:
        honours = list(tiles.get("honours", SCHEMA["tiles"]["honours"][2]))
        old, new = (_FULL_WINDS, _COMPRESSED_WINDS) if opts["compressed_winds"] else (_COMPRESSED_WINDS, _FULL_WINDS)
        at = next((i for i, h in enumerate(honours) if h in old or h in new), len(honours))
        honours = [h for h in honours if h not in old and h not in new]
        tiles["honours"] = honours[:at] + new + honours[at:]
    if opts.get("break_roll") in BREAK_ROLLS:  # a bad value is reported by the schema check
        wall = out.setdefault("wall", {})
        if isinstance(wall, dict):
            n, sides = BREAK_ROLLS[opts["break_roll"]]
            wall["dice"], wall["die_sides"] = n, sides
    if "all_tongs" in opts:
        ranks = dict(tiles.get("suit_ranks", {}))
        if opts["all_tongs"]:
            ranks.pop("t", None)
        else:
            lo, hi = tiles.get("ranks", SCHEMA["tiles"]["ranks"][2])
            ranks["t"] = sorted({max(lo, 1), hi})
        tiles["suit_ranks"] = ranks
    return out


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def variants_dir() -> Path:
    """The directory of the shipped variant files."""
    return data_dir("variants")


def available_variants() -> list[str]:
    """Ids of the shipped variants, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.toml"))


def _exists(p: Path) -> bool:
    """``p.exists()``, False for a path the system cannot even look up (a name too long, a NUL
    byte)."""
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def _shown_ref(ref: str) -> str:
    """``ref`` as an error message quotes it: at most 60 characters."""
    return repr(ref) if len(ref) <= 60 else repr(ref[:57] + "...") + f" ({len(ref)} characters)"


def _locate(ref: str, relative_to: Path | None = None) -> Path:
    if not isinstance(ref, str) or not ref:
        raise VariantError(f"a variant is a variant id or the path of a variant file, got {ref!r}")
    p = Path(ref)
    if ref.endswith(".toml") or "/" in ref or "\\" in ref:
        if not p.is_absolute() and relative_to is not None and _exists(relative_to / p):
            p = relative_to / p
        if not _exists(p):
            raise VariantError(f"variant file {_shown_ref(ref)} does not exist")
        return p
    cand = variants_dir() / f"{ref}.toml"
    if relative_to is not None and _exists(relative_to / f"{ref}.toml"):
        cand = relative_to / f"{ref}.toml"
    if not _exists(cand):
        raise VariantError(
            f"unknown variant {_shown_ref(ref)}; known variants: {', '.join(available_variants())} "
            "(or a path to a .toml file)"
        )
    return cand


def _read(path: Path, chain: tuple[Path, ...] = ()) -> dict:
    if path.resolve() in chain:
        raise VariantError(f"{path}: 'extends' makes a cycle: {' -> '.join(str(c) for c in chain + (path,))}")
    try:
        raw = read_regular(path, MAX_VARIANT_BYTES, "a variant file")
    except OSError as exc:
        raise VariantError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise VariantError(f"{path}: line {line} is not UTF-8 text (byte 0x{raw[exc.start]:02x}); "
                           "a variant file is TOML in UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise VariantError(f"{path}: not valid TOML: nested too deeply") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise VariantError(f"{path}: key 'extends' must be a variant id or path (a string)")
    base = _read(_locate(parent, path.parent), chain + (path.resolve(),))
    return _merge(base, data)


def _shown_value(v: Any) -> str:
    """A value of a variant file as an error message quotes it: at most 60 characters."""
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(path: Path, data: dict) -> dict:
    """Check every key; fill defaults.  Returns the full rules dict."""
    data = _apply_options(path, data)
    out: dict[str, Any] = {}
    for key in data:
        if key not in SCHEMA[""] and key not in SCHEMA:
            raise VariantError(
                f"{path}: unknown key {key!r}; allowed top-level keys: "
                + ", ".join(sorted(set(SCHEMA[""]) | set(SCHEMA) - {""}))
            )
    for section, keys in SCHEMA.items():
        src = data if section == "" else data.get(section, {})
        if section and not isinstance(src, dict):
            raise VariantError(f"{path}: [{section}] must be a table")
        if section:
            for k in src:
                if k not in keys:
                    raise VariantError(
                        f"{path}: unknown key '{section}.{k}'; allowed: {', '.join(sorted(keys))}"
                    )
        dest = out if section == "" else out.setdefault(section, {})
        for k, (check, allowed, default) in keys.items():
            if section == "" and k in SCHEMA:
                continue
            full = f"{section}.{k}" if section else k
            if k in src:
                v = src[k]
                if not check(v):
                    raise VariantError(f"{path}: key '{full}' = {_shown_value(v)} is not allowed; expected {allowed}")
                if (section, k) in _TABLE_SECTIONS:
                    lo, hi = SCORE_TABLE_RANGES[k]
                    for pid, val in v.items():
                        if not _is_number(val, lo, hi):
                            raise VariantError(
                                f"{path}: key '{full}.{pid}' = {_shown_value(val)} is not allowed; "
                                f"expected a number from {lo} to {hi}"
                            )
                dest[k] = copy.deepcopy(v)
            elif default is _REQUIRED:
                raise VariantError(f"{path}: missing key '{full}' ({allowed})")
            elif default is not None:
                dest[k] = copy.deepcopy(default)
    lo, hi = out["tiles"]["ranks"]
    if lo > hi:
        raise VariantError(f"{path}: key 'tiles.ranks' = {[lo, hi]!r}: the first rank must not exceed the last")
    _check_cross_keys(path, out)
    total = _tile_total(out)
    if out["wall"]["stacks"] == "even":
        per_seat, left = divmod(total, 4 * out["wall"]["height"])
        if left or not 1 <= per_seat <= 40:
            raise VariantError(
                f"{path}: key 'wall.stacks' = 'even': {total} tiles do not make four equal walls of "
                f"stacks {out['wall']['height']} high; give the four widths as a list")
    wall_tiles = sum(_stacks_of(out)) * out["wall"]["height"]
    if wall_tiles != total:
        raise VariantError(
            f"{path}: key 'wall.stacks' = {out['wall']['stacks']} holds {wall_tiles} tiles but the tile set has "
            f"{total}; the stacks must hold every tile"
        )
    if out["wall"]["bloom_tiles"] > out["wall"]["dead_wall"]:
        raise VariantError(f"{path}: key 'wall.bloom_tiles' must not exceed 'wall.dead_wall'")
    if out["wall"]["tail"] == "dead_wall" and out["wall"]["dead_wall"] == 0:
        raise VariantError(f"{path}: key 'wall.tail' = 'dead_wall' needs 'wall.dead_wall' > 0")
    _check_deal_fits(path, out, total)
    _check_hand_value(path, out)
    from .scoring import known_pattern_ids  # late import: scoring imports variant
    from .scoring.patterns import check_patterns

    try:
        check_patterns(str(path), out["scoring"])
    except ValueError as e:
        raise VariantError(str(e)) from None
    known = known_pattern_ids(out["scoring"]["scheme"], out["scoring"])
    named = [(f"scoring.{table}", pid) for table in SCORE_TABLES for pid in out["scoring"][table]]
    named += [("settlement.liability", pid) for pid in out["settlement"]["liability"]]
    for table, pid in named:
        if pid not in known:
            raise VariantError(
                f"{path}: key '{table}.{pid}': no pattern detector is named {pid!r} for scheme "
                f"{out['scoring']['scheme']!r}; known ids: {', '.join(sorted(known))}"
            )
    for pid, rule in out["settlement"]["liability"].items():
        if not isinstance(rule, str) or not LIABILITY_RULE.match(rule):
            raise VariantError(
                f"{path}: key 'settlement.liability.{pid}' = {rule!r} is not allowed; expected {LIABILITY_RULES_TEXT}"
            )
    return out


def _check_cross_keys(path: Path, out: dict) -> None:
    """Checks across keys: the zero rank, suit ranks, meld sets, forms that rob kongs,
    indicators, fourteen orphans."""
    t = out["tiles"]
    lo, hi = t["ranks"]
    for suit, ranks in t["suit_ranks"].items():
        if suit not in t["suits"] or any(not lo <= r <= hi for r in ranks):
            raise VariantError(
                f"{path}: key 'tiles.suit_ranks.{suit}' = {ranks!r} is not allowed; expected a suit of "
                f"'tiles.suits' ({', '.join(t['suits'])}) and ranks within 'tiles.ranks' {[lo, hi]}")
    if t["zero_rank"] and ("Z" not in t["honours"] or lo < 1):
        raise VariantError(f"{path}: key 'tiles.zero_rank' = true needs 'Z' among 'tiles.honours' and "
                           f"'tiles.ranks' starting at 1 or above (rank 0 is the zero tile's reading)")
    for kind in out["melds"]["sets"]:
        if kind in ("pung", "kong", "pair", out["melds"]["sequence"]):
            raise VariantError(f"{path}: key 'melds.sets.{kind}': {kind!r} is a meld kind of its own; "
                               f"name the sets otherwise (e.g. 'gem', 'power')")
    for form in out["claims"]["rob_kong_forms"]:
        if form not in out["win"]["forms"]:
            raise VariantError(f"{path}: key 'claims.rob_kong_forms' lists {form!r}, which is not in "
                               f"'win.forms' ({', '.join(out['win']['forms'])})")
    w = out["wall"]
    if (w["indicators"] or w["kong_indicator"]) and (w["tail"] != "live_wall" or w["indicators"] > w["dead_wall"]):
        raise VariantError(f"{path}: keys 'wall.indicators' / 'wall.kong_indicator' need a dead wall that is "
                           f"never drawn ('wall.tail' = 'live_wall') holding at least 'wall.indicators' tiles")
    if "fourteen_orphans" in out["win"]["forms"] and not t["zero_rank"]:
        raise VariantError(f"{path}: key 'win.forms': 'fourteen_orphans' needs the zero tile "
                           f"('tiles.zero_rank' = true): it is the fourteenth orphan")


#: tiles dealt: 13 to each seat and a 14th to the dealer (``deal.dealer_tiles``)
DEALT_TILES = 4 * 13 + 1


def _check_deal_fits(path: Path, out: dict, total: int) -> None:
    """The live wall (every tile less ``wall.dead_wall`` and ``wall.reserve``) must hold the
    deal, a replacement for every bonus tile the deal may bring, and one tile to draw."""
    w = out["wall"]
    bonus = len(out["tiles"]["bonus"])
    needed = DEALT_TILES + bonus + 1
    live = total - w["dead_wall"] - w["reserve"]
    if live < needed:
        raise VariantError(
            f"{path}: the tile set is too small to deal: {total} tiles less 'wall.dead_wall' ({w['dead_wall']}) "
            f"and 'wall.reserve' ({w['reserve']}) leave {live}; the deal needs {needed} (13 to each seat, "
            f"one more to the dealer, a replacement for each of the {bonus} bonus tiles, and one to draw)")


def _check_hand_value(path: Path, out: dict) -> None:
    """``settlement.hand_value = "doubling"`` pays ``base`` × 2^(value − 1): the value must be
    capped (``scoring.limit`` from 1 to :data:`MAX_DOUBLING_LIMIT`), and by ``scoring.limit``
    (``fan_ladder`` pays ladder points, which the limit does not cap)."""
    if out["settlement"]["hand_value"] != "doubling":
        return
    limit, scheme = out["scoring"]["limit"], out["scoring"]["scheme"]
    if not 1 <= limit <= MAX_DOUBLING_LIMIT or scheme == "fan_ladder":
        raise VariantError(
            f"{path}: key 'settlement.hand_value' = 'doubling' (a hand is worth base x 2^(value - 1)) needs "
            f"'scoring.limit' from 1 to {MAX_DOUBLING_LIMIT} and a scheme other than 'fan_ladder'; "
            f"this file has limit {_num_text(limit)}, scheme {scheme!r}")


def _stacks_of(rules: Mapping) -> tuple[int, ...]:
    """``wall.stacks`` with ``"even"`` (every wall the same width, seed 002's width table)
    resolved."""
    stacks = rules["wall"]["stacks"]
    if stacks == "even":
        return (_tile_total(rules) // (4 * rules["wall"]["height"]),) * 4
    return tuple(stacks)


def _suit_ranks(rules: Mapping) -> dict[str, tuple[int, ...]]:
    """Ranks held by each suit: ``tiles.ranks`` unless ``tiles.suit_ranks`` names fewer."""
    t = rules["tiles"]
    lo, hi = t["ranks"]
    extra = t.get("suit_ranks", {})
    return {s: tuple(sorted(extra[s])) if s in extra else tuple(range(lo, hi + 1)) for s in t["suits"]}


def _tile_total(rules: dict) -> int:
    t = rules["tiles"]
    numbers = sum(len(r) for r in _suit_ranks(rules).values())
    return (numbers + len(t["honours"])) * t["copies"] + len(t["bonus"])


def _freeze(obj: Any) -> Any:
    if isinstance(obj, dict):
        return MappingProxyType({k: _freeze(v) for k, v in obj.items()})
    if isinstance(obj, list):
        return tuple(_freeze(v) for v in obj)
    return obj


@dataclass(frozen=True)
class Variant:
    """A validated variant.

    - ``id``, ``name``, ``summary``, ``seed`` (the seed file it implements), ``path``;
    - ``rules``: the merged, validated rules (read-only mapping of sections → keys);
    - ``rules_hash``: 16 hex digits identifying the rules (not the names).

    Sections are reachable as attributes returning read-only mappings: ``variant.wall['reserve']``.
    """

    id: str
    name: str
    summary: str
    seed: str
    path: str
    rules: Mapping[str, Any]
    rules_hash: str
    #: the overrides :meth:`with_options` applied on top of the file (named options by their
    #: name, ``flowers``; other keys as ``SECTION.KEY``), in the order given; empty for the
    #: variant as its file has it.  A game log and a LAN table carry them, so that the same
    #: variant can be rebuilt (``load_variant(ref, options=...)``).
    applied_options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: the named options the variant's file (or a file it extends) sets in ``[options]``: the
    #: ones a player is offered (the menu), in the file's order.
    declared_options: tuple[str, ...] = ()

    # convenient section access -------------------------------------------------------
    @property
    def tiles_rules(self) -> Mapping[str, Any]:
        return self.rules["tiles"]

    @property
    def wall(self) -> Mapping[str, Any]:
        return self.rules["wall"]

    @property
    def deal(self) -> Mapping[str, Any]:
        return self.rules["deal"]

    @property
    def claims(self) -> Mapping[str, Any]:
        return self.rules["claims"]

    @property
    def win(self) -> Mapping[str, Any]:
        return self.rules["win"]

    @property
    def scoring(self) -> Mapping[str, Any]:
        return self.rules["scoring"]

    @property
    def settlement(self) -> Mapping[str, Any]:
        return self.rules["settlement"]

    @property
    def match(self) -> Mapping[str, Any]:
        return self.rules["match"]

    @property
    def instant_payments(self) -> Mapping[str, Any]:
        """``[instant_payments]``: payment id → amount each other player pays (in units of
        ``scoring.base``); empty when the variant has none (singapore.md "Settlement")."""
        return self.rules["instant_payments"]

    # derived ---------------------------------------------------------------------------
    @cached_property
    def suit_indices(self) -> tuple[int, ...]:
        return tuple(T.SUIT_LETTERS.index(s) for s in self.tiles_rules["suits"])

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Every playing tile kind (no bonus tiles), sorted."""
        out = [T.SUIT_LETTERS.index(s) * T.SUIT_SIZE + r for s, ranks in _suit_ranks(self.rules).items()
               for r in ranks]
        out += [T.parse_tile(h) for h in self.tiles_rules["honours"]]
        return tuple(sorted(out))

    @cached_property
    def bonus_kinds(self) -> tuple[int, ...]:
        return tuple(sorted(T.parse_tile(b) for b in self.tiles_rules["bonus"]))

    @cached_property
    def copies(self) -> int:
        return int(self.tiles_rules["copies"])

    def copies_of(self, t: int) -> int:
        """Physical copies of tile ``t`` in this variant (0 if unused)."""
        if t in self.bonus_kinds:
            return 1
        return self.copies if t in self._kind_set else 0

    @cached_property
    def _kind_set(self) -> frozenset[int]:
        return frozenset(self.kinds)

    @cached_property
    def tile_count(self) -> int:
        """Total tiles in the set (e.g. 144 for Classic)."""
        return len(self.kinds) * self.copies + len(self.bonus_kinds)

    def all_tiles(self) -> list[int]:
        """The physical tiles, sorted (kind × copies + one of each bonus tile)."""
        out = [k for k in self.kinds for _ in range(self.copies)]
        return out + list(self.bonus_kinds)

    @cached_property
    def stacks(self) -> tuple[int, ...]:
        """Stacks in front of each seat from the dealer (``wall.stacks``, "even" resolved)."""
        return _stacks_of(self.rules)

    @property
    def melds(self) -> Mapping[str, Any]:
        return self.rules["melds"]

    @property
    def options(self) -> Mapping[str, Any]:
        return self.rules["options"]

    @cached_property
    def zero(self) -> int | None:
        """The zero tile's code when it may be read as rank 0 of a suit (``tiles.zero_rank``,
        Uzje G-UZ-11), else None."""
        return T.ZERO if self.tiles_rules["zero_rank"] else None

    @cached_property
    def meld_templates(self):
        """The sequence-like meld templates of ``[melds]`` (common.md "Melds" chow; uzje.md "Melds and winning hands" ariths of
        every step, gems, powers) as :class:`~mahjong_tui.hand.MeldTemplate` objects.  With the zero
        rank, sequences and sets may start at rank 0."""
        from .hand import MeldTemplate

        lo, hi = self.tiles_rules["ranks"]
        first = 0 if self.zero is not None else lo
        out = [MeldTemplate.sequence(self.melds["sequence"], d, first, hi) for d in self.melds["steps"]
               if first + 2 * d <= hi]
        out += [MeldTemplate.fixed(kind, sets) for kind, sets in self.melds["sets"].items()]
        return tuple(out)

    @cached_property
    def orphan_tiles(self) -> tuple[int, ...]:
        """The 13 tiles of thirteen orphans: rank 1 (or the lowest) and the top rank of each
        suit and every honour but the zero; a compressed wind stands for two winds and is
        needed twice (uzje.md "Melds and winning hands")."""
        lo, hi = self.tiles_rules["ranks"]
        out = [k for k in self.kinds if T.is_suited(k) and T.rank_of(k) in (max(lo, 1), hi)]
        for h in self.tiles_rules["honours"]:
            code = T.parse_tile(h)
            if code != self.zero:
                out += [code, code] if code in (T.WIND_H, T.WIND_V) else [code]
        return tuple(sorted(out))

    @cached_property
    def hand_shape(self):
        """The :class:`~mahjong_tui.hand.HandShape` for this variant's tiles, melds and win
        forms (a :class:`~mahjong_tui.hand.ZeroShape` with the zero rank)."""
        from .hand import HandShape, ZeroShape

        lo, hi = self.tiles_rules["ranks"]
        args = dict(
            templates=self.meld_templates,
            suits=self.suit_indices,
            ranks=(lo, hi),
            honours=tuple(T.parse_tile(h) for h in self.tiles_rules["honours"]),
            forms=tuple(self.win["forms"]),
            seven_pairs_allow_quads=bool(self.win["seven_pairs_allow_quads"]),
            orphans=self.orphan_tiles,
            tile_set=self.kinds,
        )
        if self.zero is None:
            return HandShape(**args)
        fourteen = self.orphan_tiles + (self.zero,) if "fourteen_orphans" in self.win["forms"] else None
        return ZeroShape(zero=self.zero, fourteen_orphans=fourteen, **args)

    def physical(self, t: int) -> int:
        """The tile kind a code stands for: rank 0 of a suit is the zero tile (common.md "Tile notation")."""
        return self.zero if self.zero is not None and T.is_suited(t) and T.rank_of(t) == 0 else t

    def pattern_value(self, pid: str) -> float | None:
        """Value of pattern ``pid`` in whichever scoring table holds it, or None."""
        for table in SCORE_TABLES:
            tbl = self.scoring[table]
            if pid in tbl:
                return tbl[pid]
        return None

    def with_options(self, overrides: Mapping[str, Any]) -> "Variant":
        """A copy with ``section.key = value`` overrides applied and re-validated; a key
        without a section is a named option of ``[options]`` (``flowers``, …, uzje.md "Tiles", "Setting up").
        The copy's :attr:`applied_options` are this variant's followed by ``overrides``
        (``options.flowers`` is recorded as ``flowers``).

        Raises :class:`VariantError` for an unknown key or a bad value, saying what is allowed.
        """
        data = json.loads(json.dumps(_thaw(self.rules)))
        data["id"], data["name"] = self.id, self.name
        for key in ("summary", "seed"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        # the validated rules hold every option at its default; an option the file does not
        # declare and nobody set must stay absent, or rebuilding would apply it (a default
        # break_roll "3d6" turned Yuxi's two dice into three)
        opts = data.get("options")
        if isinstance(opts, dict):
            for name in list(opts):
                if name not in self.declared_options and name not in self.applied_options:
                    del opts[name]
        applied = dict(self.applied_options)
        for dotted, value in overrides.items():
            _check_option_shape(dotted, value)
            bare = dotted.removeprefix("options.")
            if ("." not in dotted or dotted.startswith("options.")) and bare not in self.declared_options:
                dotted = self._option_key(bare)
            if "." not in dotted or dotted.startswith("options."):
                name = dotted.removeprefix("options.")
                check, allowed, _ = SCHEMA["options"][name]
                if not check(value):
                    raise VariantError(f"option {name}={_shown_text(option_text(value))} is not allowed; "
                                       f"expected {allowed}")
                applied.pop(name, None)
                applied[name] = value
                dotted = f"options.{name}"   # a named option: ``flowers=true``
            else:
                applied.pop(dotted, None)
                applied[dotted] = value
            parts = dotted.split(".")
            node = data
            for p in parts[:-1]:
                if not isinstance(node.get(p), dict):
                    raise VariantError(f"option {dotted!r}: no section {p!r}; sections: {', '.join(s for s in SCHEMA if s)}")
                node = node[p]
            node[parts[-1]] = value
        try:
            return _build(Path(self.path), data, declared=self.declared_options, applied=applied)
        except VariantError as exc:
            given = _shown_text(" ".join(option_assignments(overrides)), 200)
            raise VariantError(f"{self.id} with {given}: {exc}") from None

    def _option_key(self, name: str) -> str:
        """The ``SECTION.KEY`` that a bare option ``name`` this variant does not offer as a named
        option stands for: the one section of its file holding that key (Singapore
        ``shooter_pays_all`` = ``settlement.shooter_pays_all``, singapore.md "Settlement").  Raises
        :class:`VariantError` naming this variant's own options when there is none, or when
        several sections hold the key."""
        sections = [sec for sec in SCHEMA if sec and sec != "options" and name in SCHEMA[sec]
                    and isinstance(self.rules.get(sec), Mapping)]
        if len(sections) == 1:
            return f"{sections[0]}.{name}"
        if len(sections) > 1:
            raise VariantError(f"option {name!r} is a key of several sections of {self.id}: write "
                               + " or ".join(f"{sec}.{name}" for sec in sections))
        offered = (f"its named options: {', '.join(self.declared_options)}" if self.declared_options
                   else "it has no named options")
        raise VariantError(f"option {name!r}: {self.id} has no such option; {offered}; any SECTION.KEY "
                           f"of its file may be set too, e.g. settlement.mode=... (variants/README.md)")

    def check_hand(self, concealed, melds=(), bonus=()) -> None:
        """Raise :class:`HandError` unless every tile exists in this variant and no kind
        is used more often than it has copies (a rank-0 code counts as the zero tile)."""
        counts: dict[int, int] = {}
        for t in list(concealed) + [x for m in melds for x in m] + list(bonus):
            t = self.physical(t)
            if self.copies_of(t) == 0:
                raise HandError(f"tile {T.name(t)} is not used in the {self.name} variant")
            counts[t] = counts.get(t, 0) + 1
        for t, n in counts.items():
            if n > self.copies_of(t):
                raise HandError(f"{n} copies of {T.name(t)}, but the set has only {self.copies_of(t)}")


def _thaw(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _thaw(v) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return [_thaw(v) for v in obj]
    return obj


def _hashed_rules(rules: dict) -> dict:
    """The rules that enter the rules hash: every section, less the keys of
    :data:`_LATER_KEYS` that hold their default, less ``scoring.patterns`` (how a pattern is
    detected, not what it is worth: a pattern scores only with a value, in a value table or its
    own ``value``; the patterns that carry their own value are hashed), less the sections that
    leaves empty."""
    hashed = {}
    for section, keys in rules.items():
        if section == "ai":
            continue
        part = {k: v for k, v in keys.items() if not ((section, k) in _LATER_KEYS and v == SCHEMA[section][k][2])
                and (section, k) != ("scoring", "patterns")}
        valued = {pid: spec for pid, spec in keys.get("patterns", {}).items() if "value" in spec}
        if section == "scoring" and valued:
            part["patterns"] = valued
        if part:
            hashed[section] = part
    return hashed


def _build(path: Path, data: dict, *, declared: tuple[str, ...] | None = None,
           applied: Mapping[str, Any] | None = None) -> Variant:
    """Validate ``data`` (a variant file, ``extends`` resolved) into a :class:`Variant`.
    ``declared``: the named options offered (default: the keys of the file's ``[options]``);
    ``applied``: the overrides that made ``data`` (:meth:`Variant.with_options`)."""
    if declared is None:
        opts = data.get("options")
        declared = tuple(k for k in opts if k in SCHEMA["options"]) if isinstance(opts, dict) else ()
    rules = _validate(path, data)
    kept = {k: v for k, v in rules.items() if k in SCHEMA and k != ""}
    canonical = json.dumps(_hashed_rules(kept), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    return Variant(
        id=rules["id"], name=rules["name"], summary=rules.get("summary", ""), seed=rules.get("seed", ""),
        path=str(path), rules=_freeze(kept), rules_hash=digest,
        applied_options=MappingProxyType(dict(applied or {})), declared_options=tuple(declared),
    )


def option_text(value: Any) -> str:
    """An option's ``value`` as ``--option KEY=VALUE`` writes it (``true``, ``hidden``,
    ``2.5``); :func:`parse_option_assignments` reads it back as the same value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def option_assignments(options: Mapping[str, Any]) -> list[str]:
    """``KEY=VALUE`` for each option of ``options``, as ``--option`` takes them
    (``["flowers=true"]``); :func:`parse_option_assignments` reads them back."""
    return [f"{k}={option_text(v)}" for k, v in options.items()]


def option_values(name: str) -> tuple[Any, ...]:
    """The values named option ``name`` may take: ``(False, True)`` for a switch, the
    allowed strings of a one-of option (``("known", "hidden")``); ``()`` for an unknown name."""
    if name not in SCHEMA["options"]:
        return ()
    check = SCHEMA["options"][name][0]
    if check is _is_bool:
        return (False, True)
    return tuple(getattr(check, "choices", ()))


def parse_option_assignments(texts: Iterable[str]) -> dict[str, Any]:
    """``["flowers=true", "concealed_quad_mode=hidden"]`` (``--option KEY=VALUE``, repeated)
    as a dict of overrides for :meth:`Variant.with_options`.  A value is read as a TOML value
    (``true``, ``3``, ``2.5``, ``["a"]``) and otherwise kept as the plain string.  Raises
    :class:`VariantError` for an item without ``=`` or without a key."""
    out: dict[str, Any] = {}
    for text in texts:
        key, eq, raw = text.partition("=")
        key = key.strip()
        if not eq or not key:
            raise VariantError(f"--option {text!r}: expected KEY=VALUE, e.g. flowers=true (Uzje) or "
                               f"settlement.mode=classical_zero_sum")
        raw = raw.strip()
        try:
            value = tomllib.loads(f"x = {raw}")["x"]
            json.dumps(value)          # a TOML date is no option value: keep the text
        except (tomllib.TOMLDecodeError, TypeError, ValueError, RecursionError):
            value = raw
        out.pop(key, None)
        out[key] = value
    return out


#: the most an option may hold (:func:`_check_option_shape`): its name's length, how deep its
#: lists and tables go (``melds.sets`` = {kind = [[ranks]]} is 3), and its length as text
MAX_OPTION_NAME = 100
MAX_OPTION_DEPTH = 4
MAX_OPTION_CHARS = 10_000


def _depth(value: Any, limit: int) -> int:
    """How deep the lists and tables of ``value`` go (a scalar: 0), counted up to ``limit + 1``."""
    if limit < 0 or not isinstance(value, (list, tuple, Mapping)):
        return 0
    items = value.values() if isinstance(value, Mapping) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def _check_option_shape(name: Any, value: Any) -> None:
    """Raise :class:`VariantError` for an option no variant key could hold, before anything
    copies it: a name that is not a string of 1 to :data:`MAX_OPTION_NAME` characters, or a
    value nested deeper than :data:`MAX_OPTION_DEPTH` or longer than :data:`MAX_OPTION_CHARS`
    as text (a game log or a LAN message may hold anything)."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_OPTION_NAME:
        raise VariantError(f"option name {_shown_value(name)} is not allowed; expected a name of 1 to "
                           f"{MAX_OPTION_NAME} characters (a named option or SECTION.KEY)")
    if _depth(value, MAX_OPTION_DEPTH) > MAX_OPTION_DEPTH:
        raise VariantError(f"option {name}: its value is nested {MAX_OPTION_DEPTH + 1} or more deep; "
                           f"no variant key holds more than {MAX_OPTION_DEPTH} levels of lists and tables")
    try:
        size = len(json.dumps(value))
    except (TypeError, ValueError):
        raise VariantError(f"option {name}: its value is not a TOML value") from None
    if size > MAX_OPTION_CHARS:
        raise VariantError(f"option {name}: its value is {size} characters long; at most {MAX_OPTION_CHARS}")


def _shown_text(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def check_options(options: Any, what: str) -> dict[str, Any]:
    """``options`` (read from a game log or a LAN message) as a dict of overrides; raises
    :class:`VariantError` naming ``what`` unless it is a map of string keys (or null)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise VariantError(f"{what}: 'options' must be a map of option name = value, got {_shown_value(options)}")
    for name, value in options.items():
        try:
            _check_option_shape(name, value)
        except VariantError as exc:
            raise VariantError(f"{what}: {exc}") from None
    return dict(options)


_CACHE: dict[str, Variant] = {}
_OPTIONED: dict[tuple[str, str], Variant] = {}


def load_variant(ref: str, options: Mapping[str, Any] | None = None) -> Variant:
    """Load a variant by id (``'classic'``) or by path to a TOML file; with ``options``
    (overrides of :meth:`Variant.with_options`, e.g. ``{"flowers": True}``) that variant with
    them applied.

    Raises :class:`VariantError` naming the file, the key and what is allowed when the id is
    unknown, the TOML is broken, a key is unknown, a value is out of range, ``extends``
    cannot be resolved, or an option is unknown or has a bad value.
    """
    path = _locate(ref)
    key = str(path.resolve())
    if key not in _CACHE:
        _CACHE[key] = _build(path, _read(path))
    if not options:
        return _CACHE[key]
    okey = (key, json.dumps(list(options.items())))
    if okey not in _OPTIONED:
        _OPTIONED[okey] = _CACHE[key].with_options(options)
    return _OPTIONED[okey]
