"""The console's output may be a pipe its reader closes early (`nightfall play | head`): then
the program ends at once and quietly (issue 32), instead of waiting on its script for a
reader that is gone, or printing a BrokenPipeError on the way out.

A write that meets the closed pipe says so (ConsoleAdapter.closed); while the program waits
for the next script line (a terminal's stdin can wait for ever) the pipe's error condition,
which the event loop reports as readable, says so too.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import os
import select
import stat
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TextIO

POLL = 0.2  # seconds between looks at a script that sends nothing (to see `done`)


def watch_closed(out: TextIO, closed: asyncio.Event) -> Callable[[], None]:
    """Set `closed` when the pipe `out` writes to loses its reader; returns the undo. Not a
    pipe (a terminal, a file, a StringIO): nothing to watch."""
    try:
        fd = out.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return lambda: None
    except (OSError, ValueError, io.UnsupportedOperation):
        return lambda: None
    loop = asyncio.get_running_loop()
    # epoll reports a pipe's write end in error (its reader closed) to any watcher of it
    loop.add_reader(fd, closed.set)

    def undo() -> None:
        loop.remove_reader(fd)

    return undo


async def lines_of(script: TextIO, closed: asyncio.Event) -> AsyncIterator[str]:
    """The script's lines, until it ends or `closed` is set. A daemon thread reads them, so
    a read that never returns (a terminal nobody types into) does not hold the exit."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue()
    done = threading.Event()

    def read() -> None:
        for line in _read_lines(script, done):
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, "")

    threading.Thread(target=read, name="console-script", daemon=True).start()
    try:
        while not closed.is_set():
            line = asyncio.ensure_future(queue.get())
            stop = asyncio.ensure_future(closed.wait())
            await asyncio.wait((line, stop), return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if not line.done():
                line.cancel()
                return
            if not line.result():
                return
            yield line.result()
    finally:
        done.set()


def _read_lines(script: TextIO, done: threading.Event) -> Iterator[str]:
    """A file's lines as they come. A real file descriptor is read raw, a poll at a time:
    a thread blocked in the buffered `sys.stdin` would hold its lock when the interpreter
    shuts down (a fatal error), and `done` could not end it."""
    try:
        fd = script.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        yield from iter(script.readline, "")
        return
    decoder = codecs.getincrementaldecoder(script.encoding or "utf-8")(errors="replace")
    pending = ""
    while not done.is_set():
        if not select.select([fd], [], [], POLL)[0]:
            continue
        chunk = os.read(fd, 65536)
        pending += decoder.decode(chunk, final=not chunk)
        *lines, pending = pending.split("\n")
        for line in lines:
            yield line + "\n"
        if not chunk:
            break
    if pending and not done.is_set():
        yield pending


def silence(out: TextIO) -> None:
    """Point `out`'s descriptor at /dev/null, so that the flush at exit finds no closed pipe
    (Python's advice for SIGPIPE; see the `signal` module's documentation)."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        os.close(devnull)
