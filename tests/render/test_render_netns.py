"""The browser's own network namespace is a layer that holds alone: with the resolver and
proxy switches, the document-start script's WebRTC and constructor guards and Chromium's
preferences off, requests the router never sees (a SharedWorker's fetch, a Worker's
WebSocket, speculation-rules prefetches, WebRTC's STUN and TURN) reach a loopback listener
from a browser on the host's network, and none does from one in its namespace. Chromium's
preferences alone keep WebRTC's packets and the prefetches in."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.render import chromium, document_start, preferences, slot
from designrl.render.netns import NETNS, unshare_command

PROBE_S = 2.5  # how long the page may try before we look at the listeners


class Listeners:
    """A TCP and a UDP socket on 127.0.0.1 that note every connection or datagram."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp.settimeout(0.2)
        self.tcp.settimeout(0.2)
        self.hits: list[str] = []
        self._stop = threading.Event()
        for target in (self._accept, self._receive):
            threading.Thread(target=target, daemon=True).start()

    @property
    def ports(self) -> tuple[int, int]:
        return self.tcp.getsockname()[1], self.udp.getsockname()[1]

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                continue
            conn.settimeout(1.0)
            try:
                self.hits.append("tcp " + conn.recv(200).split(b"\r\n", 1)[0].decode("latin-1"))
            except OSError:
                self.hits.append("tcp")
            conn.close()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                self.udp.recvfrom(2048)
                self.hits.append("udp")
            except OSError:
                continue

    def close(self) -> None:
        self._stop.set()
        self.tcp.close()
        self.udp.close()


def probe_page(tcp: int, udp: int) -> str:
    base = f"127.0.0.1:{tcp}"
    return f"""<p>probe</p>
<script type="speculationrules">{{"prefetch": [{{"source": "list",
  "urls": ["http://{base}/speculation"]}}]}}</script>
<script>
const blob = (code) => URL.createObjectURL(new Blob([code]));
new SharedWorker(blob("fetch('http://{base}/shared-worker').catch(() => {{}})"));
new Worker(blob("try {{ new WebSocket('ws://{base}/worker-websocket') }} catch (e) {{}}"));
try {{
  const pc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:{udp}'}},
    {{urls: 'turn:127.0.0.1:{udp}', username: 'u', credential: 'p'}}]}});
  pc.createDataChannel('x');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
}} catch (e) {{}}
</script>"""


def probe(monkeypatch, network_namespace: bool, chromium_preferences: bool = False) -> list[str]:
    """What reached the listeners from a pool with no resolver or proxy switches."""
    require_chromium()
    monkeypatch.setattr(chromium, "NO_NETWORK_FLAGS", [])
    if not chromium_preferences:
        monkeypatch.setattr(preferences, "PREFERENCES", {})
    # and the document-start script's WebRTC guard (it deletes the constructors) and
    # constructor guards (they refuse SharedWorkers, and start Workers from our script)
    monkeypatch.setattr(slot, "DOCUMENT_START_JS", document_start.DOCUMENT_START_JS
                        .replace(document_start._NO_WEBRTC, "")
                        .replace(document_start._CONSTRUCTOR_GUARDS, ""))
    listeners = Listeners()
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=1, timeout_s=10.0,
                        network_namespace=network_namespace)
    try:
        assert (runner.pool.network.mode == NETNS) is network_namespace

        async def lease():
            async with runner.pool.page(probe_page(*listeners.ports)):
                await asyncio.sleep(PROBE_S)

        runner.run(lease())
        return list(listeners.hits)
    finally:
        runner.close()
        listeners.close()


def test_without_the_namespace_the_probes_reach_the_host(monkeypatch):
    """The control: these probes do get out when only the router stands in the way."""
    hits = probe(monkeypatch, network_namespace=False)
    assert "tcp GET /speculation HTTP/1.1" in hits and "udp" in hits, hits


def test_chromium_preferences_alone_keep_webrtc_packets_and_prefetches_in(monkeypatch):
    """No namespace, no switches, no script guard: only ``disable_non_proxied_udp`` and
    no preloading. The workers' connections still get out (the control)."""
    hits = probe(monkeypatch, network_namespace=False, chromium_preferences=True)
    assert hits and "udp" not in hits and not any("/speculation" in hit for hit in hits), hits


def test_the_namespace_alone_keeps_every_probe_in(monkeypatch):
    if unshare_command() is None:
        pytest.skip("no network namespace can be made here (needs root or user namespaces)")
    assert probe(monkeypatch, network_namespace=True) == []


def test_the_pool_reports_its_isolation_and_the_browser_is_in_its_own_namespace():
    import os

    from designrl.render.chromium import browser_pids

    require_chromium()
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=1)
    try:
        pool = runner.pool
        assert runner.render("<p>inside</p>").ok
        expected = NETNS if unshare_command() is not None else "routing-only"
        assert pool.network.mode == expected
        # as root it keeps it by running Chromium as another user (test_render_chromium_sandbox)
        assert pool.chromium_sandbox is (os.geteuid() != 0 or pool.run_as is not None)
        own = os.readlink("/proc/self/ns/net")
        browser = browser_pids(pool._handles[0].marker)[0]
        assert (os.readlink(f"/proc/{browser}/ns/net") != own) is (expected == NETNS)
    finally:
        runner.close()
