"""Colour palettes: other colours for the tiles of any face set (issue 21, item 8: the
colour-blind palette of the Settings screen).

A palette is a data file ``assets/palettes/NAME.toml`` (format: top of
``assets/palettes/colour-blind.toml``) that gives a rich style for some of the tile groups of
:data:`~mahjong_tui.ui.faces.TILE_GROUPS`.  :func:`apply_palette` puts those styles on the
chosen face sets (one-line and boxed) in place of their own; the faces, the tile states
(cursor, highlight, dim) and sets without colour (``ascii``) are left as they are, so colour
stays a second cue, never the only one.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from rich.errors import StyleSyntaxError
from rich.style import Style

from ..errors import MahjongError
from ..paths import data_dir
from ..tiles import NUM_KINDS
from .faces import TILE_GROUPS, BoxFaceSet, Faces, FaceSet, tile_group

#: the palette of the Settings screen's "Colour-blind palette"
COLOUR_BLIND = "colour-blind"


class PaletteError(MahjongError):
    """A palette that does not exist or whose file is invalid (the message names the file
    and the key)."""


def palettes_dir() -> Path:
    return data_dir("assets") / "palettes"


@lru_cache(maxsize=8)
def load_palette(name: str) -> tuple[tuple[str, str], ...]:
    """The ``(tile group, style)`` pairs of palette ``name`` (``assets/palettes/NAME.toml``).
    Raises PaletteError for a missing file, bad TOML, a key that is no tile group or a style
    rich cannot parse."""
    path = palettes_dir() / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PaletteError(f"no palette {name!r} (no file {path})") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PaletteError(f"palette file {str(path)!r} cannot be read: {exc}") from None
    styles = data.get("styles")
    if not isinstance(styles, dict):
        raise PaletteError(f"palette file {str(path)!r}, key 'styles': missing (a table)")
    out = []
    for group, style in styles.items():
        key = f"styles.{group}"
        if group not in TILE_GROUPS:
            raise PaletteError(f"palette file {str(path)!r}, key {key!r}: no such tile group; "
                               f"groups: {', '.join(TILE_GROUPS)}")
        if not isinstance(style, str):
            raise PaletteError(f"palette file {str(path)!r}, key {key!r}: must be a style string")
        try:
            Style.parse(style)
        except StyleSyntaxError as exc:
            raise PaletteError(f"palette file {str(path)!r}, key {key!r}: {exc}") from None
        out.append((group, style))
    return tuple(out)


def _recolour(styles: tuple[str, ...], palette: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(palette.get(tile_group(code), styles[code]) for code in range(NUM_KINDS))


def recolour_set(face_set: FaceSet | BoxFaceSet, palette: Mapping[str, str]):
    """``face_set`` with its tile colours from ``palette`` (group → style); a set without
    colour (``colour = false``) unchanged."""
    if not face_set.colour:
        return face_set
    return replace(face_set, tile_styles=_recolour(face_set.tile_styles, palette))


def apply_palette(faces: Faces, name: str | None) -> Faces:
    """``faces`` (the one-line and the boxed set) recoloured by palette ``name``; None: as
    they are.  Raises PaletteError (see :func:`load_palette`)."""
    if not name:
        return faces
    palette = dict(load_palette(name))
    large = recolour_set(faces.large, palette) if faces.large is not None else None
    return replace(faces, small=recolour_set(faces.small, palette), large=large)
