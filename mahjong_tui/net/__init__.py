"""LAN play: protocol (framing, schema), server, client, commands.  See ``PROTOCOL.md`` here.

No Textual here; the TUI uses :class:`~mahjong_tui.net.client.NetClient` and
:func:`~mahjong_tui.net.commands.start_host`.
"""

from .protocol import MAX_FRAME, PROTOCOL_VERSION, NetError, ProtocolError

__all__ = ["MAX_FRAME", "PROTOCOL_VERSION", "NetError", "ProtocolError"]
