"""The policy's prompt for one svg item: the request, its numbered requirements, the format.

As in SVGBench, the requirements are shown to the model (they are the
specification), and the SVG is asked for in one fenced ```svg block.
"""

from __future__ import annotations

from designrl.tasks.svg.spec import SvgItem

SYSTEM_PROMPT = ("You are an expert SVG illustrator. You answer with a single, complete, "
                 "self-contained SVG document and nothing else.")

_FORMAT = ('Reply with the SVG code in one ```svg code block, for example:\n'
           '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" '
           'width="100" height="100">\n  <circle cx="50" cy="50" r="40" fill="red"/>\n</svg>\n```')


def build_prompt(item: SvgItem, show_requirements: bool = True) -> str:
    """The user message for ``item``."""
    parts = [item.prompt]
    if show_requirements:
        numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(item.requirements, start=1))
        parts.append(f"Requirements:\n{numbered}")
    parts.append(_FORMAT)
    return "\n\n".join(parts)


def build_messages(item: SvgItem, show_requirements: bool = True) -> list[dict[str, str]]:
    """Chat messages (system + user) for ``item``."""
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": build_prompt(item, show_requirements)}]
