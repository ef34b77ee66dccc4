"""Where the shipped data files live: ``variants/*.toml`` and ``assets/``.

Two layouts are supported and nothing else in the package needs to know which one it runs from:

- an installed wheel: ``pyproject.toml`` force-includes the repository's ``variants/`` and
  ``assets/`` as ``mahjong_tui/_data/variants`` and ``mahjong_tui/_data/assets``;
- a source checkout (or an editable install): the folders sit at the repository root, next to
  the ``mahjong_tui`` package.

The wheel location wins when it exists, so an installed package never reads stray files from the
current directory.
"""

from __future__ import annotations

from pathlib import Path

DATA_KINDS = ("assets", "variants")

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """Directory holding the shipped data of ``kind`` (``"assets"`` or ``"variants"``).

    Returns ``mahjong_tui/_data/<kind>`` if that directory exists (installed wheel), else
    ``<repository root>/<kind>`` (source checkout).  The returned path may not exist if the
    data was not shipped; callers report that with their own error.

    Raises ValueError for any other ``kind``.
    """
    if kind not in DATA_KINDS:
        raise ValueError(f"unknown data kind {kind!r}; expected one of {', '.join(DATA_KINDS)}")
    installed = _PACKAGE_DIR / "_data" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent / kind
