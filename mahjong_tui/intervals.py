"""95 % intervals of the statistics ``sim --duplicate`` and ``lab`` report (CLI.md).

- :func:`wilson` — a rate (``k`` events in ``n`` trials): the Wilson score interval;
- :func:`mean_interval` — a mean of independent values: the normal approximation, mean ± z·s/√n
  with ``s`` the sample standard deviation (n − 1 in the denominator).

``z`` is the two-sided 95 % point of the standard normal, 1.959964.  Pure Python, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the two-sided 95 % point of the standard normal distribution
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(lo, hi)`` of the rate ``k / n``, both in 0..1::

        centre = (p + z²/2n) / (1 + z²/n),  half = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n)

    It stays inside 0..1 and keeps a width at ``k = 0`` or ``k = n`` (the plain p ± z·√(p(1−p)/n)
    shrinks to nothing there).  ``n = 0`` gives ``(0.0, 1.0)``: nothing is known.  Raises
    ValueError unless ``0 <= k <= n``."""
    if not 0 <= k <= n:
        raise ValueError(f"a rate needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float] | None:
    """``(mean, lo, hi)`` of independent ``values``: mean ± z·s/√n, ``s`` the sample standard
    deviation (divided by n − 1).  The normal approximation: with the hundreds of values a run
    gives, Student's t and the normal point differ in the third digit.  None for fewer than
    two values (no spread to measure)."""
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def spread(values: Sequence[float]) -> float:
    """The sample standard deviation of ``values`` (n − 1 in the denominator); 0.0 for fewer than two."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1))
