"""Framing, schema and challenge–response, without a server."""

from __future__ import annotations

import asyncio
import struct
import subprocess
import sys

import msgpack
import pytest

from mahjong_tui.net.client import parse_address
from mahjong_tui.net.protocol import (MAX_FRAME, NetError, ProtocolError, check_proof, clean_name, decode_body,
                                      encode, proof, read_frame, validate_client_message)

from .util import ROOT


def test_encode_decode_roundtrip_and_header():
    msg = {"type": "action", "seq": 3, "action": {"seat": 1, "kind": "discard", "tile": "5t"}}
    frame = encode(msg)
    (n,) = struct.unpack(">I", frame[:4])
    assert n == len(frame) - 4
    assert decode_body(frame[4:]) == msg


def test_server_messages_may_key_maps_by_seat_but_clients_may_not():
    body = msgpack.packb({"type": "update", "loser_scores": {1: 3}})
    assert decode_body(body, from_client=False)["loser_scores"] == {1: 3}
    with pytest.raises(ProtocolError) as e:
        decode_body(body, from_client=True)
    assert e.value.code == "bad_frame" and not e.value.fatal


@pytest.mark.parametrize("body,code", [
    (b"", "bad_frame"),
    (b"\xc1", "bad_frame"),  # never-used msgpack byte
    (msgpack.packb({"type": "ping"}) + b"\x00", "bad_frame"),  # extra data
    (b"\x91" * 5000 + b"\xc0", "bad_frame"),  # nesting deeper than the decoder allows
    (msgpack.packb([1, 2]), "bad_message"),
    (msgpack.packb({"kind": "x"}), "bad_message"),
    (msgpack.packb({"type": 5}), "bad_message"),
    (msgpack.packb({"type": "action", "x": msgpack.ExtType(3, b"zz")}), "bad_frame"),
    (b"\x81\xa4type\xa4\xff\xfe\xfd\xfc", "bad_frame"),  # invalid UTF-8
])
def test_bad_bodies_are_reported_not_fatal(body, code):
    with pytest.raises(ProtocolError) as e:
        decode_body(body)
    assert e.value.code == code and not e.value.fatal
    assert "allowed" in str(e.value) or "must" in str(e.value) or "frame" in str(e.value)


@pytest.mark.parametrize("msg,code", [
    ({"type": "hello"}, "bad_type"),
    ({"type": "join"}, "bad_message"),
    ({"type": "join", "protocol": 2}, "protocol"),
    ({"type": "join", "protocol": 1, "seat": 4}, "bad_message"),
    ({"type": "join", "protocol": 1, "name": "\x00\x01"}, "bad_message"),
    ({"type": "join", "protocol": 1, "proof": "XYZ"}, "bad_message"),
    ({"type": "join", "protocol": True}, "bad_message"),
    ({"type": "action", "action": {}}, "bad_message"),
    ({"type": "action", "seq": -1, "action": {}}, "bad_message"),
    ({"type": "action", "seq": 0, "action": [1]}, "bad_message"),
    ({"type": "ping", "id": [1]}, "bad_message"),
])
def test_schema_errors_name_what_is_allowed(msg, code):
    with pytest.raises(ProtocolError) as e:
        validate_client_message(msg)
    assert e.value.code == code
    assert e.value.fatal == (code == "protocol")


def test_valid_client_messages_pass():
    for m in ({"type": "join", "protocol": 1, "name": "Ann", "seat": 2},
              {"type": "action", "seq": 0, "action": {"seat": 0, "kind": "pass"}, "future_key": 1},
              {"type": "ping", "id": "x"}, {"type": "bye"}):
        assert validate_client_message(m) is m


def test_proofs_bind_password_role_and_both_nonces():
    p = proof("pw", "client", "a" * 32, "b" * 32)
    assert len(p) == 64 and "pw" not in p
    assert check_proof("pw", "client", "a" * 32, "b" * 32, p)
    assert not check_proof("pw2", "client", "a" * 32, "b" * 32, p)
    assert not check_proof("pw", "server", "a" * 32, "b" * 32, p)
    assert not check_proof("pw", "client", "c" * 32, "b" * 32, p)
    assert not check_proof("pw", "client", "a" * 32, "b" * 32, None)


