"""The picture of a single-turn training sample whose episode is not stored: its completion
drawn by the render pool, as its family draws a candidate (the svg on its square page, the
html or webpage page's first screen; ``Family.picture_page``).

A sample that cannot be drawn gets a reason instead of a picture, never an exception: its
text holds no document (``malformed``), only its first characters are kept, or the page
failed in the browser. Pictures and the page's own failures are cached by the page drawn
(bounded by bytes), so a page view draws each sample once; a browser that will not start
or is lost is not cached (it may be back on the next view), and a browser that would not
start is not tried again for ``retry_launch_s``.

    pictures = SamplePictures(process_runner)
    picture = pictures.draw(row)          # a samples.jsonl row
    picture.png or picture.problem
"""

from __future__ import annotations

import hashlib
import textwrap
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from designrl.learner.runs import TEXT_CHARS
from designrl.render.types import InfrastructureError
from designrl.tasks import FAMILIES, TASKS

if TYPE_CHECKING:
    from designrl.render.runner import PoolRunner

CACHE_BYTES = 64 << 20  # pictures kept, PNG bytes (a page's first screen: about 50-300 KB)


@dataclass(frozen=True)
class SamplePicture:
    """A PNG, or why there is none (in words a reader acts on)."""

    png: bytes | None = None
    problem: str | None = None
    cached: bool = True  # False: a browser problem, tried again on the next view


def can_draw(sample: dict[str, Any]) -> bool:
    """Whether ``sample`` (a ``samples.jsonl`` row) is of a family drawn from its text."""
    task = TASKS.get(sample.get("task_id", ""))
    return task is not None and FAMILIES[task.family].picture_page is not None


def sample_page(sample: dict[str, Any]) -> tuple[str, tuple[int, int]]:
    """The page that draws a drawable sample (``can_draw``) and its viewport; ``ValueError``
    saying why there is none: the output holds no document, or its text is cut."""
    if not can_draw(sample):
        raise ValueError(f"task {sample.get('task_id')!r} is not drawn from its text")
    completion = sample.get("completion")
    if completion is None:
        completion = str(sample.get("text", ""))
        if len(completion) >= TEXT_CHARS:
            raise ValueError(f"only the first {TEXT_CHARS:,} characters of its text are "
                             "kept, and a cut document is not drawn")
    if not completion.strip():
        raise ValueError("the output is empty")
    return FAMILIES[TASKS[sample["task_id"]].family].picture_page(completion)


def picture_problem(sample: dict[str, Any]) -> str | None:
    """Why a drawable sample has no picture, where its text alone says (None: draw it)."""
    try:
        sample_page(sample)
    except ValueError as exc:
        return str(exc)
    return None


def placeholder_svg(problem: str, size: tuple[int, int] = (480, 360)) -> str:
    """A grey card saying why a sample has no picture, where its picture would be."""
    width, height = size
    lines = textwrap.wrap(f"No picture: {problem}", 44)[:8]
    text = "".join(f'<tspan x="24" dy="{0 if i == 0 else 24}">{escape(line)}</tspan>'
                   for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(problem)}">'
            f'<rect width="100%" height="100%" fill="#f1f3f5" stroke="#adb5bd"/>'
            f'<text x="24" y="48" font-family="sans-serif" font-size="18" fill="#343a40">'
            f'{text}</text></svg>')


class SamplePictures:
    """Draws samples on the pool ``runner()`` returns (started on the first draw)."""

    def __init__(self, runner: Callable[[], PoolRunner], *, cache_bytes: int = CACHE_BYTES,
                 timeout_s: float = 60.0, retry_launch_s: float = 60.0) -> None:
        self._runner = runner
        self.cache_bytes = cache_bytes
        self.timeout_s = timeout_s
        self.retry_launch_s = retry_launch_s
        self._cache: OrderedDict[str, SamplePicture] = OrderedDict()
        self._held = 0  # bytes of PNG in the cache
        self._lock = threading.Lock()
        self._no_browser: tuple[float, str] | None = None  # (when, why) a launch failed
        self.drawn = 0  # pages sent to the browser (cache misses)

    def draw(self, sample: dict[str, Any]) -> SamplePicture:
        try:
            page, viewport = sample_page(sample)
        except ValueError as exc:
            return SamplePicture(problem=str(exc))
        key = hashlib.sha256(f"{viewport}\n{page}".encode()).hexdigest()
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        picture = self._render(page, viewport)
        if picture.cached:
            self._keep(key, picture)
        return picture

    def _render(self, page: str, viewport: tuple[int, int]) -> SamplePicture:
        try:
            runner = self._started()
        except Exception as exc:  # noqa: BLE001 - no browser here: a reason, not an error
            return SamplePicture(problem=f"no browser to draw it with ({exc})", cached=False)
        self.drawn += 1
        try:
            result = runner.render(page, viewport=viewport, full_page=False,
                                   timeout=self.timeout_s)
        except (InfrastructureError, TimeoutError) as exc:
            return SamplePicture(problem=f"the browser failed while drawing it ({exc})",
                                 cached=False)
        if not result.ok or not result.png:
            why = result.error or ("it timed out" if result.timed_out else "no screenshot")
            if result.exceeded:
                why += f" ({result.exceeded})"
            return SamplePicture(problem=f"the page failed in the browser: {why}")
        return SamplePicture(png=result.png)

    def _started(self) -> PoolRunner:
        failed = self._no_browser
        if failed is not None and time.monotonic() - failed[0] < self.retry_launch_s:
            raise RuntimeError(failed[1])
        try:
            return self._runner()
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"
            self._no_browser = (time.monotonic(), why)
            raise RuntimeError(why) from exc

    def _keep(self, key: str, picture: SamplePicture) -> None:
        size = len(picture.png or b"")
        with self._lock:
            if key not in self._cache:
                self._cache[key] = picture
                self._held += size
            while self._held > self.cache_bytes and len(self._cache) > 1:
                _, dropped = self._cache.popitem(last=False)
                self._held -= len(dropped.png or b"")
