"""The LAN protocol: framing, message schema, password challenge–response (``PROTOCOL.md``).

Wire format: every message is one **frame** = a 4-byte big-endian unsigned length ``N``
followed by ``N`` bytes holding one msgpack map with a string ``"type"`` key.  ``N`` is at most
:data:`MAX_FRAME` (64 KiB); ``N = 0`` is a (bad) empty message.

This module does no networking of its own beyond :func:`read_frame` over an
``asyncio.StreamReader``: encoding, decoding and validation are plain functions so the server,
the client and the tests share them.  Everything a peer can get wrong raises
:class:`ProtocolError` with a ``code`` (stable, for programs) and a message that says what was
wrong and what is allowed (for people); ``fatal`` tells whether the connection must close.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import struct
from typing import Any

import msgpack

from ..errors import MahjongError

PROTOCOL_VERSION = 1
MAX_FRAME = 64 * 1024
HEADER = struct.Struct(">I")
AUTH_SCHEME = "hmac-sha256"
NAME_MAX = 24
TOKEN_MAX = 64

#: message types a client may send, and the ones a server sends
CLIENT_TYPES = ("join", "action", "ping", "bye", "chat")
SERVER_TYPES = ("hello", "welcome", "seats", "state", "update", "request", "accepted", "error", "pong", "bye",
                "chat", "clock")
#: the longest chat message, in characters (after :func:`clean_chat`); a longer one is refused
CHAT_MAX = 200


class NetError(MahjongError):
    """A network problem a user can cause or meet: nothing listens there, wrong password, the
    table is full, the connection was lost for good.  The message says what to do.

    ``code``: the server's error code when the server refused (``auth``, ``busy``,
    ``throttled``, ...), ``closed`` / ``no_answer`` when the connection closed or went silent
    during the greeting, else None; ``retry_after``: seconds the server asked to wait."""

    def __init__(self, message: str, code: str | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


class ProtocolError(MahjongError):
    """A peer broke the protocol (or is refused).  ``code`` is one of the error codes of
    ``PROTOCOL.md``; ``fatal`` means the connection is closed after the error is reported;
    ``extra`` are further fields of the ``error`` frame (``retry_after`` of ``throttled``)."""

    def __init__(self, code: str, message: str, fatal: bool = False, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal
        self.extra = extra

    def frame(self) -> dict:
        """The ``error`` message that reports it."""
        return error(self.code, self.message, self.fatal, **self.extra)


# ----------------------------------------------------------------------------------------
# framing
# ----------------------------------------------------------------------------------------
def encode(msg: dict, max_frame: int = MAX_FRAME) -> bytes:
    """One frame (header + msgpack body) for ``msg``.  Raises ValueError if the body would
    exceed ``max_frame`` (a server bug, never a peer's fault)."""
    body = msgpack.packb(msg, use_bin_type=True)
    if len(body) > max_frame:
        raise ValueError(f"message of type {msg.get('type')!r} is {len(body)} bytes; the maximum frame is {max_frame}")
    return HEADER.pack(len(body)) + body


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not used by this protocol")


def decode_body(body: bytes, *, from_client: bool = True, max_frame: int = MAX_FRAME) -> dict:
    """Decode one frame body into a message map.

    ``from_client``: a server decoding a client's frame requires string map keys; a client
    accepts integer keys (hand summaries key some maps by seat number).  Raises
    :class:`ProtocolError` (code ``bad_frame`` or ``bad_message``, not fatal) for anything that
    is not one msgpack map with a string ``type``.
    """
    if not body:
        raise ProtocolError("bad_frame", "empty frame: a frame must hold one msgpack map with a 'type' key")
    try:
        obj = msgpack.unpackb(body, raw=False, strict_map_key=from_client, use_list=True,
                              ext_hook=_no_ext, timestamp=0)
    except Exception as exc:  # hostile input: msgpack raises many kinds (ExtraData, StackError, ...)
        raise ProtocolError("bad_frame", f"frame body is not one msgpack value ({type(exc).__name__}: "
                            f"{str(exc)[:80]}); a frame must hold one msgpack map with a 'type' key") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", f"a message must be a msgpack map with a 'type' key, got {_kind(obj)}")
    t = obj.get("type")
    if not isinstance(t, str):
        raise ProtocolError("bad_message", f"message 'type' must be a string, got {_kind(t)}")
    return obj


async def read_frame(reader: asyncio.StreamReader, *, max_frame: int = MAX_FRAME,
                     body_timeout: float | None = 10.0, tap=None) -> bytes:
    """Read one frame's body.

    Raises ``asyncio.IncompleteReadError`` when the peer closes (cleanly between frames, or
    mid-frame: a truncated frame), and fatal :class:`ProtocolError` for a length over
    ``max_frame`` (``too_large``) or a body that does not arrive within ``body_timeout``
    seconds of its header (``truncated``).  ``tap(bytes)`` sees every byte read (tests).
    """
    head = await reader.readexactly(HEADER.size)
    (n,) = HEADER.unpack(head)
    if n > max_frame:
        if tap is not None:
            tap(head)
        raise ProtocolError("too_large", f"frame of {n} bytes announced; the maximum frame is {max_frame} bytes",
                            fatal=True)
    try:
        body = await asyncio.wait_for(reader.readexactly(n), body_timeout) if n else b""
    except asyncio.TimeoutError:
        raise ProtocolError("truncated", f"frame of {n} bytes announced but not received within "
                            f"{body_timeout:g} s; send a whole frame", fatal=True) from None
    if tap is not None:
        tap(head + body)
    return body


def _kind(x: object) -> str:
    if x is None:
        return "nil"
    return {dict: "map", list: "array", str: "string", bytes: "binary", bool: "boolean", int: "integer",
            float: "float"}.get(type(x), type(x).__name__)


# ----------------------------------------------------------------------------------------
# client message schema
# ----------------------------------------------------------------------------------------
def _field(msg: dict, key: str, types: tuple, what: str, required: bool = False):
    v = msg.get(key)
    if v is None:
        if required:
            raise ProtocolError("bad_message", f"{msg['type']!r} message needs '{key}' ({what})")
        return None
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
        raise ProtocolError("bad_message", f"{msg['type']!r} field '{key}' must be {what}, got {_kind(v)}")
    return v


def _hex(v: str | None, key: str, lo: int, hi: int, mtype: str) -> None:
    if v is None:
        return
    if not lo <= len(v) <= hi or any(c not in "0123456789abcdef" for c in v):
        raise ProtocolError("bad_message", f"{mtype!r} field '{key}' must be {lo}..{hi} lowercase hex digits")


def clean_name(name: str) -> str:
    """A display name as the table shows it: printable, trimmed, at most :data:`NAME_MAX`."""
    name = "".join(c for c in name if c.isprintable()).strip()
    return name[:NAME_MAX]


def clean_chat(text: str) -> str:
    """A chat message as the table shows it: line breaks and tabs become spaces, other
    characters that are not printable (escape sequences, control characters) are dropped,
    runs of spaces are one, the ends trimmed.  Not cut: a longer text is refused whole."""
    text = "".join(" " if c in "\t\n\r\x0b\x0c\u2028\u2029" else c for c in text)
    return " ".join("".join(c for c in text if c.isprintable()).split())


def validate_client_message(msg: dict) -> dict:
    """Check a decoded client message against the schema of ``PROTOCOL.md``; returns it.

    Unknown keys are ignored (forward compatibility).  Raises :class:`ProtocolError`
    (``bad_type`` for an unknown type, ``bad_message`` for a wrong field; not fatal).
    """
    t = msg["type"]
    if t not in CLIENT_TYPES:
        raise ProtocolError("bad_type", f"message type {t[:40]!r} is not one a client may send; "
                            f"allowed: {', '.join(CLIENT_TYPES)}")
    if t == "join":
        p = _field(msg, "protocol", (int,), "an integer", required=True)
        if p != PROTOCOL_VERSION:
            raise ProtocolError("protocol", f"protocol version {p} is not supported; this server speaks "
                                f"version {PROTOCOL_VERSION}", fatal=True)
        name = _field(msg, "name", (str,), f"a string of 1..{NAME_MAX} printable characters")
        if name is not None and not clean_name(name):
            raise ProtocolError("bad_message", f"'join' field 'name' must hold 1..{NAME_MAX} printable characters")
        token = _field(msg, "token", (str,), f"the seat token the server gave (at most {TOKEN_MAX} characters)")
        if token is not None and not 0 < len(token) <= TOKEN_MAX:
            raise ProtocolError("bad_message", f"'join' field 'token' must be 1..{TOKEN_MAX} characters")
        seat = _field(msg, "seat", (int,), "a seat number 0..3")
        if seat is not None and not 0 <= seat <= 3:
            raise ProtocolError("bad_message", f"'join' field 'seat' must be 0..3, got {seat}")
        _hex(_field(msg, "cnonce", (str,), "lowercase hex"), "cnonce", 32, 64, t)
        _hex(_field(msg, "proof", (str,), "lowercase hex"), "proof", 64, 64, t)
    elif t == "action":
        seq = _field(msg, "seq", (int,), "the 'seq' of the request it answers (an integer)", required=True)
        if seq < 0:
            raise ProtocolError("bad_message", f"'action' field 'seq' must be >= 0, got {seq}")
        _field(msg, "action", (dict,), "a map {'seat', 'kind', 'tile'?, 'tiles'?}", required=True)
    elif t == "chat":
        text = _field(msg, "text", (str,), f"a string of 1..{CHAT_MAX} printable characters", required=True)
        if len(text) > 4 * CHAT_MAX:  # refused before it is cleaned (a 60 000-character text)
            raise ProtocolError("bad_message", f"'chat' field 'text' holds {len(text)} characters; a chat message "
                                f"is at most {CHAT_MAX}")
        cleaned = clean_chat(text)
        if not cleaned:
            raise ProtocolError("bad_message", f"'chat' field 'text' must hold 1..{CHAT_MAX} printable characters")
        if len(cleaned) > CHAT_MAX:
            raise ProtocolError("bad_message", f"'chat' field 'text' holds {len(cleaned)} characters; a chat message "
                                f"is at most {CHAT_MAX}")
        msg["text"] = cleaned
    elif t == "ping":
        pid = msg.get("id")
        if pid is not None and not (isinstance(pid, (int, str)) and not isinstance(pid, bool)
                                    and (not isinstance(pid, str) or len(pid) <= 64)
                                    and (not isinstance(pid, int) or -2**63 <= pid < 2**64)):
            raise ProtocolError("bad_message", "'ping' field 'id' must be an integer or a string of at most 64 characters")
    return msg


# ----------------------------------------------------------------------------------------
# password challenge–response
# ----------------------------------------------------------------------------------------
def new_nonce() -> str:
    """32 lowercase hex digits of fresh randomness."""
    return secrets.token_hex(16)


def new_token() -> str:
    """A fresh seat token: 24 URL-safe characters (144 random bits) that never begin with
    ``-``.  One ``secrets.token_urlsafe`` in 64 does, and a command line takes such a token
    for an option: ``join --token -x…`` was refused before it reached the table."""
    while True:
        token = secrets.token_urlsafe(18)
        if not token.startswith("-"):
            return token


def proof(password: str, role: str, server_nonce: str, client_nonce: str) -> str:
    """HMAC-SHA256 keyed with the UTF-8 password over ``"mahjong-tui/1 " + role + " " +
    server_nonce + " " + client_nonce``; ``role`` is ``"client"`` (the client's proof in
    ``join``) or ``"server"`` (the server's proof in ``welcome``).  64 hex digits."""
    msg = f"mahjong-tui/{PROTOCOL_VERSION} {role} {server_nonce} {client_nonce}".encode()
    return hmac.new(password.encode("utf-8"), msg, hashlib.sha256).hexdigest()


def check_proof(password: str, role: str, server_nonce: str, client_nonce: str, given: str | None) -> bool:
    """Constant-time check of a proof."""
    if not given:
        return False
    return hmac.compare_digest(proof(password, role, server_nonce, client_nonce), given)


#: PBKDF2 rounds of the stored table-password verifier (:func:`password_verifier`)
VERIFIER_ROUNDS = 200_000


def password_verifier(password: str) -> dict:
    """What a server keeps of its table password beside the journal, so that a resumed match
    can insist on the same password: ``{"salt": hex, "pbkdf2_sha256": hex, "rounds": N}``
    (salted PBKDF2-HMAC-SHA256; the password itself is never written)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, VERIFIER_ROUNDS)
    return {"salt": salt.hex(), "pbkdf2_sha256": digest.hex(), "rounds": VERIFIER_ROUNDS}


def check_verifier(password: str, verifier: dict) -> bool:
    """Does ``password`` match ``verifier`` (from :func:`password_verifier`)?  False for a
    malformed verifier."""
    try:
        salt = bytes.fromhex(verifier["salt"])
        rounds = int(verifier["rounds"])
        want = verifier["pbkdf2_sha256"]
        got = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, rounds).hex()
    except (KeyError, TypeError, ValueError):
        return False
    return hmac.compare_digest(got, str(want))


def token_hash(token: str) -> str:
    """What the server stores of a seat token (SHA-256 hex): a leaked seat file does not let
    anyone take a seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: the longest ``message`` of an ``error`` frame, in characters: a message that quotes what a
#: peer sent (a malformed tile of 60 000 characters) is cut here, so the reply always fits in a
#: frame and the peer is told what was wrong instead of being dropped
MAX_ERROR_TEXT = 400


def clip(text: str, limit: int = MAX_ERROR_TEXT) -> str:
    """``text`` cut to at most ``limit`` characters (the cut marked with ``…``)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def error(code: str, message: str, fatal: bool = False, **extra) -> dict:
    """An ``error`` message; ``message`` is cut to :data:`MAX_ERROR_TEXT` characters."""
    return {"type": "error", "code": code, "message": clip(message), "fatal": fatal, **extra}
