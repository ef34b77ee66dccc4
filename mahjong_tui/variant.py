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
from typing import Any, Callable, Mapping

from . import tiles as T
from .errors import HandError, VariantError
from .paths import data_dir

# --------------------------------------------------------------------------------------
# Schema: section -> key -> (type check, description of what is allowed, default)
# --------------------------------------------------------------------------------------

_REQUIRED = object()


def _one_of(*choices: str) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, str) and v in choices), "one of " + ", ".join(repr(c) for c in choices)


def _int(lo: int = 0, hi: int = 10**9) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi), f"an integer {lo}..{hi}"


def _num(lo: float = 0) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= lo), f"a number >= {lo}"


_BOOL = ((lambda v: isinstance(v, bool)), "true or false")
_STR = ((lambda v: isinstance(v, str) and v != ""), "a non-empty string")


def _str_list(allowed: tuple[str, ...] | None = None) -> tuple[Callable[[Any], bool], str]:
    if allowed is None:
        return (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)), "a list of strings"
    return (
        (lambda v: isinstance(v, list) and all(isinstance(x, str) and x in allowed for x in v)),
        "a list drawn from " + ", ".join(repr(a) for a in allowed),
    )


def _int_list(n: int, lo: int, hi: int) -> tuple[Callable[[Any], bool], str]:
    return (
        (lambda v: isinstance(v, list) and len(v) == n and all(isinstance(x, int) and lo <= x <= hi for x in v)),
        f"a list of {n} integers {lo}..{hi}",
    )


WIN_FORMS = ("standard", "seven_pairs", "thirteen_orphans")
SCHEMES = ("points_doublings", "multiplier", "fan", "tai")
SETTLEMENTS = ("cumulative", "classical_zero_sum", "winner_collects")
#: Wins the engine offers whatever the hand's shape (Singapore, GAPS §3c/§3d).
FLOWER_WINS = ("all_eight_flowers", "robbing_the_eighth")
#: Instant payments the engine knows (GAPS §3e; ``mahjong_tui.scoring.instant``).
INSTANT_PAYMENTS = ("bite_animals", "bite_animals_hidden", "bite_seat_flowers", "bite_seat_flowers_hidden",
                    "bite_complete_group", "bite_all_animals", "kong_exposed", "kong_concealed")
#: Liability (pay-for-all) rules of ``settlement.liability`` (GAPS §3e, §6e).
LIABILITY_RULE = re.compile(r"^(discarder|(meld|dragon_meld|wind_meld):[1-4])$")
LIABILITY_RULES_TEXT = "'discarder', 'meld:N', 'dragon_meld:N' or 'wind_meld:N' (N = 1..4)"

SCHEMA: dict[str, dict[str, tuple[Callable[[Any], bool], str, Any]]] = {
    "": {
        "id": (*_STR, _REQUIRED),
        "name": (*_STR, _REQUIRED),
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
    },
    "wall": {
        "stacks": (*_int_list(4, 1, 40), _REQUIRED),
        "height": (*_int(2, 2), 2),
        "dice": (*_int(1, 3), 2),
        "break": (*_one_of("generic"), "generic"),
        "tail": (*_one_of("loose_tiles", "dead_wall", "live_wall"), "live_wall"),
        "dead_wall": (*_int(0, 40), 0),
        "bloom_tiles": (*_int(0, 4), 0),
        "reserve": (*_int(0, 40), 0),
    },
    "deal": {
        "first_dealer": (*_one_of("random", "highest_roll"), "random"),
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
    },
    "win": {
        "forms": (*_str_list(WIN_FORMS), ["standard"]),
        "minimum": (*_num(0), 0),
        "self_draw_only_patterns": (*_str_list(), []),
        "seven_pairs_allow_quads": (*_BOOL, False),
        "flower_wins": (*_str_list(FLOWER_WINS), []),
    },
    "scoring": {
        "scheme": (*_one_of(*SCHEMES), _REQUIRED),
        "unit": (*_one_of("points", "multiplier", "fan", "tai"), _REQUIRED),
        "limit": (*_num(0), 0),
        "score_losers": (*_BOOL, False),
        "base": (*_num(0), 1),
        "exclusions": ((lambda v: isinstance(v, list) and all(isinstance(f, list) and all(isinstance(x, str) for x in f) for f in v)),
                       "a list of lists of pattern ids", []),
        "points": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
        "doublings": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
        "special": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
        "multipliers": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
        "fan": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
        "tai": ((lambda v: isinstance(v, dict)), "a table of pattern id = number", {}),
    },
    "settlement": {
        "mode": (*_one_of(*SETTLEMENTS), "cumulative"),
        "east_pays_double": (*_BOOL, False),
        "self_draw_each": (*_num(0), 1),
        "discarder": (*_num(0), 1),
        "discard_others": (*_num(0), 0),
        "robbed_pays_as_discarder": (*_BOOL, True),
        "liability_patterns": (*_str_list(), []),
        "liability_meld": (*_int(0, 4), 0),
        "liability": ((lambda v: isinstance(v, dict)), "a table of pattern id = liability rule", {}),
        "hand_value": (*_one_of("linear", "doubling"), "linear"),
        "shooter_pays_all": (*_BOOL, False),
    },
    "match": {
        "hands": (*_int(1, 1000), 16),
        "rounds": (*_int(0, 16), 0),
        "start_score": (*_num(-10**9), 0),
        "prevailing_wind": (*_one_of("every_hand", "dealer_cycle"), "dealer_cycle"),
        "dealer_stays_on": (*_str_list(("dealer_win", "draw")), ["dealer_win", "draw"]),
        "new_dealer": (*_one_of("next", "winner"), "next"),
    },
    # amounts in units of ``scoring.base``, paid by each of the other three players (GAPS §3e)
    "instant_payments": {pid: (*_num(0), None) for pid in INSTANT_PAYMENTS},
}

