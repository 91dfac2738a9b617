"""Test hosts: network namespaces linked to this machine by veth pairs, for tests of
workers on other hosts.

A ``TestHost`` is a namespace with its own /30 (this side ``.1``, the host ``.2``) and
nothing else: no route anywhere but this side's address. This machine's Redis and
Postgres listen on loopback only, so forwarders (``TcpProxy``) listen on this side's
address and pass to them; the host's processes reach the services as ``.1:<port>``.
``cut()`` takes this side's end of the link down, as a pulled cable does: packets in
both directions are dropped and nothing is reset, so open connections just go silent;
``heal()`` brings it back up and the kernel restores the link's routes.

Needs root (``CAP_NET_ADMIN``) and ``ip``; ``netns_unavailable`` says why not, for a skip.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import uuid

from tcp_proxy import TcpProxy


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


def netns_unavailable() -> str | None:
    """Why network namespaces cannot be made here (None: they can)."""
    if shutil.which("ip") is None or shutil.which("unshare") is None:
        return "no `ip` or `unshare` command"
    if os.geteuid() != 0:
        return "network namespaces and veth links need root"
    probe = f"drl-probe-{uuid.uuid4().hex[:8]}"
    try:
        _ip("netns", "add", probe)
    except subprocess.CalledProcessError as exc:
        return f"`ip netns add` failed: {exc.stderr.strip()}"
    try:  # what a host's command does: enter the namespace, then a UTS namespace
        _ip("netns", "exec", probe, "unshare", "--uts", "true")
    except subprocess.CalledProcessError as exc:
        return f"`ip netns exec ... unshare --uts` failed: {exc.stderr.strip()}"
    finally:
        _ip("netns", "del", probe)
    return None


def _free_subnet() -> ipaddress.IPv4Network:
    """A /30 in 10.250.0.0/16 that no interface here uses (other tests may hold some)."""
    used = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True,
                          check=True).stdout
    for subnet in ipaddress.ip_network("10.250.0.0/16").subnets(new_prefix=30):
        if f" {subnet[1]}/" not in used and f" {subnet[2]}/" not in used:
            return subnet
    raise RuntimeError("no free /30 in 10.250.0.0/16")


class TestHost:
    """A network namespace named ``name`` whose processes reach each of ``services``
    (name -> (host, port) on this machine) at ``address``:``ports[name]``."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, name: str, services: dict[str, tuple[str, int]]) -> None:
        tag = uuid.uuid4().hex[:8]
        self.name, self.netns = name, f"drl-{name}-{tag}"
        self.link = f"v{tag}h"  # this side's end; interface names are 15 bytes at most
        peer = f"v{tag}n"
        subnet = _free_subnet()
        self.address, self.host_address = str(subnet[1]), str(subnet[2])
        self.proxies: list[TcpProxy] = []
        _ip("netns", "add", self.netns)
        try:
            _ip("link", "add", self.link, "type", "veth", "peer", "name", peer)
            _ip("link", "set", peer, "netns", self.netns)
            _ip("addr", "add", f"{self.address}/30", "dev", self.link)
            _ip("link", "set", self.link, "up")
            _ip("-n", self.netns, "addr", "add", f"{self.host_address}/30", "dev", peer)
            _ip("-n", self.netns, "link", "set", peer, "up")
            _ip("-n", self.netns, "link", "set", "lo", "up")
            self.proxies = [TcpProxy(target, host=self.address) for target in services.values()]
        except BaseException:
            self.close()
            raise
        self.ports = {service: proxy.port
                      for service, proxy in zip(services, self.proxies, strict=True)}

    def command(self, args: list[str]) -> list[str]:
        """``args`` run on this host: in its namespace, under its own hostname (a UTS
        namespace), so a worker's name says which host it runs on."""
        return ["ip", "netns", "exec", self.netns, "unshare", "--uts", "sh", "-c",
                'hostname "$0" && exec "$@"', self.name, *args]

    def cut(self) -> None:
        _ip("link", "set", self.link, "down")

    def heal(self) -> None:
        _ip("link", "set", self.link, "up")

    def close(self) -> None:
        """Stop the forwarders and remove the link and the namespace (stop the host's
        processes first)."""
        for proxy in self.proxies:
            proxy.close()
        subprocess.run(["ip", "link", "del", self.link], capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", self.netns], capture_output=True, timeout=10)
