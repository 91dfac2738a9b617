"""Tabs: the ARIA tab widget (a tab list over one panel per tab) and the part that shows a
request's named tabs."""

from __future__ import annotations

from collections.abc import Sequence

from designrl.policies.webpage_template.block import Block, Context, esc, heading, sub_tag


def tab_widget(label: str, names: Sequence[str], panels: Sequence[str]) -> str:
    """A tab list called ``label``, one tab per name over its panel; the first is shown."""
    buttons = "".join(
        f'<button type="button" role="tab" id="tab-{i}" aria-controls="panel-{i}" '
        f'aria-selected="{str(i == 0).lower()}" tabindex="{0 if i == 0 else -1}">{esc(t)}</button>'
        for i, t in enumerate(names))
    shown = "".join(
        f'<div role="tabpanel" id="panel-{i}" aria-labelledby="tab-{i}" tabindex="0"'
        f'{"" if i == 0 else " hidden"}>{panel}</div>' for i, panel in enumerate(panels))
    return (f'<div role="tablist" aria-label="{label}" class="tabs">{buttons}</div>\n'
            f'    <div class="card panels">{shown}</div>')


def tabs(ctx: Context) -> list[Block]:
    """The tabs the request names, each over a short panel."""
    names = ctx.request.names_after(r"tabs") or ("Overview", "Details", "Reviews")
    h = sub_tag(ctx)
    panels = [f'<{h} class="h3">{esc(t)}</{h}><p>Everything about {esc(t.lower())} in one '
              f'place, kept short and up to date.</p>' for t in names]
    body = f"""
<section id="info" class="band">
  <div class="wrap">{heading(ctx, "More information")}
    {tab_widget("Sections", names, panels)}
  </div>
</section>"""
    script = """(() => {
  const tabs = Array.from(document.querySelectorAll('[role=tab]'));
  tabs.forEach(tab => tab.addEventListener('click', () => tabs.forEach(t => {
    t.setAttribute('aria-selected', String(t === tab));
    t.tabIndex = t === tab ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = t !== tab;
  })));
})();"""
    return [Block("info", "Info", body, script)]
