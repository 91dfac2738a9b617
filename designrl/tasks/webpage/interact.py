"""Interactive checks: click, fill and submit what a page offers, and see whether it responds.

For each picked target (``targets.py``, up to ``budget``) the page is brought to
rest, the target scrolled into view and hovered, then a *before* state is taken
(viewport screenshot, DOM mutation counter reset, scroll position, dialog and
error counts). The action follows: a real mouse click at a point where the target
is on top, or for fields and forms real key presses (then Enter or the submit
button). The page responds when, without a new page error:

* ``dom``: the DOM changed (MutationObserver records) more than twice as much as
  it changes on its own (its mutation rate in an idle window, times the length of
  the action's window; any change for a quiet page);
* ``pixels``: after scrolling back to where it was and finishing animations, at
  least ``PIXEL_MIN`` viewport pixels changed by more than ``PIXEL_DELTA``
  outside the target's own box (plus ``MASK_PAD``; hover, focus and typed text
  are not a response), leaving out regions touching what changed on its own in an
  idle window (taken before the first interaction, and again on a restless page
  whenever the target is seen from another scroll position);
* ``scroll``: a button or link scrolled the page (not ``href="#"``);
* ``anchor``: a link to a ``#fragment`` that exists in the page was followed;
* ``dialog``: the page showed an alert / confirm / prompt (dismissed by the sandbox).

Navigation away is blocked by the sandbox: a click that only tries to leave is
``no_response`` (``blocked_navigation`` in the record), not a crash. An action that
does not return within ``action_timeout_s`` (an endless loop in a handler), floods
dialogs, crashes the page or grows the DOM past the pool's cap ends the checks
with ``PageHung``, so the caller leaves the page with an error and the pool
recycles it.

Before the first interaction, a control experiment (``probe``): a click on each of two
inert spots (a heading and a paragraph, or the background beside the content). A page that
visibly responds to both (pixels, a dialog or a scroll) changes on any click, so a
response to a control proves nothing there (a page that swaps itself on every click
would pass every check without one working control): it is recorded as
``responds_anywhere`` and its interactions earn nothing.

``score_interactions``: passed / attempted; a page with nothing to interact with
scores ``NO_TARGETS_SCORE`` = 0, because pages in this family are asked to be
interactive and a page without controls should not out-score one whose controls
work (it ties with a page whose controls are all dead).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import ndimage

from designrl.render.dom import SETTLE_JS
from designrl.render.events import error_text
from designrl.render.png import decode_png
from designrl.tasks.webpage.interaction_records import Interaction, Interactions
from designrl.tasks.webpage.page_guard import POLL_S, PageHung, guarded
from designrl.tasks.webpage.pixel_change import MASK_PAD, box_mask, changed_mask, count_changed
from designrl.tasks.webpage.targets import (
    BACKGROUND_JS,
    CLICK_JS,
    FILL_JS,
    FOCUS_JS,
    KIND_ORDER,
    LINK_JS,
    NEXT_JS,
    POINT_JS,
    PROBE_JS,
    RESTORE_SCROLL_JS,
    SETUP_JS,
    STATE_JS,
    SUBMIT_JS,
)

if TYPE_CHECKING:
    from designrl.render.session import PageSession

PIXEL_MIN = 100


class Interactor:
    """Runs the checks on one loaded page (a page session from ``pool.page``), every call
    through the session: bounded by ``action_timeout_s``, ended by a dialog flood or a
    crash."""

    def __init__(self, session: PageSession, *, budget: int = 6, action_timeout_s: float = 3.0,
                 time_budget_s: float = 10.0, settle_s: float = 0.35,
                 max_dom_nodes: int = 50_000) -> None:
        self.session = session
        self.events = session.events
        self.budget = budget
        self.action_timeout_s = action_timeout_s
        self.time_budget_s = time_budget_s
        self.settle_s = settle_s
        self.max_dom_nodes = max_dom_nodes
        self.idle_mutations = 0
        self.idle_rate = 0.0
        """DOM mutations per second the page makes on its own."""
        self.idle_mask: np.ndarray | None = None
        self.idle_scroll = (0.0, 0.0)
        self.restless = False

    # Guarded calls: every call into the page is bounded and ends on a dialog flood.

    async def _call(self, js: str, arg: Any = None):
        return await guarded(self.session.evaluate(js, arg, timeout_s=self.action_timeout_s))

    async def _screenshot(self) -> np.ndarray:
        return decode_png(await guarded(self.session.screenshot(
            timeout_s=self.action_timeout_s)))

    async def _move(self, point: dict) -> None:
        await guarded(self.session.move(point["x"], point["y"],
                                        timeout_s=self.action_timeout_s))

    async def _mouse_click(self, point: dict) -> None:
        await guarded(self.session.click(point["x"], point["y"],
                                         timeout_s=self.action_timeout_s))

    async def _settle(self) -> None:
        await self._call(SETTLE_JS)

    async def _state(self) -> dict:
        state = await self._call(STATE_JS)
        if int(state.get("nodes", 0)) > self.max_dom_nodes:
            raise PageHung("resource_exceeded")
        return state

    # The checks

    async def run(self) -> Interactions:
        out = Interactions()
        started = time.monotonic()
        try:
            await self._call(SETUP_JS)
            tried: list[str] = []
            start = 0
            while len(out.attempted) < self.budget:
                if time.monotonic() - started > self.time_budget_s:
                    out.stopped = "time_budget"
                    break
                found = await self._call(NEXT_JS, {"tried": tried, "start": start,
                                                   "order": list(KIND_ORDER)})
                if not out.available:
                    out.available = {k: int(v) for k, v in found.get("counts", {}).items()}
                target = found.get("next")
                if not target:
                    break
                if not out.attempted:
                    await self._idle_baseline()
                    self.restless = out.restless = (self.idle_mutations > 0
                                                    or self.idle_mask is not None)
                    out.responds_anywhere = await self._probe()
                    if self.restless:  # the probe's clicks took time: measure idle afresh
                        await self._idle_baseline()
                tried.append(str(target["sig"]))
                start = int(target["index"]) + 1
                record = Interaction(kind=target["kind"], label=str(target["label"]))
                out.attempted.append(record)
                began = time.monotonic()
                try:
                    await self._interact(int(target["ref"]), record)
                finally:
                    record.seconds = round(time.monotonic() - began, 3)
        except Exception as exc:
            reason = exc.reason if isinstance(exc, PageHung) else f"error: {error_text(exc)}"
            out.stopped = reason
            if out.attempted and not out.attempted[-1].passed:
                out.attempted[-1].reason = reason
            await self._terminate()
            raise PageHung(reason, out) from exc
        return out

    async def _terminate(self) -> None:
        await self.session.stop_scripts()

    async def _idle_baseline(self) -> None:
        await self._settle()
        state = await self._state()
        began = time.monotonic()
        self.idle_scroll = (float(state["sx"]), float(state["sy"]))
        first = await self._screenshot()
        await asyncio.sleep(self.settle_s)
        await self._settle()
        second = await self._screenshot()
        self.idle_mutations = int((await self._state())["mutations"])
        self.idle_rate = self.idle_mutations / max(time.monotonic() - began, 1e-3)
        changed = changed_mask(first, second)
        self.idle_mask = ndimage.binary_dilation(changed, iterations=MASK_PAD) \
            if changed.any() else None

    async def _interact(self, ref: int, record: Interaction) -> None:
        kind = record.kind
        point = await self._call(POINT_JS, {"ref": ref, "scroll": True})
        if point.get("gone"):
            record.reason = "gone"
            return
        masks = [point["box"]]
        if kind != "form" and point.get("inside"):
            await self._move(point)
        await self._settle()
        if self.restless:  # what ticks on its own, seen from where this target is
            state = await self._state()
            if (float(state["sx"]), float(state["sy"])) != self.idle_scroll:
                await self._idle_baseline()
        before_state = await self._state()
        window_began = time.monotonic()
        before = await self._screenshot()
        errors, dialogs = len(self.events.page_errors), self.events.dialogs
        blocked, popups = len(self.events.blocked_requests), self.events.popups
        link = await self._call(LINK_JS, {"ref": ref}) if kind == "link" else None

        if kind in ("form", "field"):
            masks += await self._fill_and_submit(ref, kind)
        else:
            await self._click(ref, point)

        state, mutations = await self._await_response(before_state, window_began, dialogs)
        record.mutations = mutations
        via = record.via
        if mutations > self._idle_allowance(window_began):
            via.append("dom")
        if self.events.dialogs > dialogs:
            via.append("dialog")
        scrolled = (state["sx"], state["sy"]) != (before_state["sx"], before_state["sy"])
        if link is not None and link["exists"] and state["hash"] == link["href"]:
            via.append("anchor")
        elif scrolled and kind in ("button", "link") and not (link is not None and link["dead"]):
            via.append("scroll")
        if not via:
            if scrolled:
                await self._call(RESTORE_SCROLL_JS, {"x": before_state["sx"],
                                                     "y": before_state["sy"]})
            await self._settle()
            after = await self._screenshot()
            record.changed_pixels = count_changed(before, after, box_mask(after.shape, masks),
                                                  self.idle_mask)
            if record.changed_pixels >= PIXEL_MIN:
                via.append("pixels")
        self._conclude(record, errors, blocked, popups)

    async def _await_response(self, before_state: dict, window_began: float,
                              dialogs: int) -> tuple[dict, int]:
        """(state, DOM mutations) once the page responds or ``settle_s`` has passed: DOM
        changes, dialogs and scrolling end the wait early."""
        state = await self._state()
        mutations = int(state["mutations"])
        waited = 0.0
        while waited < self.settle_s and not (
                mutations > self._idle_allowance(window_began)
                or self.events.dialogs > dialogs or state["hash"] != before_state["hash"]
                or (state["sx"], state["sy"]) != (before_state["sx"], before_state["sy"])):
            await asyncio.sleep(POLL_S * 2)
            waited += POLL_S * 2
            state = await self._state()
            mutations += int(state["mutations"])
        return state, mutations

    def _conclude(self, record: Interaction, errors: int, blocked: int, popups: int) -> None:
        """Passed when the page responded without a new page error; else why not (the
        counts are the page's errors, blocked requests and popups before the action)."""
        new_errors = len(self.events.page_errors) > errors
        record.passed = bool(record.via) and not new_errors
        if new_errors:
            record.reason = "page_error"
        elif not record.via:
            record.reason = "no_response"
            if self.events.popups > popups:
                record.reason = "no_response: popup_blocked"
            elif len(self.events.blocked_requests) > blocked:
                record.reason = "no_response: blocked_navigation"

    async def _probe(self) -> bool | None:
        """Whether the page visibly responds to a click on each of two inert spots: pieces
        of plain text, else the background beside the content (None when it has fewer than
        two to click)."""
        spots: list[int | None] = []  # a text element's ref, or None for the background
        for ref in (await self._call(PROBE_JS))[:2]:
            point = await self._call(POINT_JS, {"ref": int(ref), "scroll": True})
            if not point.get("gone") and point.get("inside"):
                spots.append(int(ref))
        if len(spots) < 2 and await self._call(BACKGROUND_JS):
            spots.append(None)
        if len(spots) < 2:
            return None
        for ref in spots[:2]:
            point = (await self._call(POINT_JS, {"ref": ref, "scroll": True}) if ref is not None
                     else await self._call(BACKGROUND_JS))
            if not point or point.get("gone") or (ref is not None and not point.get("inside")):
                return None
            await self._move(point)
            await self._settle()
            before_state = await self._state()
            before = await self._screenshot()
            dialogs = self.events.dialogs
            await self._mouse_click(point)
            await asyncio.sleep(self.settle_s)
            state = await self._state()
            scrolled = (state["sx"], state["sy"]) != (before_state["sx"], before_state["sy"])
            if scrolled or self.events.dialogs > dialogs:
                continue
            await self._settle()
            after = await self._screenshot()
            if count_changed(before, after, box_mask(after.shape, [point["box"]]),
                             self.idle_mask) < PIXEL_MIN:
                return False
        return True

    def _idle_allowance(self, since: float) -> float:
        """Mutations a restless page makes on its own since ``since``, doubled."""
        return 2.0 * self.idle_rate * (time.monotonic() - since)

    async def _click(self, ref: int, point: dict) -> None:
        if point.get("inside"):
            await self._mouse_click(point)
        else:  # off-screen or covered everywhere: what a keyboard user's activation does
            await self._call(CLICK_JS, {"ref": ref})

    async def _fill_and_submit(self, ref: int, kind: str) -> list:
        plan = await self._call(FILL_JS, {"ref": ref})
        typed = plan.get("typed", [])
        for entry in typed:
            await self._call(FOCUS_JS, {"ref": entry["ref"]})
            await guarded(self.session.type(str(entry["value"]),
                                            timeout_s=self.action_timeout_s))
        masks = list(plan.get("boxes", []))
        submit = plan.get("submit")
        if kind == "form" and submit is not None:
            point = await self._call(POINT_JS, {"ref": submit, "scroll": False})
            if not point.get("gone"):
                masks.append(point["box"])
                await self._click(int(submit), point)
                return masks
        if typed:
            await self._call(FOCUS_JS, {"ref": typed[-1]["ref"]})
            await guarded(self.session.press("Enter", timeout_s=self.action_timeout_s))
        elif kind == "form":
            await self._call(SUBMIT_JS, {"ref": ref})
        return masks
