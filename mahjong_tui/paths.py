"""Where the shipped data files live (``variants/*.toml`` and ``assets/``), and how the files
the program writes and reads are opened.

Two layouts are supported and nothing else in the package needs to know which one it runs from:

- an installed wheel: ``pyproject.toml`` force-includes the repository's ``variants/`` and
  ``assets/`` as ``mahjong_tui/_data/variants`` and ``mahjong_tui/_data/assets``;
- a source checkout (or an editable install): the folders sit at the repository root, next to
  the ``mahjong_tui`` package.

The wheel location wins when it exists, so an installed package never reads stray files from the
current directory.

Private files: a save, a journal and a LAN table's ``.seats`` file hold the game's seed (every
hand and the whole wall while the match runs) and the seats' tokens, so they are created
readable by their owner only (:func:`open_private`, mode 0600) in folders only their owner can
list (:func:`private_dir`, 0700).  A folder that exists already is left as it is.

Where the program keeps its own files (:func:`saves_dir`, :func:`config_path`): the platform's
folders as platformdirs names them for ``mahjong-tui`` (Linux: ``$XDG_DATA_HOME`` else
``~/.local/share``, and ``$XDG_CONFIG_HOME`` else ``~/.config``; macOS: ``~/Library/Application
Support``; Windows: ``%LOCALAPPDATA%``), each overridden by an environment variable
(``MAHJONG_TUI_SAVES``, ``MAHJONG_TUI_CONFIG``); the history of finished matches
(:func:`history_dir`) sits beside the saves folder (``MAHJONG_TUI_HISTORY``).

Files read from a path a user gave (a variant file, a game log) are read by
:func:`read_regular`: only a regular file, and at most a given size (``/dev/zero`` or a pipe
would otherwise be read until memory runs out).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Mapping

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


#: the name platformdirs files this program's folders under
APP_NAME = "mahjong-tui"
#: the environment variables that say where the saves folder and the settings file are
SAVES_ENV = "MAHJONG_TUI_SAVES"
CONFIG_ENV = "MAHJONG_TUI_CONFIG"
#: the environment variable that says where the history of finished matches is kept
HISTORY_ENV = "MAHJONG_TUI_HISTORY"


def legacy_saves_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The saves folder as it was worked out by hand before platformdirs:
    ``$XDG_DATA_HOME/mahjong-tui/saves``, else ``~/.local/share/mahjong-tui/saves``.  On Linux
    it is the folder :func:`saves_dir` gives (platformdirs reads the same variable)."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / APP_NAME / "saves"


def saves_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The folder of saved games and of the journals of local matches: ``$MAHJONG_TUI_SAVES``
    in ``env`` if set, else ``saves`` in platformdirs' user data folder for ``mahjong-tui``
    (platformdirs reads ``XDG_DATA_HOME`` from the process's environment).  Where that
    differs from :func:`legacy_saves_dir` (not on Linux: macOS, Windows) and only the old
    folder exists, the old one, so that games saved there are still found.  The folder may
    not exist yet (:func:`private_dir` makes it)."""
    if env.get(SAVES_ENV):
        return Path(env[SAVES_ENV]).expanduser()
    import platformdirs  # here, not at the top: the data files and the headless commands need none

    new = platformdirs.user_data_path(APP_NAME, appauthor=False) / "saves"
    old = legacy_saves_dir(os.environ)  # as platformdirs reads it
    if old != new and not new.exists() and old.is_dir():
        return old
    return new


