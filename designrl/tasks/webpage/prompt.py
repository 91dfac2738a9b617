"""The chat prompt a policy gets for a webpage item."""

from __future__ import annotations

from designrl.tasks.webpage.spec import WebpageItem

SYSTEM_PROMPT = (
    "You are an expert front-end developer and designer. Write one complete, self-contained "
    "HTML document (inline CSS and JavaScript, no external resources or network requests) "
    "that fulfils the request with a clean, accessible, responsive design and working "
    "interactions. Images may use the file name rick.jpg. Reply with the document in one "
    "```html fenced block and nothing else."
)


def build_messages(item: WebpageItem | str) -> list[dict[str, str]]:
    """Chat messages (system + user) for one item or a bare request."""
    request = item.prompt if isinstance(item, WebpageItem) else str(item)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": request}]
