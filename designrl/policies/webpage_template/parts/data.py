"""Data shown as a bar chart whose bars read out their value, or as a table that sorts on its
last column."""

from __future__ import annotations

from designrl.policies.webpage_template.block import Block, Context, cap, esc, heading
from designrl.policies.webpage_template.content import TABLES


def chart(ctx: Context) -> list[Block]:
    """A bar chart of monthly totals; choosing a bar reads its value out."""
    rng = ctx.rng
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    values = [rng.randint(20, 100) for _ in months]
    bars = "".join(f"""
        <li><button type="button" class="barbtn" data-i="{i}" aria-label="{m}: {v}">
          <span class="mm small">{v}</span><span class="bar" style="height:{round(1.4 * v)}px"></span>
          <span class="d">{m}</span></button></li>""" for i, (m, v) in enumerate(zip(months, values, strict=True)))
    body = f"""
<section id="chart">
  <div class="wrap">{heading(ctx, "Monthly totals")}
    <figure class="chart"><ul class="bars week" style="--cols:{len(months)}">{bars}</ul>
      <figcaption class="small">Choose a bar to read its value.</figcaption>
      <p id="chart-status" class="status center" role="status"></p>
    </figure>
  </div>
</section>"""
    script = """(() => {
  document.querySelectorAll('.barbtn').forEach(b => b.addEventListener('click', () => {
    document.querySelectorAll('.barbtn').forEach(o => o.classList.toggle('on', o === b));
    document.getElementById('chart-status').textContent = b.getAttribute('aria-label');
  }));
})();"""
    return [Block("chart", "Chart", body, script)]


def table(ctx: Context) -> list[Block]:
    """The table the request's words pick, sortable on its last column."""
    title, columns, rows = next((t, c, r) for words, t, c, r in TABLES
                                if ctx.request.has(words))
    body_rows = "".join(f"<tr><th scope='row'>{esc(a)}</th><td>{esc(b)}</td><td>{c}</td></tr>"
                        for a, b, c in rows)
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in columns)
    body = f"""
<section id="table">
  <div class="wrap">{heading(ctx, title)}
    <div class="toolbar"><p class="small" id="table-note">{len(rows)} rows, in their usual order.</p>
      <button type="button" class="btn ghost" id="sort">Sort by {esc(columns[2].lower())}</button></div>
    <table class="data">
      <thead><tr>{head}</tr></thead>
      <tbody id="rows">{body_rows}</tbody></table>
  </div>
</section>"""
    script = """(() => {
  let up = true;
  const button = document.getElementById('sort'), label = button.textContent;
  button.addEventListener('click', () => {
    const body = document.getElementById('rows');
    const rows = Array.from(body.rows).sort((a, b) => {
      const d = Number(a.cells[2].textContent) - Number(b.cells[2].textContent);
      return up ? d : -d;
    });
    body.replaceChildren(...rows);
    document.getElementById('table-note').textContent = up ? 'Sorted, lowest first.' : 'Sorted, highest first.';
    button.textContent = up ? label + ' (high first)' : label;
    up = !up;
  });
})();"""
    return [Block("table", cap(title.split()[-1]), body, script)]
