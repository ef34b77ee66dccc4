"""Shared test helpers: random-policy play, invariant checks."""

from __future__ import annotations

import random

from mahjong_tui import tiles as T
from mahjong_tui.engine import Table


def check_invariants(table: Table) -> None:
    """Tile conservation and legal hand sizes (GAPS §0; seed 003 "13 tiles should always be
    maintained")."""
    assert sorted(table.all_tiles_accounted()) == sorted(table.variant.all_tiles())
    if table.phase == "match_over":
        return
    for s in range(4):
        n = table.tile_count(s)
        if table.phase in ("turn", "after_kong") and s == table.current:
            # the player to act holds 14 (13 right after a kong, before its replacement)
            assert n in (13, 14) if table.phase == "after_kong" else n == 14, (s, n, table.phase)
        elif table.phase == "rob" and s == table.current:
            assert n == 14
        else:
            assert n == 13, (s, n, table.phase)
        assert not any(table.hands[s][b] for b in table.variant.bonus_kinds) or not table.variant.deal["bonus_replacement"]


def play_random(table: Table, rng: random.Random, max_actions: int = 100_000, check=None) -> None:
    """Apply uniformly random legal actions (favouring wins a little so hands end) until the
    match is over.  Every applied action comes from ``legal_actions``."""
    for _ in range(max_actions):
        if table.phase == "match_over":
            return
        seat = table.waiting_for()[0]
        legal = table.legal_actions(seat)
        assert legal, f"seat {seat} is waited for but has no legal action"
        wins = [a for a in legal if a.kind == "win"]
        action = wins[0] if wins and rng.random() < 0.7 else rng.choice(legal)
        table.apply(action)
        if check is not None:
            check(table)
    raise AssertionError("match did not end")


def set_hand(table: Table, seat: int, text: str) -> None:
    """Test-only rigging: give ``seat`` exactly these concealed tiles.  (Tile conservation is
    not checked by tests that rig hands.)"""
    table.hands[seat] = [0] * T.NUM_KINDS
    for t in T.parse_tiles(text):
        table.hands[seat][t] += 1
    table.invalidate_caches()
