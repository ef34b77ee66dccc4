"""LAN play: ``protocol`` (framing, schema), ``server``, ``client``, ``commands`` (entry
points) and ``args`` (options for the main CLI).  The wire format is in ``PROTOCOL.md`` here.

No Textual anywhere in this package; the TUI uses :class:`~mahjong_tui.net.client.NetClient`
and :func:`~mahjong_tui.net.commands.start_host`.  Nothing is imported here so that
``mahjong_tui.net.args`` stays cheap for the CLI's parser.
"""
