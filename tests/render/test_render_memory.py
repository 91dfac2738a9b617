"""The memory cap per browser holds: pages that reach for gigabytes end within the job's limit,
the browser's processes together never hold more than the cap, and the pool keeps serving
(no relaunch: the kernel ends only the greedy renderer)."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

import pytest
from browser_support import PoolRunner, require_chromium

from designrl.render.chromium import find_chromium, launch_args, new_marker
from designrl.render.events import MAX_CHARS
from designrl.render.memory_cap import V8_HEAP, MemoryCap, heap_mb

pytestmark = pytest.mark.integration

CAP_MB = 1536
POOL_TIMEOUT_S = 15.0  # first touches of fresh memory are slow on these VMs: 1.5-7 s a GB
NORMAL = "<h2 style='color:#222'>normal page</h2><p style='color:#555'>after the case</p>"
BIG = "'x'.repeat(2 ** 29 - 24)"  # 512 MB, as long as a V8 string may be


@dataclass
class Case:
    html: str
    exceeded: str  # the cap the case must end resource_exceeded on


CASES = {
    # Each touched page is charged: an untouched buffer is address space only.
    "array_buffer_3gb": Case(
        "<p>x</p><script>const a = new Uint8Array(3e9);"
        "for (let i = 0; i < a.length; i += 4096) a[i] = 1;</script>", "memory"),
    "wasm_growth": Case(
        "<p>x</p><script>const m = new WebAssembly.Memory({initial: 1, maximum: 65536});"
        "for (let i = 0; i < 60; i++) { m.grow(1000); const b = new Uint8Array(m.buffer);"
        "for (let j = 0; j < b.length; j += 4096) b[j] = 1; }</script>", "memory"),
    # The largest canvas Chromium will back (2^28 px, 1 GiB), drawn over.
    "canvas_16384": Case(
        "<canvas id=c width=16384 height=16384></canvas><script>const x = c.getContext('2d');"
        "x.fillStyle = 'red'; x.fillRect(0, 0, 16384, 16384); x.getImageData(0, 0, 1, 1);"
        "</script>", "memory"),
    # Past Chromium's canvas area limit (2^28 px) the canvas gets no pixels at all, so the
    # kernel never sees it; the capture counts what canvases ask for (3.6 GB) instead.
    "canvas_30000": Case(
        "<p>x</p><canvas id=c width=30000 height=30000></canvas><script>"
        "const x = c.getContext('2d'); x.fillStyle = 'red'; x.fillRect(0, 0, 30000, 30000);"
        "</script>", "canvas_memory"),
    # Cut to 4 KB in the page before Chromium serializes it (the renderer holds the string
    # once, nothing grows in the browser process or the driver), and over the payload cap.
    "console_512mb": Case(
        f"<p>x</p><script>const s = {BIG}; console.log(s); console.error(s);</script>",
        "console_payload"),
    # 150k elements in a frame and 150k in an open shadow root: over the DOM cap (50,000
    # across frames and shadow roots).
    "elements_300k_frame_and_shadow": Case(
        "<p>x</p><script>const fill = (doc, parent, tag) => {"
        "const f = doc.createDocumentFragment();"
        "for (let i = 0; i < 150000; i++) f.appendChild(doc.createElement(tag));"
        "parent.appendChild(f); };"
        "const frame = document.createElement('iframe'); document.body.appendChild(frame);"
        "fill(frame.contentDocument, frame.contentDocument.body, 'div');"
        "const host = document.createElement('div'); document.body.appendChild(host);"
        "fill(document, host.attachShadow({mode: 'open'}), 'span');</script>", "dom_nodes"),
}


@pytest.fixture(scope="module")
def capped():
    require_chromium()
    runner = PoolRunner(run_timeout=120.0, browsers=1, pages_per_browser=2,
                        timeout_s=POOL_TIMEOUT_S, memory_cap_mb=CAP_MB)
    try:
        if runner.pool.memory_cap.mode == V8_HEAP:
            pytest.skip("no memory cgroup can be made here: only the JS heap is capped")
        yield runner
    finally:
        runner.close()


@pytest.fixture(scope="module")
def reference(capped):
    result = capped.render(NORMAL)
    assert result.ok, result.error
    return result


def resident_mb(pids: list[int]) -> tuple[int, int]:
    """Resident memory of ``pids`` together, shared pages split among their sharers (PSS):
    (anonymous and shared memory, all of it). The difference is mapped files, mostly
    Chromium's own code: page cache that other Chromiums share, charged to whichever
    group read it first, and that the kernel can always drop."""
    held_kb = total_kb = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                fields = dict(line.split()[:2] for line in rollup if line.startswith("Pss"))
        except OSError:
            continue  # it ended between the listing and the read
        held_kb += int(fields.get("Pss_Anon:", 0)) + int(fields.get("Pss_Shmem:", 0))
        total_kb += int(fields.get("Pss:", 0))
    return held_kb >> 10, total_kb >> 10


class PeakSampler:
    """Samples the browser's processes' resident memory every 20 ms while a case runs."""

    def __init__(self, group) -> None:
        self.group = group
        self.peak_mb = self.peak_total_mb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            held, total = resident_mb(self.group.pids())
            self.peak_mb = max(self.peak_mb, held)
            self.peak_total_mb = max(self.peak_total_mb, total)
            self._stop.wait(0.02)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()


@pytest.mark.parametrize("name", list(CASES))
def test_case_ends_within_its_limit_and_under_the_cap(capped, reference, name):
    case, pool = CASES[name], capped.pool
    group = pool.memory_cap.group("0")
    launches = pool.stats.browser_launches
    group.reset_peak()
    with PeakSampler(group) as sampler:
        started = time.monotonic()
        result = capped.render(case.html)
        took = time.monotonic() - started
    group_peak_mb = group.peak_bytes() >> 20
    print(f"{name}: {result.error} in {took:.2f}s; peak: group {group_peak_mb} MB, processes "
          f"{sampler.peak_mb} MB anon+shmem ({sampler.peak_total_mb} MB with mapped files); "
          f"cap {CAP_MB} MB ({pool.memory_cap.mode})")
    assert (result.error, result.exceeded) == ("resource_exceeded", case.exceeded), result.timed_out
    assert not result.timed_out and took < POOL_TIMEOUT_S + 2
    assert 0 < sampler.peak_mb < CAP_MB and group_peak_mb <= CAP_MB
    assert all(len(text) <= MAX_CHARS for text in result.console_errors)
    after = capped.render(NORMAL)
    assert after.ok, after.error
    assert after.png == reference.png and after.text_blocks == reference.text_blocks
    assert pool.stats.browser_launches == launches, "the browser was relaunched"


def test_a_page_under_the_cap_is_not_cut_short(capped, reference):
    """The cap is not a stand-in for a small heap: 400 MB touched by one page renders."""
    result = capped.render(
        "<p>x</p><script>const a = new Uint8Array(400 << 20);"
        "for (let i = 0; i < a.length; i += 4096) a[i] = 1;</script>")
    assert result.ok, result.error
    assert [b.text for b in result.text_blocks] == ["x"]


def test_close_leaves_no_group_and_no_process():
    require_chromium()
    runner = PoolRunner(run_timeout=60.0, browsers=2, pages_per_browser=1, timeout_s=5.0,
                        memory_cap_mb=CAP_MB)
    cap = runner.pool.memory_cap
    if cap.mode == V8_HEAP:
        runner.close()
        pytest.skip("no memory cgroup can be made here")
    groups = [cap.group(str(i)) for i in range(2)]
    pids = [pid for group in groups for pid in group.pids()]
    assert runner.render("<p>x</p>").ok and len(pids) > 4
    with open(groups[0].path / ("memory.limit_in_bytes" if cap.mode == "cgroup1"
                                else "memory.max")) as limit:
        assert int(limit.read()) == CAP_MB << 20
    runner.close()
    assert not any(group.path.exists() for group in groups)
    alive = [pid for pid in pids if os.path.exists(f"/proc/{pid}")
             and open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]
    assert alive == []


def test_the_fallback_bounds_each_renderers_js_heap(capped):
    """Where no group can be made, the cap is only ``--max-old-space-size``: it must reach
    Chromium's renderers (the heap limit a page sees is that bound)."""
    fallback = MemoryCap(CAP_MB << 20, V8_HEAP, None)
    assert fallback.executable("0", "/usr/bin/chromium") == "/usr/bin/chromium"

    async def heap_limit_mb() -> int:
        browser = await capped.pool._pw.chromium.launch(
            executable_path=find_chromium(), headless=True,
            args=launch_args(new_marker()) + fallback.chromium_args())
        try:
            page = await browser.new_page()
            return await page.evaluate("performance.memory.jsHeapSizeLimit") >> 20
        finally:
            await browser.close()

    # The page's limit is the old space plus the young generation (~140 MB here); Chromium's
    # own default on this machine is about 4 GB.
    limit = capped.run(heap_limit_mb())
    assert heap_mb(CAP_MB << 20) <= limit < heap_mb(CAP_MB << 20) + 256, limit
