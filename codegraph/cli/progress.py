"""The progress display of ``init``/``index``/``sync`` on a terminal (issue 14): one line on stderr that
names the phase (discovering, parsing N/M with a bar, rate and ETA, resolving, writing), redrawn at most
every 0.2 s, not once per file. Drawn only when stdout and stderr are both terminals and ``--json`` is
off, so pipes, logs and JSON consumers never see it. The bar is click's ``progressbar``."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

import click

REDRAW_SECONDS = 0.2
_CLEAR = "\r\x1b[K"


def wanted(as_json: bool, stdout: TextIO | None = None, stderr: TextIO | None = None) -> bool:
    """Draw progress? Only on a terminal (stdout and stderr) and never with ``--json``."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    return not as_json and _isatty(stdout) and _isatty(stderr)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class TerminalProgress:
    """Callbacks for :func:`codegraph.index.indexer.index_project`: ``phase(name, count)`` and
    ``progress(done, total)``; :meth:`close` clears the line before the summary is printed."""

    def __init__(self, stream: TextIO | None = None, *, interval: float = REDRAW_SECONDS):
        self.stream = stream or sys.stderr
        self.interval = interval
        self.bar: Any = None  # a click progress bar while parsing
        self.drawn = 0.0
        self.shown = 0  # files the bar shows as done
        self.started = time.monotonic()
        self.parse_started = self.started

    def phase(self, name: str, count: int | None) -> None:
        self._end_bar()
        if name == "parsing" and count:
            self.parse_started = time.monotonic()
            self.bar = click.progressbar(
                length=count,
                label="parsing",
                show_eta=False,  # click re-estimates once a second only: the ETA is ours (below)
                show_pos=True,
                show_percent=False,
                item_show_func=lambda rate: rate,
                file=self.stream,
                width=24,
            )
            self.bar.__enter__()
            self.shown = 0
            self.drawn = time.monotonic()
            return
        what = f" {count:,} {'file' if count == 1 else 'files'}" if count else ""
        label = {"discovering": "discovering files", "parsing": "parsing"}.get(name, name)
        self._write(f"{_CLEAR}{label}{what}…")

    def progress(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        now = time.monotonic()
        if done < total and now - self.drawn < self.interval:
            return
        self.drawn = now
        elapsed = now - self.parse_started
        rate = done / elapsed if elapsed > 0 else 0.0
        text = f"{rate:,.0f} files/s" if rate else ""
        if rate and done < total:
            text += f", ETA {_duration((total - done) / rate)}"
        self.bar.update(done - self.shown, text)
        self.shown = done

    def close(self) -> None:
        self._end_bar()
        self._write(_CLEAR + "\x1b[?25h")  # click hid the cursor while the bar was drawn

    def _end_bar(self) -> None:
        if self.bar is not None:
            bar, self.bar = self.bar, None
            bar.finished = True  # keep click from printing its own final newline: the line is reused
            bar.render_finish = lambda: None
            bar.__exit__(None, None, None)

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def _duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02}s"
    return f"{s // 3600}h{s % 3600 // 60:02}m"


def say_waiting(holder: dict, wait_seconds: float) -> None:
    """One line on stderr while a command waits for the index run another process holds."""
    started = holder.get("started")
    since = f", started {time.time() - started:.0f} s ago" if isinstance(started, (int, float)) else ""
    click.echo(
        f"codegraph: waiting for the index run already going (pid {holder.get('pid')}{since}) to finish; "
        f"up to {wait_seconds:g} s, Ctrl-C stops waiting",
        err=True,
    )
