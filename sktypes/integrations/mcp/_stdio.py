"""The stdio transport on the event loop's own pipes: no thread per message.

The SDK's ``stdio_server`` reads and writes through worker threads (portable to Windows and
to regular files), several thread hand-offs per call. When stdin and stdout are pipes or
sockets — what an MCP client gives the process it starts — this transport reads and writes
them on the event loop instead (``loop.connect_read_pipe``/``connect_write_pipe``) and feeds
the same ``Server.run`` the same messages. Otherwise :func:`stdio_streams` yields ``None``
and the SDK's transport is used.

As with the SDK's, the wire gets private copies of the descriptors while serving: fd 0 reads
the null device and fd 1 writes to stderr, so a plugin's stray ``print`` cannot corrupt the
protocol; both are restored afterwards.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp.types as types
from mcp.shared.message import SessionMessage

__all__ = ["stdio_streams"]

_LIMIT = 64 * 1024 * 1024  # one JSON-RPC message per line; tool arguments can be large


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[Any, Any] | None]:
    """``(read_stream, write_stream)`` for ``Server.run`` on stdin/stdout, or ``None``.

    ``None`` when they are not pipes or sockets (a terminal, a file) or on Windows: the
    caller then uses the SDK's ``stdio_server``.
    """
    if sys.platform == "win32" or not (_is_pipe(0) and _is_pipe(1)):
        yield None
        return
    sys.stdout.flush()
    saved_in, saved_out = os.dup(0), os.dup(1)  # to put back at the end
    wire_in, wire_out = os.dup(0), os.dup(1)  # the transports' (they close them)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=_LIMIT)
    read_pipe = os.fdopen(wire_in, "rb", buffering=0)
    write_pipe = os.fdopen(wire_out, "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), read_pipe
    )
    write_transport, write_protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, write_pipe
    )
    writer = asyncio.StreamWriter(write_transport, write_protocol, None, loop)
    to_server, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def pump_in() -> None:
        async with to_server:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError) as exc:  # an over-long line
                    await to_server.send(exc)
                    continue
                if not line:
                    return
                if not line.strip():
                    continue
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except Exception as exc:  # the SDK answers a malformed message itself
                    await to_server.send(exc)
                    continue
                await to_server.send(SessionMessage(message))

    async def pump_out() -> None:
        async with from_server:
            async for item in from_server:
                data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                writer.write(data.encode() + b"\n")
                await writer.drain()

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(pump_in)
            tg.start_soon(pump_out)
            yield read_stream, write_stream
            tg.cancel_scope.cancel()
    finally:
        read_transport.close()
        write_transport.close()
        sys.stdout.flush()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
