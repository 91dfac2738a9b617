"""The webpage family's floor: the request itself as an unstyled page with no controls.

It shows text, so it loads and is not blank, but it has no design and nothing to
use: the reward's aesthetics and interaction terms must put it well below a page
built for the request. Its only text is the request pasted in, which the instruction
check reads as an echo, not as the page following the request (it scores 0).
"""

from __future__ import annotations

import html

from designrl.tasks.webpage.spec import WebpageItem


def plain_page(item: WebpageItem, seed: int = 0) -> str:
    """The request as one paragraph in a bare HTML document, in one ``html`` fence."""
    return ("```html\n<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(item.id)}</title></head><body>"
            f"<p>{html.escape(item.prompt)}</p></body></html>\n```")
