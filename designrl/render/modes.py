"""How browsers started on this machine are held, found without starting one: what the
API's ``/readyz`` and a worker's start-up log report."""

from __future__ import annotations

from designrl.render.memory_cap import DEFAULT_MEMORY_CAP_MB, MemoryCap
from designrl.render.netns import NetworkIsolation
from designrl.render.run_as import sandbox_mode


def isolation_modes(memory_cap_mb: int = DEFAULT_MEMORY_CAP_MB) -> dict[str, str]:
    """``network`` (``netns`` or ``routing-only``), ``memory`` (``cgroup2``, ``cgroup1``
    or ``v8-heap``) and ``chromium_sandbox`` (``on``; as root ``on (as nobody)``, or
    ``off (...)`` saying why)."""
    network = NetworkIsolation()
    network.close()
    cap = MemoryCap.detect(memory_cap_mb << 20)
    cap.close()
    return {"network": network.mode, "memory": cap.mode,
            "chromium_sandbox": sandbox_mode()}
