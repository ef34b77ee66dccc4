"""Shipped unit tables for the common number suit: ranks 1–9 whose melds are pungs and chows.

:class:`mahjong_tui.hand.HandShape` answers every shanten question from per-suit *unit tables*
(``table[m * 2 + p]``: the most held tiles ``m`` melds and ``p`` pairs can contain; module
docstring of :mod:`mahjong_tui.hand`).  A table is a pure function of the suit's nine counts, so
for the suit that Classic, Yuxi, Yangzhou and Singapore all play the tables of every possible
key (at most 14 tiles, at most four of a rank: 405,350 keys, 126 distinct tables) are computed
once, here, and shipped as ``assets/tables/chow9.xz`` (17 kB).  A fresh process then looks a
key up instead of searching for it; keys with more than 14 tiles, and every other suit layout
(Ùzje's 17 ranks and arithmetic melds), are still solved as before.

File format (LZMA-compressed): one JSON line ``{"format": 1, "signature": …, "tables": […]}``,
then ``5 ** 9`` bytes, byte ``i`` the index into ``tables`` of the key whose base-5 digits
(rank 1 most significant) spell ``i``, or 255 for a key of more than 14 tiles.  The signature
(:func:`signature`) names the layout the tables belong to; a unit of any other layout never
uses them.

Rebuild after changing how tables are computed: ``python -m mahjong_tui.hand_tables``
(about 10 s); ``tests/test_hand.py`` checks the shipped file against the solver.
"""

from __future__ import annotations

import itertools
import json
import lzma
from pathlib import Path
from typing import TYPE_CHECKING

from .paths import data_dir

if TYPE_CHECKING:  # pragma: no cover
    from .hand import _Suit

FORMAT = 1
SIZE = 9                  # positions (ranks) of the suit
MAX_TILES = 14            # keys of more tiles are not stored
MISSING = 255             # byte of a key not stored
#: base-5 place value of each position (position 0 most significant)
PLACES = tuple(5 ** (SIZE - 1 - j) for j in range(SIZE))

#: what :func:`tables_for` read, by signature (JSON): ``(tables, index)``, or None for no file
_loaded: dict[str, tuple[list[tuple[int, ...]], bytes] | None] = {}


def path() -> Path:
    """Where the shipped tables live (``assets/tables/chow9.xz``)."""
    return data_dir("assets") / "tables" / "chow9.xz"


def signature(unit: "_Suit") -> list:
    """What a table depends on besides the key: the number of positions, which kinds exist,
    and the meld shapes (position triples and their kinds), as JSON-friendly lists."""
    return [len(unit.codes), [bool(a) for a in unit.available],
            sorted([list(shape), list(kinds)] for shape, kinds in unit.shapes.items())]


def build(unit: "_Suit") -> bytes:
    """The file's contents for ``unit``'s layout (computes every table: ~10 s).  Raises
    ValueError for a unit of another number of positions."""
    if len(unit.codes) != SIZE:
        raise ValueError(f"shipped tables are for {SIZE}-rank suits, not {len(unit.codes)}")
    ids: dict[tuple[int, ...], int] = {}
    out = bytearray(5 ** SIZE)
    for index, key in enumerate(itertools.product(range(5), repeat=SIZE)):
        if sum(key) > MAX_TILES:
            out[index] = MISSING
            continue
        out[index] = ids.setdefault(unit.solve_table(key), len(ids))
    if len(ids) >= MISSING:
        raise ValueError(f"{len(ids)} distinct tables do not fit in a byte")
    head = json.dumps({"format": FORMAT, "signature": signature(unit), "tables": [list(t) for t in ids]})
    return lzma.compress(head.encode() + b"\n" + bytes(out))


def tables_for(unit: "_Suit") -> tuple[list[tuple[int, ...]], bytes] | None:
    """``(tables, index)`` from the shipped file when it was built for ``unit``'s layout, else
    None (another layout, or no file shipped).  Read once per process."""
    sig = signature(unit)
    key = json.dumps(sig)
    if key not in _loaded:
        _loaded[key] = None
        try:
            head, _, index = lzma.decompress(path().read_bytes()).partition(b"\n")
            meta = json.loads(head)
        except (OSError, lzma.LZMAError, ValueError):
            return None
        if (isinstance(meta, dict) and meta.get("format") == FORMAT and meta.get("signature") == sig
                and len(index) == 5 ** SIZE):
            _loaded[key] = ([tuple(t) for t in meta["tables"]], index)
    return _loaded[key]


def main() -> None:
    """Rebuild the shipped file from the Classic variant's number suit."""
    from .variant import load_variant

    unit = load_variant("classic").hand_shape._units[0][2]
    data = build(unit)
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    print(f"wrote {target} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
