"""Chromium keeps its own sandbox when the pool runs as root: it runs as an unprivileged
user, its renderers in user and pid namespaces of their own under a seccomp filter, with
no ``--no-sandbox``; a page renders as before; the mode is reported; a relaunch that
fails once (as under load) does not turn the sandbox off."""

from __future__ import annotations

import asyncio
import os
import pwd

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.render.chromium import browser_pids, kill_browser, process_table
from designrl.render.modes import isolation_modes
from designrl.render.run_as import DEFAULT_USER, RunAs, sandbox_mode

pytestmark = pytest.mark.integration


def _status(pid: int, field: str) -> str:
    for line in open(f"/proc/{pid}/status").read().splitlines():
        if line.startswith(f"{field}:"):
            return line.split(":", 1)[1].split()[0]
    raise KeyError(field)


def _tree(root: int) -> list[int]:
    table = process_table()
    found, grew = {root}, True
    while grew:
        more = {pid for pid, (parent, _) in table.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return sorted(found)


def test_as_root_chromium_runs_as_another_user_with_its_own_sandbox():
    require_chromium()
    why = RunAs.why_not(DEFAULT_USER)
    if why is not None:
        pytest.skip(f"Chromium is not handed to another user here: {why}")
    uid = pwd.getpwnam(DEFAULT_USER).pw_uid
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=1)
    try:
        pool = runner.pool
        result = runner.render("<p style='color:#c00'>sandboxed</p>")
        assert result.ok and result.png
        assert pool.chromium_sandbox
        browser = browser_pids(pool._handles[0].marker)[0]
        tree = _tree(browser)
        table = process_table()
        assert {int(_status(pid, "Uid")) for pid in tree} == {uid}
        assert not any(b"--no-sandbox" in table[pid][1] for pid in tree if pid in table)
        own_users = os.readlink(f"/proc/{browser}/ns/user")
        sandboxed = [pid for pid in tree if os.readlink(f"/proc/{pid}/ns/user") != own_users
                     and _status(pid, "Seccomp") == "2"]
        assert sandboxed, "no process in a namespace sandbox under a seccomp filter"
    finally:
        runner.close()
    assert isolation_modes()["chromium_sandbox"] == f"on (as {DEFAULT_USER})"


def test_the_mode_says_why_the_sandbox_is_off():
    if os.geteuid() != 0:
        assert sandbox_mode() == "on"
        return
    assert sandbox_mode(None) == "off (running as root: no user to run Chromium as is set)"
    assert sandbox_mode("root") == "off (running as root: 'root' is root)"
    assert sandbox_mode("no-such-user-here").startswith("off (running as root: no user")


def test_a_relaunch_that_fails_once_keeps_chromiums_own_sandbox():
    require_chromium()
    why = RunAs.why_not(DEFAULT_USER)
    if why is not None:
        pytest.skip(f"Chromium is not handed to another user here: {why}")
    runner = PoolRunner(run_timeout=60.0, browsers=1, pages_per_browser=1)
    try:
        pool = runner.pool
        assert runner.render("<p>first</p>").ok and pool.chromium_sandbox
        launch, failed = pool._pw.chromium.launch, []

        async def fails_once(**options):  # a soak under load saw this once, and lost the sandbox
            if options["chromium_sandbox"] and not failed:
                failed.append(options)
                raise RuntimeError("BrowserType.launch: Target page, context or browser has "
                                   "been closed")
            return await launch(**options)

        async def kill_then_render():
            kill_browser(pool._handles[0].marker)
            await asyncio.sleep(0.2)
            return await pool.render("<p>back</p>")

        pool._pw.chromium.launch = fails_once
        result = runner.run(kill_then_render())
        assert result.ok, result.error
        assert failed and pool.chromium_sandbox
        tree, table = _tree(browser_pids(pool._handles[0].marker)[0]), process_table()
        assert not any(b"--no-sandbox" in table[pid][1] for pid in tree if pid in table)
    finally:
        runner.close()
