"""A Redis that moved (a container restarted at another address) leaves the old address
silent: the kernel there drops connection attempts unanswered. The workers' broker
connections give up after ``redis_timeout_s`` and try again, instead of waiting for TCP to
give up (about 2 min) with the worker's main loop blocked and no episode taken."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from services.renderer.app import make_celery
from services.renderer.send import send_episodes
from services.renderer.settings import RendererSettings


@contextmanager
def silent_address() -> Iterator[int]:
    """A local port whose listening socket never accepts and whose accept queue is full:
    further connection attempts get no answer at all, as at a vanished host's address."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(server.getsockname())
        fillers.append(filler)
    time.sleep(0.2)
    try:
        yield server.getsockname()[1]
    finally:
        for s in (*fillers, server):
            s.close()


def test_a_silent_broker_address_fails_within_the_timeout():
    with silent_address() as port:
        celery = make_celery(RendererSettings(redis_url=f"redis://127.0.0.1:{port}/0",
                                              queue="silent", redis_timeout_s=1))
        outcome: list[BaseException | None] = []

        def send() -> None:
            try:
                send_episodes(celery, "silent", ["an-episode"])
                outcome.append(None)
            except Exception as exc:  # noqa: BLE001 - what the caller would see
                outcome.append(exc)

        started = time.monotonic()
        thread = threading.Thread(target=send, daemon=True)
        thread.start()
        thread.join(30)
        took = time.monotonic() - started
    assert not thread.is_alive(), "still waiting on the silent address after 30 s"
    assert outcome and outcome[0] is not None and took < 10, (outcome, took)