def test_names_are_cleaned():
    assert clean_name("  Ann\x1b[31m\n ") == "Ann[31m"
    assert len(clean_name("x" * 100)) == 24


async def test_read_frame_limits():
    r = asyncio.StreamReader()
    r.feed_data(struct.pack(">I", MAX_FRAME + 1))
    with pytest.raises(ProtocolError) as e:
        await read_frame(r)
    assert e.value.code == "too_large" and e.value.fatal
    r = asyncio.StreamReader()
    r.feed_data(struct.pack(">I", 10) + b"abc")
    with pytest.raises(ProtocolError) as e:
        await read_frame(r, body_timeout=0.05)
    assert e.value.code == "truncated" and e.value.fatal
    r = asyncio.StreamReader()
    r.feed_data(struct.pack(">I", 10) + b"abc")
    r.feed_eof()
    with pytest.raises(asyncio.IncompleteReadError):
        await read_frame(r)


def test_parse_address():
    assert parse_address("127.0.0.1:7777") == ("127.0.0.1", 7777)
    assert parse_address("host") == ("host", 7777)
    assert parse_address("[::1]:99") == ("::1", 99)
    for bad in ("h:0", "h:x", ":5", "h:70000", "[::1"):
        with pytest.raises(NetError):
            parse_address(bad)


def test_net_package_never_imports_textual():
    code = ("import sys, mahjong_tui.net.commands, mahjong_tui.net.server, mahjong_tui.net.client; "
            "bad = [m for m in sys.modules if m.split('.')[0] == 'textual']; print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_cli_errors_are_one_line_exit_2():
    r = subprocess.run([sys.executable, "-m", "mahjong_tui.net", "join", "127.0.0.1:1", "--bot", "normal",
                        "--retry", "0"], cwd=str(ROOT), capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot connect" in r.stderr
    r = subprocess.run([sys.executable, "-m", "mahjong_tui.net", "serve", "--seats", "human,remote,ai,ai", "--port", "0",
                        "--log", "/dev/null/x"], cwd=str(ROOT), capture_output=True, text=True)
    assert r.returncode == 2 and "serve has no local player" in r.stderr


def test_add_net_arguments_fits_the_main_cli(tmp_path):
    """The options of ``add_net_arguments`` sit on the main CLI's host/serve/join parsers
    without clashing, and ``build_server`` accepts what they parse."""
    from mahjong_tui import cli
    from mahjong_tui.net.args import add_net_arguments
    from mahjong_tui.net.commands import build_server

    parser = cli.build_parser()
    subs = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    for name in ("host", "serve", "join"):
        if not any(a.dest in ("log", "token") for a in subs[name]._actions):  # not wired yet
            add_net_arguments(subs[name], name)
    args = parser.parse_args(["serve", "--port", "0", "--log", str(tmp_path / "x.jsonl"), "--turn-timeout", "off",
                              "--claim-timeout", "5", "--seats", "remote,ai,ai:easy,remote", "--hands", "1"])
    server, what = build_server(args, local_humans=False, note=lambda t: None)
    assert server.turn_timeout is None and server.claim_timeout == 5 and "new match" in what
    args = parser.parse_args(["host", "--port", "0", "--log", str(tmp_path / "y.jsonl")])
    assert args.bot_delay == 0.5 and args.seats[0] == "human"
    args = parser.parse_args(["join", "h:1", "--token", "t", "--retry", "3", "--bot", "easy"])
    assert args.token == "t" and args.retry == 3 and args.bot == "easy"


def test_a_failing_bot_never_takes_the_table_down():
    from mahjong_tui.engine import Action
    from mahjong_tui.net.client import SafeBot

    class Broken:
        name = "broken"

        def choose(self, view, legal):
            raise AttributeError("bug")

    notes = []
    bot = SafeBot(Broken(), on_error=notes.append)
    claim = [Action(1, "pung", 5), Action(1, "pass")]
    turn = [Action(0, "discard", 5), Action(0, "discard", 9)]
    assert bot.choose({}, claim) == Action(1, "pass")
    assert bot.choose({}, turn) == Action(0, "discard", 9)
    assert bot.failures == 2 and "AttributeError: bug" in notes[0]