#: Keys added after variant files and game logs already existed: left out of the rules hash
#: while they hold their default, so an older file keeps its hash (and its saved games replay).
#: ``(section, None)`` stands for a whole section that is empty.
_HASH_OMIT_AT_DEFAULT = (
    ("win", "flower_wins"), ("settlement", "liability"), ("settlement", "hand_value"),
    ("settlement", "shooter_pays_all"), ("instant_payments", None),
)

_TABLE_SECTIONS = {("scoring", k) for k in ("points", "doublings", "special", "multipliers", "fan", "tai")}


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


def _locate(ref: str, relative_to: Path | None = None) -> Path:
    p = Path(ref)
    if ref.endswith(".toml") or "/" in ref or "\\" in ref:
        if not p.is_absolute() and relative_to is not None and (relative_to / p).exists():
            p = relative_to / p
        if not p.exists():
            raise VariantError(f"variant file {ref!r} does not exist")
        return p
    cand = variants_dir() / f"{ref}.toml"
    if relative_to is not None and (relative_to / f"{ref}.toml").exists():
        cand = relative_to / f"{ref}.toml"
    if not cand.exists():
        raise VariantError(
            f"unknown variant {ref!r}; known variants: {', '.join(available_variants())} (or a path to a .toml file)"
        )
    return cand


def _read(path: Path, chain: tuple[Path, ...] = ()) -> dict:
    if path.resolve() in chain:
        raise VariantError(f"{path}: 'extends' makes a cycle: {' -> '.join(str(c) for c in chain + (path,))}")
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise VariantError(f"{path}: cannot be read: {exc.strerror}") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise VariantError(f"{path}: key 'extends' must be a variant id or path (a string)")
    base = _read(_locate(parent, path.parent), chain + (path.resolve(),))
    return _merge(base, data)


def _validate(path: Path, data: dict) -> dict:
    """Check every key; fill defaults.  Returns the full rules dict."""
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
                    raise VariantError(f"{path}: key '{full}' = {v!r} is not allowed; expected {allowed}")
                if (section, k) in _TABLE_SECTIONS:
                    for pid, val in v.items():
                        if isinstance(val, bool) or not isinstance(val, (int, float)):
                            raise VariantError(
                                f"{path}: key '{full}.{pid}' = {val!r} is not allowed; expected a number"
                            )
                dest[k] = copy.deepcopy(v)
            elif default is _REQUIRED:
                raise VariantError(f"{path}: missing key '{full}' ({allowed})")
            elif default is not None:
                dest[k] = copy.deepcopy(default)
    lo, hi = out["tiles"]["ranks"]
    if lo > hi:
        raise VariantError(f"{path}: key 'tiles.ranks' = {[lo, hi]!r}: the first rank must not exceed the last")
    total = _tile_total(out)
    wall_tiles = sum(out["wall"]["stacks"]) * out["wall"]["height"]
    if wall_tiles != total:
        raise VariantError(
            f"{path}: key 'wall.stacks' = {out['wall']['stacks']} holds {wall_tiles} tiles but the tile set has "
            f"{total}; the stacks must hold every tile"
        )
    if out["wall"]["bloom_tiles"] > out["wall"]["dead_wall"]:
        raise VariantError(f"{path}: key 'wall.bloom_tiles' must not exceed 'wall.dead_wall'")
    if out["wall"]["tail"] == "dead_wall" and out["wall"]["dead_wall"] == 0:
        raise VariantError(f"{path}: key 'wall.tail' = 'dead_wall' needs 'wall.dead_wall' > 0")
    from .scoring import known_pattern_ids  # late import: scoring imports variant

    known = known_pattern_ids(out["scoring"]["scheme"])
    for table in ("points", "doublings", "special", "multipliers", "fan", "tai"):
        for pid in out["scoring"][table]:
            if pid not in known:
                raise VariantError(
                    f"{path}: key 'scoring.{table}.{pid}': no pattern detector is named {pid!r} for scheme "
                    f"{out['scoring']['scheme']!r}; known ids: {', '.join(sorted(known))}"
                )
    for pid, rule in out["settlement"]["liability"].items():
        if pid not in known:
            raise VariantError(
                f"{path}: key 'settlement.liability.{pid}': no pattern detector is named {pid!r} for scheme "
                f"{out['scoring']['scheme']!r}; known ids: {', '.join(sorted(known))}"
            )
        if not isinstance(rule, str) or not LIABILITY_RULE.match(rule):
            raise VariantError(
                f"{path}: key 'settlement.liability.{pid}' = {rule!r} is not allowed; expected {LIABILITY_RULES_TEXT}"
            )
    if out["win"]["flower_wins"] and not {T.parse_tile(b) for b in "hijkopqr"} <= {
            T.parse_tile(b) for b in out["tiles"]["bonus"]}:
        raise VariantError(
            f"{path}: key 'win.flower_wins' needs the four seasons and four flowers "
            f"(tiles.bonus must hold h i j k o p q r)"
        )
    return out


