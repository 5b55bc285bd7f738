"""The room store as the transport writes it: each write on the store's writer thread
(``rooms.Writer``: the writes of many rooms in one commit), awaited, so the event loop
never waits for the disk and an acknowledged action is on disk before its answer.

    store = AwaitedStore(RoomStore(folder))
    rowid = await store.call("create", room)          # any RoomStore write, by name
    fut = store.later("create", room)                 # ... its future, not awaited
    await store.append(room, start, events, status, result)   # session.MoveStore

The room service (``koikoi.net.service``) names its writes the same way
(``Write.op``, ``Write.args``), so the transport runs them here and the socket-free
tests through the synchronous ``RoomStore`` itself.
"""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from .rooms import RoomStore


class AwaitedStore:
    """``RoomStore``'s writes, awaited (a ``koikoi.session.MoveStore``)."""

    def __init__(self, store: RoomStore):
        self.rooms = store

    def later(self, op: str, *args) -> "asyncio.Future":
        """``RoomStore.<op>(*args)`` started on the writer thread: a future of the running
        loop, done with what it returns once committed (StoreError if it was not: nothing
        of it was written). The server goes on from its done callback, with no task."""
        return self.rooms.later_on(asyncio.get_running_loop(), op, *args)

    async def call(self, op: str, *args) -> Any:
        """``later``, awaited."""
        return await self.later(op, *args)

    async def append(self, room, start: int, events, status: str, result: Optional[dict]) -> float:
        return await self.call("append", room, start, events, status, result)


__all__ = ["AwaitedStore"]
