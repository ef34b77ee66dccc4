"""Where bots decide, Python's cyclic garbage collector must not pause inside a decision.

A full collection (generation 2) walks every live object; once the bots' memo tables and the
hand analysis' tables are large that takes 50-200 ms, and one falling inside a bot's
decision was the slowest decision of four of the five variants (issue 23 item 4; figures in
``tests/bench/ai_results.md``).  What outlives a hand (those tables, the match record) is
long-lived, so at each hand's end it is moved out of the collector's reach with
:func:`gc.freeze`; objects still die by reference counting as usual, and the next full
collection walks only what the new hand made.

One place for every table that runs bots: ``sim`` (:func:`mahjong_tui.sim.simulate`), the
table runner of the app and of ``serve`` (:class:`mahjong_tui.runner.TableRunner`, at each
``hand_end`` event) and ``tests/bench/bench_ai.py``.  The UI's key-time collector
(``ui/widgets/areas.py`` ``Collector``) only turns collection off and on; freezing does
not touch that switch.
"""

from __future__ import annotations

import gc


def hand_ended() -> None:
    """A hand is over: freeze every object alive now (:func:`gc.freeze`).  Cheap (no walk)."""
    gc.freeze()


def match_ended() -> None:
    """The match is over (or its table closed): give the frozen objects back to the collector
    (:func:`gc.unfreeze`), so a process that plays many matches (a server) frees the cycles
    of finished ones."""
    gc.unfreeze()