def _tile_total(rules: dict) -> int:
    t = rules["tiles"]
    lo, hi = t["ranks"]
    return (len(t["suits"]) * (hi - lo + 1) + len(t["honours"])) * t["copies"] + len(t["bonus"])


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
        ``scoring.base``); empty when the variant has none (GAPS §3e)."""
        return self.rules["instant_payments"]

    # derived ---------------------------------------------------------------------------
    @cached_property
    def suit_indices(self) -> tuple[int, ...]:
        return tuple(T.SUIT_LETTERS.index(s) for s in self.tiles_rules["suits"])

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Every playing tile kind (no bonus tiles), sorted."""
        lo, hi = self.tiles_rules["ranks"]
        out = [si * T.SUIT_SIZE + r for si in self.suit_indices for r in range(lo, hi + 1)]
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
    def hand_shape(self):
        """The :class:`~mahjong_tui.hand.HandShape` for this variant's tiles and win forms."""
        from .hand import HandShape, MeldTemplate

        lo, hi = self.tiles_rules["ranks"]
        return HandShape(
            templates=(MeldTemplate.sequence("chow", 1, lo, hi),),
            suits=self.suit_indices,
            ranks=(lo, hi),
            honours=tuple(T.parse_tile(h) for h in self.tiles_rules["honours"]),
            forms=tuple(self.win["forms"]),
            seven_pairs_allow_quads=bool(self.win["seven_pairs_allow_quads"]),
        )

    def pattern_value(self, pid: str) -> float | None:
        """Value of pattern ``pid`` in whichever scoring table holds it, or None."""
        for table in ("special", "points", "doublings", "multipliers", "fan", "tai"):
            tbl = self.scoring[table]
            if pid in tbl:
                return tbl[pid]
        return None

    def with_options(self, overrides: Mapping[str, Any]) -> "Variant":
        """A copy with ``section.key = value`` overrides applied and re-validated.

        Raises :class:`VariantError` for an unknown key or a bad value.
        """
        data = json.loads(json.dumps(_thaw(self.rules)))
        data["id"], data["name"] = self.id, self.name
        for dotted, value in overrides.items():
            parts = dotted.split(".")
            node = data
            for p in parts[:-1]:
                if not isinstance(node.get(p), dict):
                    raise VariantError(f"option {dotted!r}: no section {p!r}; sections: {', '.join(s for s in SCHEMA if s)}")
                node = node[p]
            node[parts[-1]] = value
        return _build(Path(self.path), data)

    def check_hand(self, concealed, melds=(), bonus=()) -> None:
        """Raise :class:`HandError` unless every tile exists in this variant and no kind
        is used more often than it has copies."""
        counts: dict[int, int] = {}
        for t in list(concealed) + [x for m in melds for x in m] + list(bonus):
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
    :data:`_HASH_OMIT_AT_DEFAULT` that hold their default."""
    hashed = copy.deepcopy(rules)
    for section, key in _HASH_OMIT_AT_DEFAULT:
        if key is None:
            if not hashed.get(section):
                hashed.pop(section, None)
        elif hashed[section].get(key) == SCHEMA[section][key][2]:
            del hashed[section][key]
    return hashed


def _build(path: Path, data: dict) -> Variant:
    rules = _validate(path, data)
    hashed = {k: v for k, v in rules.items() if k in SCHEMA and k != ""}
    canonical = json.dumps(_hashed_rules(hashed), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    return Variant(
        id=rules["id"], name=rules["name"], summary=rules.get("summary", ""), seed=rules.get("seed", ""),
        path=str(path), rules=_freeze(hashed), rules_hash=digest,
    )


_CACHE: dict[str, Variant] = {}


def load_variant(ref: str) -> Variant:
    """Load a variant by id (``'classic'``) or by path to a TOML file.

    Raises :class:`VariantError` naming the file, the key and what is allowed when the id is
    unknown, the TOML is broken, a key is unknown, a value is out of range, or ``extends``
    cannot be resolved.
    """
    path = _locate(ref)
    key = str(path.resolve())
    if key not in _CACHE:
        _CACHE[key] = _build(path, _read(path))
    return _CACHE[key]
