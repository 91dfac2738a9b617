"""Pages that ignore the request, for checking that instruction alignment gates the total.

For each item, the ``template`` policy's page for it (``own``) and two well-made pages that
ignore it: the template's page for the *next* item's request (``another request``) and a
polished counter page (``generic``, from ``hacks.generic_page``). Each must score at most
``OFF_REQUEST_SHARE`` of ``own`` (issue 16's acceptance, ``tests/tasks/webpage``).
The ratio is only telling where ``own`` follows its request; on requests the template
policy cannot read, its own page is generic too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from designrl.tasks.webpage.dataset import load_prompts
from designrl.tasks.webpage.hacks import generic_page
from designrl.tasks.webpage.ladders import fenced
from designrl.tasks.webpage.spec import WebpageItem

OFF_REQUEST_SHARE = 0.5


@dataclass(frozen=True)
class OffRequest:
    item: WebpageItem
    own: str  # the template policy's page for the item
    ignoring: tuple[tuple[str, str], ...]  # (name, completion): well-made pages for other things


def off_request_cases(items: Sequence[WebpageItem] | None = None) -> list[OffRequest]:
    """One case per item (the shipped prompts by default)."""
    from designrl.tasks.webpage import FAMILY

    template = FAMILY.policies["template"]
    items = list(items) if items is not None else load_prompts()
    generic = fenced(generic_page())
    return [OffRequest(item, template(item, 0),
                       (("another request", template(items[(i + 1) % len(items)], 0)),
                        ("generic", generic)))
            for i, item in enumerate(items)]
