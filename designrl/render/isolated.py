"""Evaluating our measuring scripts in an isolated world the page's own scripts cannot touch.

Page JavaScript shares ``window`` with Playwright's ``page.evaluate``: a page could
replace ``getComputedStyle`` or ``Element.prototype.getBoundingClientRect`` and
make the DOM facts lie (a reward hack). An isolated world (CDP
``Page.createIsolatedWorld``) sees the same DOM with its own, pristine globals.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import CDPSession

WORLD_NAME = "designrl-measure"


class ScriptFailed(RuntimeError):
    pass


async def main_frame_id(cdp: CDPSession) -> str:
    tree = await cdp.send("Page.getFrameTree")
    return tree["frameTree"]["frame"]["id"]


class IsolatedWorld:
    def __init__(self, cdp: CDPSession, context_id: int) -> None:
        self.cdp = cdp
        self.context_id = context_id

    @classmethod
    async def create(cls, cdp: CDPSession, frame_id: str | None = None) -> IsolatedWorld:
        """A fresh world in the page's main frame, as it is now (call after each navigation).

        ``frame_id``: the main frame's id, if known (it stays the same across navigations).
        """
        frame_id = frame_id or await main_frame_id(cdp)
        world = await cdp.send(
            "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": WORLD_NAME}
        )
        return cls(cdp, int(world["executionContextId"]))

    async def run(self, source: str) -> None:
        """Run a script (not a function: a library's source) in this world."""
        reply = await self.cdp.send("Runtime.evaluate", {
            "expression": source + "\n;true", "contextId": self.context_id,
            "returnByValue": True})
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            raise ScriptFailed(str(text).splitlines()[0][:300] if text else "script failed")

    async def call(self, function_js: str, arg: Any = None) -> Any:
        """``(function_js)(arg)``, awaited if it returns a promise; the JSON value comes back."""
        expression = f"({function_js})({json.dumps(arg)})"
        reply = await self.cdp.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "contextId": self.context_id,
                "returnByValue": True,
                "awaitPromise": True,
            },
        )
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            raise ScriptFailed(str(text).splitlines()[0][:300] if text else "script failed")
        return reply.get("result", {}).get("value")