def history_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The folder of finished matches (:mod:`mahjong_tui.history`), beside the saves folder:
    ``$MAHJONG_TUI_HISTORY`` in ``env`` if set; else, when ``$MAHJONG_TUI_SAVES`` names the
    saves folder ``DIR``, ``DIR-history`` (a name of its own beside it: no ``history`` folder
    appears in whatever folder holds ``DIR``); else ``history`` beside ``saves`` in platformdirs'
    user data folder (Linux: ``~/.local/share/mahjong-tui/history``).  The folder may not exist
    yet (:func:`private_dir` makes it, 0700)."""
    if env.get(HISTORY_ENV):
        return Path(env[HISTORY_ENV]).expanduser()
    saves = saves_dir(env)
    if env.get(SAVES_ENV):
        saves = Path(os.path.abspath(saves))  # DIR/ and DIR/. are DIR
        return saves.with_name(saves.name + "-history") if saves.name else saves / "mahjong-tui-history"
    return saves.parent / "history"


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    """The settings file (:mod:`mahjong_tui.config`): ``$MAHJONG_TUI_CONFIG`` if set, else
    ``config.toml`` in platformdirs' user config folder for ``mahjong-tui`` (Linux:
    ``~/.config/mahjong-tui/config.toml``).  It may not exist."""
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV]).expanduser()
    import platformdirs

    return platformdirs.user_config_path(APP_NAME, appauthor=False) / "config.toml"


#: mode of a file the program creates for its owner only (a save, a journal, a ``.seats`` file)
PRIVATE_FILE_MODE = 0o600
#: mode of a folder the program creates for such files
PRIVATE_DIR_MODE = 0o700

_OPEN_FLAGS = {"w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC, "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
               "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND, "a+": os.O_RDWR | os.O_CREAT | os.O_APPEND}


def private_dir(path: str | Path) -> Path:
    """Make folder ``path`` and any missing parent, each mode 0700 (an existing folder is left
    as it is); returns the path.  Raises ``OSError`` (``FileExistsError`` when a file is in
    the way)."""
    p = Path(path).expanduser()
    missing = []
    while not p.is_dir():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, PRIVATE_DIR_MODE)
        except FileExistsError:
            if not d.is_dir():
                raise
    return Path(path).expanduser()


def open_private(path: str | Path, mode: str = "w", encoding: str | None = "utf-8"):
    """``open(path, mode)`` for writing (``"w"``, ``"x"``, ``"a"``, ``"a+"``, or those with
    ``b``), the file created mode 0600; a regular file that exists already is set to 0600 too
    (a device such as ``/dev/null`` is left alone).  Returns the file object.  Raises
    ``OSError`` like :func:`open`, ``ValueError`` for another mode."""
    binary = "b" in mode
    flags = _OPEN_FLAGS.get(mode.replace("b", ""))
    if flags is None:
        raise ValueError(f"open_private: mode {mode!r}; expected w, x, a or a+ (with b)")
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), PRIVATE_FILE_MODE)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode) and hasattr(os, "fchmod"):
            try:
                os.fchmod(fd, PRIVATE_FILE_MODE)
            except OSError:  # another user's file we may write to: its mode is theirs
                pass
        return os.fdopen(fd, mode, **({} if binary else {"encoding": encoding}))
    except BaseException:
        os.close(fd)
        raise


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def size_text(n: int) -> str:
    """``n`` bytes in words: ``1 MB``, ``256 MB``, ``512 bytes``."""
    return f"{n // 2**20} MB" if n >= 2**20 and n % 2**20 == 0 else f"{n} bytes"


def read_regular(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.  ``what``
    names what the file should be (``"a variant file"``), for the messages.  Raises
    ``OSError`` whose ``strerror`` says why: the system's reason, or that ``path`` is a
    device, a pipe or a folder, or too large."""
    # O_NONBLOCK: opening a pipe (a FIFO) must not wait for a writer
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    too_big = OSError(errno.EFBIG, f"it is larger than {size_text(limit)}, the most {what} may hold")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"it is {_kind_of(st.st_mode)}; {what} is a regular file")
        if st.st_size > limit:
            raise too_big
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew while being read
        raise too_big
    return b"".join(chunks)


def check_writable(path: str | Path) -> None:
    """Raise ``OSError`` (the system's reason) unless a file can be written at ``path``: it is
    opened for appending (0600, :func:`open_private`) and closed; a file this made is removed
    again.  A command that writes its file only at the end (``sim --log``) checks first."""
    p = Path(path).expanduser()
    existed = p.exists()
    with open_private(p, "a"):
        pass
    if not existed:
        p.unlink(missing_ok=True)
