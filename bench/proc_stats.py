"""Processes, memory and CPU from ``/proc``, for the render soak (``render_soak.py``):
the memory of a worker, its Playwright driver and its browsers, and what is left
running after a pool has closed."""

from __future__ import annotations

import os
from pathlib import Path

from designrl.render.chromium import descendants, process_table


def process_commands() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, raw command line) of every readable process."""
    return {pid: (parent, b"\0".join(args)) for pid, (parent, args) in process_table().items()}


def descendants_of(root: int, table: dict[int, tuple[int, bytes]]) -> set[int]:
    return descendants({root}, table) - {root}


def memory_kb(pid: int) -> tuple[int, int, int]:
    """(PSS, RSS, USS) in kB of one process; zeros if it is gone."""
    fields = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("Pss", "Rss", "Private_Clean", "Private_Dirty"):
                fields[name] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        return 0, 0, 0
    return (fields.get("Pss", 0), fields.get("Rss", 0),
            fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0))


def cpu_s(pid: int) -> float:
    """CPU seconds of a process, its reaped children's included (utime+stime+cutime+cstime)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def is_chromium(cmdline: bytes) -> bool:
    exe = cmdline.split(b"\0", 1)[0].lower()
    return b"chrom" in exe


def memory_sample(pool) -> dict:
    """Memory of this process, its Playwright driver and its browsers (kB)."""
    from designrl.render.chromium import browser_pids

    me = os.getpid()
    table = process_commands()
    tree = descendants_of(me, table)
    browsers: set[int] = set()
    for handle in list(pool._handles):
        if handle.marker:
            browsers |= set(browser_pids(handle.marker))
    parts = {"worker": {me}, "driver": set(), "browser": set(), "other": set()}
    for pid in tree:
        cmd = table[pid][1]
        if pid in browsers:
            parts["browser"].add(pid)
        elif b"playwright" in cmd or cmd.split(b"\0", 1)[0].endswith(b"node"):
            parts["driver"].add(pid)
        else:
            parts["other"].add(pid)  # e.g. a browser of an old marker not yet reaped
    parts["browser"] |= browsers - tree  # counted even if not under our tree
    out = {"processes": sum(len(p) for p in parts.values())}
    totals = {"pss": 0, "rss": 0, "uss": 0}
    for name, pids in parts.items():
        sums = {"pss": 0, "rss": 0, "uss": 0}
        for pid in pids:
            for key, value in zip(("pss", "rss", "uss"), memory_kb(pid), strict=True):
                sums[key] += value
        for key, value in sums.items():
            out[f"{name}_{key}_kb"] = value
            totals[key] += value
    out["browser_processes"] = len(parts["browser"])
    out["stray_chromium"] = sum(is_chromium(table[p][1]) for p in parts["other"])
    out.update({f"{key}_kb": value for key, value in totals.items()})
    out["cpu_s"] = sum(cpu_s(pid) for pid in tree | {me})
    out["load1"] = os.getloadavg()[0]
    return out


def leftovers(markers: set[str], group_tag: str | None, before: set[int]) -> dict:
    """Processes of ours still alive after the pool closed, and new Chromium elsewhere."""
    me = os.getpid()
    table = process_commands()
    tree = descendants_of(me, table)
    with_marker = {pid for pid, (_, cmd) in table.items()
                   if any(m.encode() in cmd for m in markers)}
    in_group = set()
    if group_tag:
        for pid in table:
            try:
                if group_tag in Path(f"/proc/{pid}/cgroup").read_text():
                    in_group.add(pid)
            except OSError:
                pass
    ours = tree | with_marker | in_group
    others = {pid for pid, (_, cmd) in table.items()
              if is_chromium(cmd) and pid not in before and pid not in ours}
    # An orphan of ours would have been reparented; show where the others hang from.
    return {
        "ours": sorted(ours),
        "ours_detail": {str(pid): table[pid][1].replace(b"\0", b" ")[:200].decode(errors="replace")
                        for pid in sorted(ours) if pid in table},
        "in_tree": len(tree), "with_marker": len(with_marker), "in_memory_group": len(in_group),
        "new_chromium_elsewhere": len(others),
        "new_chromium_elsewhere_parents": sorted({table[p][0] for p in others})[:20],
    }
