"""What a server on a public address counts and refuses: token buckets, the address key
the per-address limits count, the open-files limit, and the log of refusals.

    bucket = Bucket(20.0, 40)             # 20 a second, bursts of 40
    bucket.take()                         # False: over the rate (``now`` may be given)
    address_key("2001:db8::1")            # "2001:db8::/64": one subscriber's prefix
    refusals = Refusals(log)
    refusals.refuse("203.0.113.9", "create", "too_many_rooms: ...")   # one log line
    refusals.often("connection", key, "...")   # a flood: the first logged, the rest counted

Nothing here knows a room or a socket (koikoi.net.server and koikoi.net.service use it).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from typing import Optional


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst``. Every call may give
    ``now`` (one clock per bucket: time.monotonic() by default)."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: int, now: Optional[float] = None):
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic() if now is None else now

    def _fill(self, now: Optional[float]) -> None:
        now = time.monotonic() if now is None else now
        if now > self.at:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now

    def take(self, now: Optional[float] = None) -> bool:
        self._fill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def charge(self, tokens: float) -> None:
        """Take ``tokens`` more (a costly request), into debt if need be."""
        self.tokens -= tokens

    def empty(self, now: Optional[float] = None) -> bool:
        self._fill(now)
        return self.tokens < 1.0

    def full(self, now: Optional[float] = None) -> bool:
        self._fill(now)
        return self.tokens >= self.burst


def address_key(ip: str) -> str:
    """What the per-address limits count: the address, or for IPv6 its /64 (one
    subscriber's prefix: a host picks any address in it); an IPv4 mapped into IPv6 is
    the IPv4 address."""
    if ":" not in ip:
        return ip
    try:
        addr = ipaddress.IPv6Address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(ipaddress.IPv6Network((addr, 64), strict=False))


def raise_open_files() -> Optional[tuple[int, int]]:
    """Raise this process's soft open-files limit to its hard one (``koikoi serve`` does at
    start): (old, new), or None where there is no such limit or it cannot change."""
    try:
        import resource     # platform: Unix only; Windows has no such module (and no such limit)
    except ImportError:
        return None
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        if soft == resource.RLIM_INFINITY or target <= soft:
            return None
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return soft, target
    except (OSError, ValueError):
        return None


def open_files_limit() -> Optional[int]:
    """The soft open-files limit of this process, or None if it has none."""
    try:
        import resource     # platform: Unix only (as above)
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


class Refusals:
    """Every refusal is counted (``count``) and logged on one line, never with a card."""

    def __init__(self, logger: logging.Logger):
        self.log = logger
        self.count = 0
        self._quiet: dict[tuple, int] = {}       # (what, address) -> refusals not logged yet

    def refuse(self, who: str, what: str, reason: str) -> None:
        self.count += 1
        self.log.info("refused %s from %s: %s", what, who, reason.replace("\n", " ")[:200])

    def often(self, what: str, key: str, reason: str) -> None:
        """A refusal that a flood repeats (connections): the first from ``key`` is logged,
        the rest counted and logged once a sweep (``flush``)."""
        self.count += 1
        n = self._quiet.get((what, key))
        if n is None:
            self._quiet[(what, key)] = 0
            self.log.info("refused %s from %s: %s (more from there are counted, logged once a minute)",
                          what, key, reason)
        else:
            self._quiet[(what, key)] = n + 1

    def flush(self) -> None:
        for (what, key), n in self._quiet.items():
            if n:
                self.log.info("refused %d more %s(s) from %s", n, what, key)
        self._quiet.clear()


class Guesses:
    """Wrong room codes and tokens: a budget per address and one for every address
    together (a botnet guessing from many addresses is slowed too)."""

    def __init__(self, rate: float, burst: int, total_rate: float, total_burst: int):
        self.rate, self.burst = rate, burst
        self._per: dict[str, Bucket] = {}
        self._all = Bucket(total_rate, total_burst, 0.0)

    def blocked(self, key: str, now: float) -> Optional[str]:
        """"too_many_tries" (this address), "server_busy" (every address) or None."""
        b = self._per.get(key)
        if b is not None and b.empty(now):
            return "too_many_tries"
        if self._all.empty(now):
            return "server_busy"
        return None

    def wrong(self, key: str, now: float) -> None:
        b = self._per.get(key)
        if b is None:
            b = self._per[key] = Bucket(self.rate, self.burst, now)
        b.take(now)
        self._all.take(now)

    def forget_quiet(self, now: float) -> None:
        """Drop the counters of addresses whose budget is full again."""
        for key, b in list(self._per.items()):
            if b.full(now):
                del self._per[key]


__all__ = ["Bucket", "Guesses", "Refusals", "address_key", "open_files_limit", "raise_open_files"]
