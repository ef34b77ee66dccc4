"""Tile face sets: data files in ``assets/faces/``, drawn by ONE renderer.

A face set maps every tile code of :mod:`mahjong_tui.tiles` to a short plain string (its *face*)
plus a rich style.  All faces of a set have exactly the same width in terminal cells
(:attr:`FaceSet.width`), so layout code computes positions from that one number and never
branches on which set is in use (issue "Textual table": "Face sets are data in ``assets/``,
chosen once at start-up behind one renderer").

Shipped sets (see the comments at the top of each file for the reasons behind each width):

=========  ======  ===========================================================================
name       width   faces
=========  ======  ===========================================================================
compact    2 (3)   ``5t 5s 5m``, honours one letter (``E``, ``C``), bonus ``Sp Pl Ca``; coloured
                   by suit.  Default; fits the whole table in 80x24.
cjk        4       ``五萬 ５筒 ５索 東風 紅中 春１``: wide characters only, 2 cells on every terminal
ascii      2 (3)   as compact, pure 7-bit ASCII, no colour (``--ascii``; non-UTF-8 locale)
unicode    2 (3)   the U+1F000 mahjong-tile block; opt-in only (terminals disagree on its width)
=========  ======  ===========================================================================

Boxed sets (``kind = "boxed"``; :class:`BoxFaceSet`, :func:`load_box_set`): a tile is a small
box of 3 lines — a top border, the rank or character, the suit — and a group of tiles is
closed by a line of bottom borders.  ``large`` (4 cells: 五 over 萬, 東 over 風; Uzje's ranks
10-16 as two digits) and ``large-ascii`` (5 cells: 5 over dot, E over wnd; no colour).  Each
names the one-line set that goes with it (``small``).  :func:`choose_faces` picks them: with no
``--faces`` the table boxes the own hand where the terminal has room and the ponds and melds
where it has more (:class:`~mahjong_tui.ui.widgets.areas.TableLayout`); ``--faces large``
forces the boxed hand; ``--faces compact`` (or any one-line set) never boxes.  The cursor's
tile, the tile just drawn, the latest discard and a meld's claimed tile each have their own
border, so they stand out without colour.

(3) = the width used when the variant has ranks above 9 (Uzje): the notation's ``x a-f`` is not
legible as 10-16 and no single cell can show "16" on every terminal, so those sets widen to
three cells (``10s`` .. ``16s``, `` 5s``, `` E ``).  Pass ``max_rank=16`` to get it.

Colour is always a second cue: the loader rejects a set in which two tiles have the same plain
text, so suits, honours and bonus tiles differ by their characters alone.

File format: documented at the top of ``assets/faces/compact.toml``.  Every error in a file
raises :class:`FaceSetError` naming the file and the key.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping

from rich.cells import cell_len
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text

from ..errors import MahjongError
from ..paths import data_dir
from ..tiles import (
    ANIMALS,
    BONUS_CHARS,
    FLOWERS,
    GREEN,
    HONOUR_CHARS,
    NUM_KINDS,
    RED,
    SEASONS,
    SUIT_LETTERS,
    SUIT_SIZE,
    WHITE,
    ZERO,
    is_suited,
    is_wind,
    name as tile_name,
    parse_tile,
    suit_of,
)

__all__ = [
    "CJK_MIN_WIDTH",
    "FaceSet",
    "FaceSetError",
    "TILE_GROUPS",
    "STATE_STYLES",
    "BOX_BORDERS",
    "BOX_ROWS",
    "BoxFaceSet",
    "Faces",
    "auto_box_set_name",
    "auto_face_set_name",
    "choose_faces",
    "is_box_set",
    "load_box_set",
    "available_face_sets",
    "choose_face_set",
    "face_set_path",
    "load_face_set",
    "locale_is_utf8",
    "tile_group",
]

#: Auto-choice threshold (terminal columns) for the CJK set.  The compact layout fits 80
#: columns with a tile pitch of 3 cells (2-cell face + 1-cell gap); CJK faces have a pitch of 5,
#: so the same layout needs about 80 x 5/3 = 134 columns when every row is made of tiles.
#: 140 adds room for borders and labels, which do not grow with the faces.
CJK_MIN_WIDTH = 140

#: Style groups every face-set file must define in ``[styles]``, one per kind of tile.
TILE_GROUPS = ("t", "s", "m", "zero", "wind", "red", "green", "white", "season", "flower", "animal")
#: Style modifiers for tile states, also in ``[styles]``.
STATE_STYLES = ("face_down", "empty", "highlight", "selected", "dim")
#: Optional state styles with their default: ``match`` marks every visible copy of the tile
#: under the cursor (the tile tracker).
OPTIONAL_STATES = {"match": "reverse"}

#: Number faces below this rank are in the base arrays; ranks from here up may come from [wide].
_BASE_RANKS = 10
_WIDE_RANKS = SUIT_SIZE - _BASE_RANKS  # 7: ranks 10..16
_PADS = ("left", "right", "center")
_TOP_KEYS = {
    "name", "description", "width", "colour", "ascii_only", "face_down", "empty",
    "styles", "numbers", "honours", "bonus", "wide",
}
_WIDE_KEYS = {"width", "pad", "face_down", "empty", "numbers"}
_MAX_WIDTH = 8


class FaceSetError(MahjongError):
    """A face set that does not exist, or a face-set file that is invalid.

    The message names the file and the key, says what was wrong and what is allowed.
    """


def tile_group(tile: int) -> str:
    """Style group of a tile code: ``t s m`` (number tiles by suit), ``zero``, ``wind``,
    ``red``, ``green``, ``white``, ``season``, ``flower`` or ``animal``.

    Raises ValueError for a code outside ``0 .. NUM_KINDS-1``.
    """
    if not 0 <= tile < NUM_KINDS:
        raise ValueError(f"no tile has code {tile!r}")
    if is_suited(tile):
        return SUIT_LETTERS[suit_of(tile)]
    if tile == ZERO:
        return "zero"
    if is_wind(tile):
        return "wind"
    if tile == RED:
        return "red"
    if tile == GREEN:
        return "green"
    if tile == WHITE:
        return "white"
    if tile in SEASONS:
        return "season"
    if tile in FLOWERS:
        return "flower"
    assert tile in ANIMALS
    return "animal"


@lru_cache(maxsize=512)
def _style(*parts: str) -> Style:
    """Combine style strings left to right (later ones win); memoised."""
    out = Style.null()
    for part in parts:
        if part:
            out += Style.parse(part)
    return out


def _flag(flag: bool | Collection[int], index: int) -> bool:
    if isinstance(flag, bool):
        return flag
    return index in flag


@dataclass(frozen=True)
class FaceSet:
    """One face set, ready to draw: every face is exactly :attr:`width` terminal cells.

    Fields:

    - ``name``, ``description``: from the file; ``path``: the file it was loaded from;
    - ``width``: cells per face (the same for every tile, face-down tile and empty slot);
    - ``max_rank``: the highest number-tile rank this set was loaded for (9, or 16 for Uzje;
      selects the file's ``[wide]`` section when above 9);
    - ``faces``: plain face text by tile code (``NUM_KINDS`` entries; ``None`` for ranks above
      ``max_rank`` that the file does not draw at this width);
    - ``tile_styles``: rich style string by tile code;
    - ``face_down`` / ``empty``: glyphs for a hidden tile and an empty slot;
    - ``*_style``: style strings of the tile states;
    - ``colour``: False if no style uses colour; ``ascii_only``: True if every glyph is ASCII.

    Build one with :func:`load_face_set` or :func:`choose_face_set`.
    """

    name: str
    description: str
    path: str
    width: int
    max_rank: int
    faces: tuple[str | None, ...] = field(repr=False)
    tile_styles: tuple[str, ...] = field(repr=False)
    face_down: str
    empty: str
    face_down_style: str = ""
    empty_style: str = ""
    highlight_style: str = ""
    selected_style: str = ""
    dim_style: str = ""
    match_style: str = OPTIONAL_STATES["match"]
    colour: bool = True
    ascii_only: bool = False

    # -- plain faces -------------------------------------------------------------------------

    def has_face(self, tile: int) -> bool:
        """True if ``tile`` (a code) can be drawn by this set as loaded."""
        return 0 <= tile < NUM_KINDS and self.faces[tile] is not None

    def face(self, tile: int) -> str:
        """Plain text of ``tile``'s face, exactly :attr:`width` cells.

        Raises FaceSetError for a rank above :attr:`max_rank` that the set does not draw at
        this width (load with ``max_rank=16``), ValueError for a code that is no tile.
        """
        if not 0 <= tile < NUM_KINDS:
            raise ValueError(f"no tile has code {tile!r}")
        text = self.faces[tile]
        if text is None:
            raise FaceSetError(
                f"face set {self.name!r} was loaded for ranks up to {self.max_rank} and cannot "
                f"draw tile {tile_name(tile)!r}; load it with max_rank={SUIT_SIZE - 1}"
            )
        return text

    def tile_style(self, tile: int) -> str:
        """The rich style string of ``tile``'s group (see :func:`tile_group`)."""
        if not 0 <= tile < NUM_KINDS:
            raise ValueError(f"no tile has code {tile!r}")
        return self.tile_styles[tile]

    def row_width(self, count: int, gap: int = 1) -> int:
        """Cells taken by :meth:`render_row` of ``count`` tiles with ``gap`` cells between."""
        if count <= 0:
            return 0
        return count * self.width + (count - 1) * gap

    # -- the renderer --------------------------------------------------------------------------

    def _face_and_style(
        self, tile: int | None, face_down: bool, highlight: bool, selected: bool, dim: bool,
        match: bool = False,
    ) -> tuple[str, Style]:
        if face_down:
            text, base = self.face_down, self.face_down_style
        elif tile is None:
            text, base = self.empty, self.empty_style
        else:
            text, base = self.face(tile), self.tile_styles[tile]
        style = _style(
            base,
            self.dim_style if dim else "",
            self.highlight_style if highlight else "",
            self.match_style if match else "",
            self.selected_style if selected else "",
        )
        return text, style

    def render(
        self,
        tile: int | None,
        *,
        face_down: bool = False,
        highlight: bool = False,
        selected: bool = False,
        dim: bool = False,
        match: bool = False,
    ) -> Text:
        """Draw one tile as a rich ``Text`` of exactly :attr:`width` cells.

        - ``tile``: a tile code; ``None`` draws an empty slot (or, with ``face_down``, a hidden
          tile whose identity is unknown, as in another seat's concealed hand);
        - ``face_down``: draw the set's face-down glyph instead of the face;
        - ``highlight`` / ``selected`` / ``dim``: add the set's state styles (in the shipped
          sets: underline, reverse video, dim; attributes, not colours);
        - ``match``: a copy of the tile under the cursor (the tile tracker; ``match`` style,
          reverse video unless the file says otherwise).

        Raises FaceSetError if the set cannot draw ``tile`` (see :meth:`face`).
        """
        text, style = self._face_and_style(tile, face_down, highlight, selected, dim, match)
        return Text(text, style=style, no_wrap=True, overflow="crop", end="")

    def render_row(
        self,
        tiles: Iterable[int | None],
        gap: int = 1,
        *,
        face_down: bool | Collection[int] = False,
        highlight: bool | Collection[int] = False,
        selected: bool | Collection[int] = False,
        dim: bool | Collection[int] = False,
        match: bool | Collection[int] = False,
    ) -> Text:
        """Draw tiles side by side, ``gap`` unstyled spaces apart.

        The result is exactly ``row_width(len(tiles), gap)`` cells.  Each state flag is either a
        bool for the whole row or a collection of indices into ``tiles`` (e.g. a concealed kong:
        ``render_row([t] * 4, face_down={0, 3})``; the cursor: ``selected={i}``).
        """
        if gap < 0:
            raise ValueError(f"gap must be >= 0, got {gap}")
        spacer = " " * gap
        row = Text(no_wrap=True, overflow="crop", end="")
        for i, tile in enumerate(tiles):
            if i and gap:
                row.append(spacer)
            text, style = self._face_and_style(
                tile, _flag(face_down, i), _flag(highlight, i), _flag(selected, i), _flag(dim, i),
                _flag(match, i),
            )
            row.append(text, style)
        return row


# -- loading ------------------------------------------------------------------------------------


def _faces_dir() -> Path:
    return data_dir("assets") / "faces"


def available_face_sets() -> list[str]:
    """Names of the shipped face sets (files ``assets/faces/*.toml``), sorted."""
    folder = _faces_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml"))


def face_set_path(name_or_path: str | os.PathLike[str]) -> Path:
    """Resolve a shipped set's name (``"compact"``) or a path to a ``.toml`` file.

    Raises FaceSetError naming what was looked for and the names that exist.
    """
    text = os.fspath(name_or_path)
    looks_like_path = os.sep in text or "/" in text or text.endswith(".toml")
    if not looks_like_path:
        candidate = _faces_dir() / f"{text}.toml"
        if candidate.is_file():
            return candidate
        names = ", ".join(available_face_sets()) or "(none found in " + str(_faces_dir()) + ")"
        raise FaceSetError(
            f"unknown face set {text!r}; available: {names}, or a path to a face-set .toml file"
        )
    path = Path(text)
    if not path.is_file():
        raise FaceSetError(f"face-set file {text!r} does not exist (expected a .toml file)")
    return path


class _Reader:
    """Typed access to a parsed face-set file; every error names the file and the key."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str) -> FaceSetError:
        return FaceSetError(f"face-set file {str(self.path)!r}, key {key!r}: {problem}")

    def table(self, data: Mapping[str, Any], key: str, prefix: str = "", *, required: bool = True):
        full = prefix + key
        if key not in data:
            if required:
                raise self.fail(full, "missing (a table)")
            return None
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(full, f"must be a table, got {type(value).__name__}")
        return value

    def exact_keys(self, data: Mapping[str, Any], allowed: Iterable[str], prefix: str, what: str,
                   *, all_required: bool) -> None:
        allowed = list(allowed)
        for key in data:
            if key not in allowed:
                raise self.fail(prefix + key, f"unknown key; allowed {what}: {', '.join(allowed)}")
        if all_required:
            for key in allowed:
                if key not in data:
                    raise self.fail(prefix + key, f"missing; every one of {', '.join(allowed)} is required")

    def string(self, data: Mapping[str, Any], key: str, prefix: str = "", *, default: str | None = None) -> str:
        full = prefix + key
        if key not in data:
            if default is not None:
                return default
            raise self.fail(full, "missing (a string)")
        value = data[key]
        if not isinstance(value, str):
            raise self.fail(full, f"must be a string, got {type(value).__name__} {value!r}")
        return value

    def boolean(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        if key not in data:
            return default
        value = data[key]
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def integer(self, data: Mapping[str, Any], key: str, prefix: str, low: int, high: int) -> int:
        full = prefix + key
        if key not in data:
            raise self.fail(full, f"missing (an integer number of cells, {low}-{high})")
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(full, f"must be an integer number of cells from {low} to {high}, got {value!r}")
        return value

    def glyph(self, value: Any, key: str, width: int, ascii_only: bool) -> str:
        """Check one face or glyph: a printable string of exactly ``width`` cells."""
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {type(value).__name__} {value!r}")
        if not value or not value.isprintable():
            raise self.fail(key, f"{value!r} must be non-empty printable text (no tabs, newlines or control characters)")
        if ascii_only and not value.isascii():
            bad = next(c for c in value if not c.isascii())
            raise self.fail(key, f"{value!r} contains non-ASCII {bad!r} (U+{ord(bad):04X}) but the set says ascii_only = true")
        cells = cell_len(value)
        if cells != width:
            raise self.fail(
                key,
                f"face {value!r} is {cells} cell{'s' if cells != 1 else ''} wide, but width = {width}: "
                f"every face of a set must be exactly that many cells (pad with spaces)",
            )
        return value


def _pad(text: str, width: int, how: str) -> str:
    missing = width - cell_len(text)
    if missing <= 0:
        return text
    if how == "left":
        return " " * missing + text
    if how == "right":
        return text + " " * missing
    left = missing // 2
    return " " * left + text + " " * (missing - left)


def _check_distinct(reader: _Reader, entries: list[tuple[str, str]], context: str) -> None:
    seen: dict[str, str] = {}
    for key, text in entries:
        if text in seen:
            raise reader.fail(
                key,
                f"{text!r} is also the face of {seen[text]!r}{context}; every face, the face-down "
                f"glyph and the empty glyph must differ as plain text (colour is never the only cue)",
            )
        seen[text] = key


def _read_styles(reader: _Reader, data: Mapping[str, Any], colour: bool) -> dict[str, str]:
    """The ``[styles]`` table: every tile group and tile state (the optional ones get their
    default); each a rich style, without colour when the set says ``colour = false``."""
    styles_table = reader.table(data, "styles")
    allowed = TILE_GROUPS + STATE_STYLES + tuple(OPTIONAL_STATES)
    reader.exact_keys(styles_table, allowed, "styles.", "style names", all_required=False)
    for key in TILE_GROUPS + STATE_STYLES:
        if key not in styles_table:
            raise reader.fail("styles." + key, f"missing; every one of {', '.join(TILE_GROUPS + STATE_STYLES)} is required")
    styles: dict[str, str] = {}
    for key in allowed:
        value = reader.string(styles_table, key, "styles.", default=OPTIONAL_STATES.get(key))
        try:
            parsed = Style.parse(value)
        except StyleSyntaxError as exc:
            raise reader.fail(f"styles.{key}", f"{value!r} is not a rich style ({exc}); e.g. \"bold red\", \"reverse\", \"\"") from None
        if not colour and (parsed.color is not None or parsed.bgcolor is not None):
            raise reader.fail(
                f"styles.{key}",
                f"{value!r} uses colour but the set says colour = false; use attributes only "
                f"(bold, dim, italic, underline, reverse) or \"\"",
            )
        styles[key] = value
    return styles


def load_face_set(name_or_path: str | os.PathLike[str], *, max_rank: int = 9) -> FaceSet:
    """Load and validate a face set by name (``compact``, ``cjk``, ``ascii``, ``unicode``) or
    from a path to a ``.toml`` file (format: top of ``assets/faces/compact.toml``).

    ``max_rank`` is the highest number-tile rank the variant uses (9, or 16 for Uzje); above 9
    the file's ``[wide]`` section, if any, is used, so ranks 10-16 get legible faces.

    The whole file is validated whatever ``max_rank`` is: all faces exactly ``width`` cells
    (``rich.cells.cell_len``), the ``[wide]`` faces exactly ``wide.width``; every face distinct
    as plain text; styles that rich can parse, without colour when ``colour = false``; ASCII only
    when ``ascii_only = true``.  Raises FaceSetError naming the file and the key.
    """
    if not 0 <= max_rank < SUIT_SIZE:
        raise ValueError(f"max_rank must be 0..{SUIT_SIZE - 1}, got {max_rank!r}")
    path = face_set_path(name_or_path)
    reader = _Reader(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} cannot be read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} is not UTF-8 text: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} is not valid TOML: {exc}") from None

    if data.get("kind") == "boxed":
        raise FaceSetError(
            f"face-set file {str(path)!r} is a boxed set (kind = \"boxed\"): load it with "
            f"load_box_set; its one-line companion is {data.get('small', 'compact')!r}"
        )
    reader.exact_keys(data, sorted(_TOP_KEYS), "", "top-level keys", all_required=False)
    set_name = reader.string(data, "name")
    if not set_name.strip():
        raise reader.fail("name", "must not be empty")
    description = reader.string(data, "description", default="")
    width = reader.integer(data, "width", "", 1, _MAX_WIDTH)
    colour = reader.boolean(data, "colour", True)
    ascii_only = reader.boolean(data, "ascii_only", False)

    styles = _read_styles(reader, data, colour)

    # base faces
    face_down = reader.glyph(data.get("face_down"), "face_down", width, ascii_only) if "face_down" in data else None
    if face_down is None:
        raise reader.fail("face_down", f"missing (the glyph of a face-down tile, {width} cells)")
    empty = reader.glyph(data.get("empty"), "empty", width, ascii_only) if "empty" in data else None
    if empty is None:
        raise reader.fail("empty", f"missing (the glyph of an empty slot, {width} cells)")

    numbers = reader.table(data, "numbers")
    reader.exact_keys(numbers, SUIT_LETTERS, "numbers.", "suits", all_required=True)
    base_numbers: dict[str, list[str]] = {}
    for suit in SUIT_LETTERS:
        key = f"numbers.{suit}"
        values = numbers[suit]
        if not isinstance(values, list) or len(values) not in (_BASE_RANKS, SUIT_SIZE):
            got = f"{len(values)} entries" if isinstance(values, list) else type(values).__name__
            raise reader.fail(
                key,
                f"must be a list of {_BASE_RANKS} faces (ranks 0-9, with ranks 10-16 in "
                f"[wide.numbers]) or {SUIT_SIZE} faces (ranks 0-16), index = rank; got {got}",
            )
        base_numbers[suit] = [
            reader.glyph(v, f"{key}[{rank}]", width, ascii_only) for rank, v in enumerate(values)
        ]

    honours = reader.table(data, "honours")
    reader.exact_keys(honours, HONOUR_CHARS, "honours.", "honours", all_required=True)
    bonus = reader.table(data, "bonus")
    reader.exact_keys(bonus, BONUS_CHARS, "bonus.", "bonus tiles", all_required=True)

    base: dict[int, tuple[str, str]] = {}  # code -> (key, face)
    for suit in SUIT_LETTERS:
        for rank, text in enumerate(base_numbers[suit]):
            base[SUIT_LETTERS.index(suit) * SUIT_SIZE + rank] = (f"numbers.{suit}[{rank}]", text)
    for table, prefix in ((honours, "honours."), (bonus, "bonus.")):
        for letter, value in table.items():
            base[parse_tile(letter)] = (prefix + letter, reader.glyph(value, prefix + letter, width, ascii_only))
    _check_distinct(
        reader,
        [("face_down", face_down), ("empty", empty)] + [base[c] for c in sorted(base)],
        "",
    )

    # wide section
    wide_table = reader.table(data, "wide", required=False)
    wide: dict[int, tuple[str, str]] | None = None
    wide_width = width
    wide_face_down, wide_empty = face_down, empty
    if wide_table is not None:
        reader.exact_keys(wide_table, sorted(_WIDE_KEYS), "wide.", "keys in [wide]", all_required=False)
        wide_width = reader.integer(wide_table, "width", "wide.", width + 1, _MAX_WIDTH)
        pad = reader.string(wide_table, "pad", "wide.", default="left")
        if pad not in _PADS:
            raise reader.fail("wide.pad", f"{pad!r} is not allowed; use one of {', '.join(_PADS)}")
        wide_face_down = reader.glyph(
            wide_table.get("face_down", _pad(face_down, wide_width, pad)), "wide.face_down", wide_width, ascii_only
        )
        wide_empty = reader.glyph(
            wide_table.get("empty", _pad(empty, wide_width, pad)), "wide.empty", wide_width, ascii_only
        )
        wide = {code: (key, _pad(text, wide_width, pad)) for code, (key, text) in base.items()}
        wide_numbers = reader.table(wide_table, "numbers", "wide.", required=False) or {}
        reader.exact_keys(wide_numbers, SUIT_LETTERS, "wide.numbers.", "suits", all_required=False)
        for suit in SUIT_LETTERS:
            key = f"wide.numbers.{suit}"
            if suit not in wide_numbers:
                if len(base_numbers[suit]) < SUIT_SIZE:
                    raise reader.fail(
                        key,
                        f"missing: numbers.{suit} has only ranks 0-9, so [wide.numbers] must give "
                        f"the {_WIDE_RANKS} faces of ranks 10-16",
                    )
                continue
            values = wide_numbers[suit]
            if not isinstance(values, list) or len(values) != _WIDE_RANKS:
                got = f"{len(values)} entries" if isinstance(values, list) else type(values).__name__
                raise reader.fail(key, f"must be a list of {_WIDE_RANKS} faces for ranks 10-16; got {got}")
            for i, value in enumerate(values):
                rank = _BASE_RANKS + i
                entry_key = f"{key}[{i}] (rank {rank})"
                wide[SUIT_LETTERS.index(suit) * SUIT_SIZE + rank] = (
                    entry_key, reader.glyph(value, entry_key, wide_width, ascii_only)
                )
        for code, (key, text) in wide.items():
            reader.glyph(text, f"{key} padded for [wide]", wide_width, ascii_only)
        _check_distinct(
            reader,
            [("wide.face_down", wide_face_down), ("wide.empty", wide_empty)] + [wide[c] for c in sorted(wide)],
            " at the [wide] width",
        )
    else:
        for suit in SUIT_LETTERS:
            if len(base_numbers[suit]) < SUIT_SIZE:
                raise reader.fail(
                    f"numbers.{suit}",
                    f"has faces for ranks 0-9 only; give all {SUIT_SIZE} ranks 0-16 or add a "
                    f"[wide] section with [wide.numbers] for ranks 10-16",
                )

    use_wide = wide is not None and max_rank >= _BASE_RANKS
    chosen = wide if use_wide else base
    assert chosen is not None
    faces: list[str | None] = [None] * NUM_KINDS
    for code, (_key, text) in chosen.items():
        faces[code] = text
    tile_styles = tuple(styles[tile_group(code)] for code in range(NUM_KINDS))
    return FaceSet(
        name=set_name,
        description=description,
        path=str(path),
        width=wide_width if use_wide else width,
        max_rank=max_rank,
        faces=tuple(faces),
        tile_styles=tile_styles,
        face_down=wide_face_down if use_wide else face_down,
        empty=wide_empty if use_wide else empty,
        face_down_style=styles["face_down"],
        empty_style=styles["empty"],
        highlight_style=styles["highlight"],
        selected_style=styles["selected"],
        dim_style=styles["dim"],
        match_style=styles["match"],
        colour=any(
            Style.parse(v).color is not None or Style.parse(v).bgcolor is not None for v in styles.values()
        ),
        ascii_only=ascii_only,
    )


# -- boxed sets ---------------------------------------------------------------------------------

#: The borders of a boxed set, in ``[borders]``: six glyphs each (top-left, top, top-right,
#: side, bottom-left, bottom-right).
BOX_BORDERS = ("plain", "selected", "highlight", "claimed")
_BOX_TOP_KEYS = {
    "kind", "name", "description", "width", "small", "colour", "ascii_only", "face_down",
    "borders", "styles", "numbers", "suits", "honours", "bonus",
}
#: Lines a boxed tile takes: its top border and the two lines inside.  A group of tiles is
#: closed by one more line, the bottom borders (:meth:`BoxFaceSet.bottom`).
BOX_ROWS = 3


@dataclass(frozen=True)
class BoxFaceSet:
    """A boxed face set: every tile is :attr:`width` cells by :data:`BOX_ROWS` lines — a top
    border, the rank (or character) and the suit between two side borders — and a group of
    tiles is closed by a line of bottom borders.  Loaded from a ``kind = "boxed"`` file
    (format: top of ``assets/faces/large.toml``) with :func:`load_box_set`.

    Fields: ``name``, ``description``, ``path``; ``width`` (cells, borders included);
    ``small``: the name of the one-line set drawn where tiles are not boxed; ``lines``: the
    two inside lines by tile code (``width - 2`` cells each); ``tile_styles`` by tile code;
    ``borders``: ``(name, six glyphs)`` pairs (:data:`BOX_BORDERS`); ``face_down``: the fill
    of a hidden tile; ``styles``: ``(state, style)`` pairs; ``colour``, ``ascii_only``.

    The tile states stand out without colour: the cursor's tile has the ``selected`` border
    (and reverse video inside), the tile just drawn and the latest discard the ``highlight``
    border, a meld's claimed tile the ``claimed`` border with the seat it came from written
    on its top border, a tracked copy reverse video inside.
    """

    name: str
    description: str
    path: str
    width: int
    small: str
    lines: tuple[tuple[str, str], ...] = field(repr=False)
    tile_styles: tuple[str, ...] = field(repr=False)
    borders: tuple[tuple[str, str], ...] = field(repr=False)
    face_down: str = ""
    styles: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    colour: bool = True
    ascii_only: bool = False
    _drawn: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # drawn tiles, by state

    @property
    def inner(self) -> int:
        """Cells inside the side borders."""
        return self.width - 2

    def border(self, kind: str) -> str:
        """The six glyphs of border ``kind`` (one of :data:`BOX_BORDERS`)."""
        for name, glyphs in self.borders:
            if name == kind:
                return glyphs
        raise ValueError(f"no border {kind!r}; borders: {', '.join(BOX_BORDERS)}")

    def state_style(self, state: str) -> str:
        for name, value in self.styles:
            if name == state:
                return value
        return ""

    def face_lines(self, tile: int) -> tuple[str, str]:
        """The two plain inside lines of ``tile`` (each :attr:`inner` cells).  Raises
        ValueError for a code that is no tile."""
        if not 0 <= tile < NUM_KINDS:
            raise ValueError(f"no tile has code {tile!r}")
        return self.lines[tile]

    def row_width(self, count: int, gap: int = 1) -> int:
        """Cells taken by ``count`` boxed tiles ``gap`` cells apart."""
        return 0 if count <= 0 else count * self.width + (count - 1) * gap

    def _kind(self, selected: bool, highlight: bool, claimed: bool) -> str:
        return "selected" if selected else "highlight" if highlight else "claimed" if claimed else "plain"

    def _base(self, tile: int | None, face_down: bool) -> str:
        if face_down or tile is None:
            return self.state_style("face_down" if face_down else "empty")
        return self.tile_styles[tile]

    def tile(
        self,
        tile: int | None,
        *,
        face_down: bool = False,
        selected: bool = False,
        highlight: bool = False,
        dim: bool = False,
        match: bool = False,
        claimed_from: str | None = None,
    ) -> list[Text]:
        """One tile as :data:`BOX_ROWS` rich ``Text`` lines of :attr:`width` cells: its top
        border and the two lines inside (no bottom border: see :meth:`bottom`).

        ``tile`` None with ``face_down`` is a hidden tile, without it an empty slot;
        ``claimed_from``: the seat (a wind letter) this claimed discard came from, written on
        the ``claimed`` top border (``╭W─╮``).  Raises ValueError for a code that is no tile.
        The lines are new ``Text`` objects: the caller may change them.
        """
        key = (tile, face_down, selected, highlight, dim, match, claimed_from)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = self._drawn[key] = self._tile(*key)
        return [t.copy() for t in drawn]

    def _tile(self, tile: int | None, face_down: bool, selected: bool, highlight: bool, dim: bool, match: bool,
              claimed_from: str | None) -> tuple[Text, ...]:
        g = self.border(self._kind(selected, highlight, claimed_from is not None))
        base = self._base(tile, face_down)
        frame_style = _style(base, self.state_style("dim") if dim else "")
        inside_style = _style(
            base,
            self.state_style("dim") if dim else "",
            self.state_style("highlight") if highlight else "",
            self.state_style("match") if match else "",
            self.state_style("selected") if selected else "",
        )
        top = g[1] * self.inner
        if claimed_from:
            label = claimed_from[: self.inner]
            top = label + g[1] * (self.inner - cell_len(label))
        if face_down:
            inside = (self.face_down, self.face_down)
        elif tile is None:
            inside = (" " * self.inner, " " * self.inner)
        else:
            inside = self.face_lines(tile)
        out = [Text(g[0] + top + g[2], style=frame_style, no_wrap=True, overflow="crop", end="")]
        for line in inside:
            t = Text(g[3], style=frame_style, no_wrap=True, overflow="crop", end="")
            t.append(line, inside_style)
            t.append(g[3], frame_style)
            out.append(t)
        return tuple(out)

    def bottom(
        self,
        tile: int | None,
        *,
        face_down: bool = False,
        selected: bool = False,
        highlight: bool = False,
        dim: bool = False,
        claimed: bool = False,
    ) -> Text:
        """The bottom border that closes ``tile`` (the same states as :meth:`tile`)."""
        g = self.border(self._kind(selected, highlight, claimed))
        style = _style(self._base(tile, face_down), self.state_style("dim") if dim else "")
        return Text(g[4] + g[1] * self.inner + g[5], style=style, no_wrap=True, overflow="crop", end="")


def load_box_set(name_or_path: str | os.PathLike[str]) -> BoxFaceSet:
    """Load and validate a boxed face set (``large``, ``large-ascii``, or a path to a
    ``kind = "boxed"`` file; format: top of ``assets/faces/large.toml``).

    Checked: every border six single-cell glyphs; every inside line at most ``width - 2``
    cells (centred to exactly that); faces for every rank 0-16, honour and bonus tile; every
    tile's two lines distinct from every other tile's as plain text; styles rich can parse,
    without colour when ``colour = false``; ASCII only when ``ascii_only = true``; ``small``
    a one-line set that exists.  Raises FaceSetError naming the file and the key.
    """
    path = face_set_path(name_or_path)
    reader = _Reader(path)
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} is not UTF-8 text: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FaceSetError(f"face-set file {str(path)!r} is not valid TOML: {exc}") from None
    if data.get("kind") != "boxed":
        raise reader.fail("kind", 'must be "boxed" for a boxed set (a one-line set is loaded with load_face_set)')
    reader.exact_keys(data, sorted(_BOX_TOP_KEYS), "", "top-level keys", all_required=False)
    set_name = reader.string(data, "name")
    width = reader.integer(data, "width", "", 4, _MAX_WIDTH + 2)
    inner = width - 2
    small = reader.string(data, "small", default="compact")
    try:
        load_face_set(small)
    except FaceSetError as exc:
        raise reader.fail("small", f"{small!r} is not a one-line face set: {exc}") from None
    colour = reader.boolean(data, "colour", True)
    ascii_only = reader.boolean(data, "ascii_only", False)
    styles = _read_styles(reader, data, colour)

    def text(value: Any, key: str, cells: int, *, exact: bool = False) -> str:
        if not isinstance(value, str):
            raise reader.fail(key, f"must be a string, got {type(value).__name__} {value!r}")
        if not value.isprintable():
            raise reader.fail(key, f"{value!r} must be printable text (no tabs, newlines or control characters)")
        if ascii_only and not value.isascii():
            raise reader.fail(key, f"{value!r} is not ASCII but the set says ascii_only = true")
        n = cell_len(value)
        if n > cells or (exact and n != cells):
            want = f"exactly {cells}" if exact else f"at most {cells}"
            raise reader.fail(key, f"{value!r} is {n} cells wide; it must be {want} (width = {width}, "
                                   f"{inner} cells inside the borders)")
        return _pad(value, cells, "center")

    borders_table = reader.table(data, "borders")
    reader.exact_keys(borders_table, BOX_BORDERS, "borders.", "borders", all_required=True)
    borders = []
    for kind in BOX_BORDERS:
        glyphs = reader.string(borders_table, kind, "borders.")
        if len(glyphs) != 6 or any(cell_len(c) != 1 for c in glyphs):
            raise reader.fail(f"borders.{kind}", f"{glyphs!r} must be six one-cell glyphs: top-left, top, "
                                                 f"top-right, side, bottom-left, bottom-right")
        text(glyphs, f"borders.{kind}", 6)
        borders.append((kind, glyphs))
    face_down = text(data.get("face_down"), "face_down", inner, exact=True)

    numbers = reader.table(data, "numbers")
    reader.exact_keys(numbers, SUIT_LETTERS, "numbers.", "suits", all_required=True)
    suits = reader.table(data, "suits")
    reader.exact_keys(suits, SUIT_LETTERS, "suits.", "suits", all_required=True)
    lines: dict[int, tuple[str, str]] = {}
    keys: dict[int, str] = {}
    for si, suit in enumerate(SUIT_LETTERS):
        ranks = numbers[suit]
        if not isinstance(ranks, list) or len(ranks) != SUIT_SIZE:
            raise reader.fail(f"numbers.{suit}", f"must be a list of the {SUIT_SIZE} rank lines 0-16, index = rank")
        suit_line = text(suits[suit], f"suits.{suit}", inner)
        for rank, value in enumerate(ranks):
            code = si * SUIT_SIZE + rank
            lines[code] = (text(value, f"numbers.{suit}[{rank}]", inner), suit_line)
            keys[code] = f"numbers.{suit}[{rank}]"
    for table_key, letters in (("honours", HONOUR_CHARS), ("bonus", BONUS_CHARS)):
        table = reader.table(data, table_key)
        reader.exact_keys(table, letters, table_key + ".", table_key, all_required=True)
        for letter in letters:
            key = f"{table_key}.{letter}"
            pair = table[letter]
            if not isinstance(pair, list) or len(pair) != 2:
                raise reader.fail(key, f"must be a list of two lines, e.g. [\"東\", \"風\"]; got {pair!r}")
            code = parse_tile(letter)
            lines[code] = (text(pair[0], key + "[0]", inner), text(pair[1], key + "[1]", inner))
            keys[code] = key
    _check_distinct(reader, [(keys[c], "\n".join(lines[c])) for c in sorted(lines)], "")
    return BoxFaceSet(
        name=set_name,
        description=reader.string(data, "description", default=""),
        path=str(path),
        width=width,
        small=small,
        lines=tuple(lines[c] for c in range(NUM_KINDS)),
        tile_styles=tuple(styles[tile_group(c)] for c in range(NUM_KINDS)),
        borders=tuple(borders),
        face_down=face_down,
        styles=tuple((k, styles[k]) for k in STATE_STYLES + tuple(OPTIONAL_STATES)),
        colour=colour,
        ascii_only=ascii_only,
    )


def is_box_set(name_or_path: str | os.PathLike[str]) -> bool:
    """True if ``name_or_path`` names a boxed set (a ``kind = "boxed"`` file).  Raises
    FaceSetError for a set that does not exist."""
    path = face_set_path(name_or_path)
    try:
        return tomllib.loads(path.read_bytes().decode("utf-8")).get("kind") == "boxed"
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # load_face_set says what is wrong with it


# -- choosing at start-up -----------------------------------------------------------------------

_UTF8 = re.compile(r"utf-?8", re.IGNORECASE)
#: Values Python itself puts in LC_CTYPE when it coerces a C/POSIX locale (PEP 538).
_COERCED = {"C.UTF-8", "C.utf8", "UTF-8"}
#: Terminals without CJK glyphs: never chosen for the cjk set automatically.
_NO_CJK_TERMS = {"linux", "vt100", "vt102", "vt220", "dumb"}


def locale_is_utf8(env: Mapping[str, str] = os.environ) -> bool:
    """True if the locale's character encoding is UTF-8.

    POSIX precedence: the first non-empty of ``LC_ALL``, ``LC_CTYPE``, ``LANG`` decides; none
    set means the ``C`` locale, which is not UTF-8.  One exception: CPython coerces a ``C``
    locale by exporting ``LC_CTYPE=C.UTF-8`` (PEP 538), so ``LANG=C`` with that ``LC_CTYPE`` is
    read as what the user asked for, ``C`` (not UTF-8).
    """
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var, "")
        if value:
            break
    else:
        return False
    if not _UTF8.search(value):
        return False
    if var == "LC_CTYPE" and value in _COERCED and env.get("LANG", "") in ("C", "POSIX"):
        return False
    return True


def auto_face_set_name(width: int, *, ascii: bool = False, env: Mapping[str, str] = os.environ) -> str:
    """The automatic choice, by name.

    - ``"ascii"`` when ``ascii`` is set (``--ascii``) or the locale is not UTF-8
      (:func:`locale_is_utf8`);
    - ``"cjk"`` when the terminal is at least :data:`CJK_MIN_WIDTH` (140) columns wide, unless
      ``TERM`` names a terminal without CJK glyphs (``linux`` console, ``vt100`` …);
    - ``"compact"`` otherwise.  The ``unicode`` set is never chosen automatically.
    """
    if ascii or not locale_is_utf8(env):
        return "ascii"
    if width >= CJK_MIN_WIDTH and env.get("TERM", "") not in _NO_CJK_TERMS:
        return "cjk"
    return "compact"


def choose_face_set(
    requested: str | None,
    width: int,
    ascii: bool,
    env: Mapping[str, str] = os.environ,
    *,
    max_rank: int = 9,
) -> FaceSet:
    """Pick the face set once at start-up.

    - ``ascii`` True (``--ascii``) always gives the ascii set: it states what the terminal can
      show, so it wins over ``requested``;
    - ``requested`` (``--faces NAME|PATH``) is loaded as asked, whatever the locale or width;
    - ``None``, ``""`` or ``"auto"``: :func:`auto_face_set_name` from the terminal ``width`` in
      columns and the locale in ``env``.

    ``max_rank``: the variant's highest rank (16 for Uzje) — see :func:`load_face_set`.
    Raises FaceSetError for an unknown name or an invalid file.
    """
    if ascii:
        name = "ascii"
    elif requested in (None, "", "auto"):
        name = auto_face_set_name(width, env=env)
    else:
        name = requested
    return load_face_set(name, max_rank=max_rank)


@dataclass(frozen=True)
class Faces:
    """The face sets chosen at start-up (:func:`choose_faces`): ``small``, the one-line set
    every tile is drawn with unless it is boxed; ``large``, the boxed set (or None: never
    boxed); ``forced``: ``--faces`` named the boxed set, so the own hand is boxed wherever it
    fits, not only where the terminal has room to spare."""

    small: FaceSet
    large: BoxFaceSet | None = None
    forced: bool = False


def auto_box_set_name(small: str, env: Mapping[str, str] = os.environ) -> str:
    """The boxed set that goes with the automatic one-line set ``small``: ``large-ascii``
    with the ascii set or on a terminal without CJK glyphs, else ``large``."""
    if small == "ascii" or env.get("TERM", "") in _NO_CJK_TERMS:
        return "large-ascii"
    return "large"


def choose_faces(
    requested: str | None,
    width: int,
    ascii: bool,
    env: Mapping[str, str] = os.environ,
    *,
    max_rank: int = 9,
) -> Faces:
    """Pick the face sets once at start-up.

    - ``requested`` None, ``""`` or ``"auto"``: the one-line set of :func:`choose_face_set`
      and its boxed set (:func:`auto_box_set_name`), boxed where the terminal has room;
    - a boxed set (``large``, ``large-ascii``, a ``kind = "boxed"`` file): that set, forced,
      with its own ``small`` one-line set; with ``ascii`` (``--ascii``) ``large-ascii``;
    - a one-line set: that set alone (never boxed), as :func:`choose_face_set`.

    Raises FaceSetError for an unknown name or an invalid file.
    """
    auto = requested in (None, "", "auto")
    boxed = not auto and is_box_set(requested)
    if boxed:
        large = load_box_set("large-ascii" if ascii else requested)
        return Faces(load_face_set(large.small, max_rank=max_rank), large, True)
    small = choose_face_set(requested, width, ascii, env, max_rank=max_rank)
    if not auto:
        return Faces(small, None, False)
    return Faces(small, load_box_set(auto_box_set_name(small.name, env)), False)
