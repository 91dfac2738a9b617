"""The policy's prompt for one html item: the reference page's screenshot and the brief.

The screenshot is always rendered by our renderer from the reference HTML (never a
stored image), so what the model sees is what its page is compared against. The
wording follows Design2Code's direct prompt in substance: one self-contained
HTML+CSS file, ``rick.jpg`` for every image, no external dependencies.
"""

from __future__ import annotations

from typing import Any

from designrl.judge import image_part

SYSTEM_PROMPT = ("You are an expert web developer who writes HTML and CSS. You are given a "
                 "screenshot of a web page and reproduce it as one self-contained HTML file.")

INSTRUCTION = (
    "Write one complete HTML document, with all CSS inside it, that reproduces this web page "
    "as closely as you can: the same text, layout, sizes, colours and spacing. Use rick.jpg "
    "for every image (including blue placeholder rectangles). Do not load external files, "
    "fonts or scripts. Reply with the document in one ```html fenced block."
)


def build_messages(screenshot_png: bytes) -> list[dict[str, Any]]:
    """Chat messages (system + user with the screenshot) for one reference page. Both contents
    are lists of parts, so a dataset of these rows has one type per column (Arrow needs it)."""
    return [{"role": "system", "content": [{"type": "text", "text": SYSTEM_PROMPT}]},
            {"role": "user", "content": [image_part(screenshot_png),
                                         {"type": "text", "text": INSTRUCTION}]}]
