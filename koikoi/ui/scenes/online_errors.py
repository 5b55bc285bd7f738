"""What an OS or network error is, from its type and errno (no words: the sentences the
screens show are ``online_table``'s and ``online``'s, chosen by the kind found here)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import re
import socket
from typing import Optional


_ERRNO_KINDS = (      # (kind, errno values; the 100xx are Windows' WSA codes)
    ("refused", {errno.ECONNREFUSED, 10061}),
    ("timeout", {errno.ETIMEDOUT, 10060}),
    ("unreachable", {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN,
                     getattr(errno, "EHOSTDOWN", -1), 10050, 10051, 10064, 10065}),
    ("denied", {errno.EACCES, errno.EPERM, 10013}),
    ("in_use", {errno.EADDRINUSE, 10048}),
    ("reset", {errno.ECONNRESET, errno.ECONNABORTED, errno.EPIPE, 10053, 10054}),
    ("no_space", {errno.ENOSPC}),
)
_ERRNO_IN_TEXT = re.compile(r"\[(?:Errno|WinError) (-?\d+)\]")


def os_error_kind(exc: BaseException) -> Optional[str]:
    """What an OS or network error is, from its type and errno: "refused", "timeout",
    "unknown_host", "unreachable", "denied", "in_use", "reset", "no_space"; None for
    anything else. (A connection tried on several addresses fails with one OSError
    without an errno, "Multiple exceptions: [Errno 111] ..., [Errno 111] ...": the
    first errno in it is used.)"""
    if isinstance(exc, socket.gaierror):
        return "unknown_host"
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError, concurrent.futures.TimeoutError)):
        return "timeout"
    if not isinstance(exc, OSError):
        return None
    if isinstance(exc, ConnectionRefusedError):
        return "refused"
    if isinstance(exc, PermissionError):
        return "denied"
    if isinstance(exc, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):
        return "reset"
    codes = [exc.errno, getattr(exc, "winerror", None)]
    if exc.errno is None:
        codes += [int(n) for n in _ERRNO_IN_TEXT.findall(str(exc))[:1]]
    for code in codes:
        if code is None:
            continue
        for kind, values in _ERRNO_KINDS:
            if code in values:
                return kind
    return None
