"""Keep a command in the foreground while the services it started run."""

from __future__ import annotations

import sys
from collections.abc import Callable


def wait_until_stopped(alive: Callable[[], bool], stop: Callable[[], None],
                       why: Callable[[], str | None] | None = None) -> int:
    """Block until SIGTERM or Ctrl-C (then ``stop()``: 0) or until ``alive()`` fails (1;
    ``why()``, when given, says what exited)."""
    import signal
    import time

    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        while not stopping:
            if not alive():
                print(f"error: {(why and why()) or 'the service exited'}", file=sys.stderr)
                return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    return 0
