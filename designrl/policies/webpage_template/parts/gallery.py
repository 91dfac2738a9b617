"""A picture gallery: category filters and a lightbox that steps through the pictures shown."""

from __future__ import annotations

from designrl.policies.webpage_template.block import Block, Context, esc, heading, js, picture


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def gallery(ctx: Context) -> list[Block]:
    """A grid of pictures with category filters and a lightbox."""
    req = ctx.request
    n = req.count("(?:pictures|images|photos)", 8)
    cats = ("Nature", "City", "People")
    captions = ("Morning mist over the lake", "Harbour lights at dusk", "Market day in the old town",
                "Pine forest after rain", "Rooftops from the bell tower", "Friends on the pier",
                "Wildflowers in June", "Cyclists crossing the bridge", "A quiet reading corner",
                "Waves at the north beach", "Street musician at noon", "Snow on the ridge")
    kinds = (0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 2, 0)
    shots = []
    data = []
    for i in range(n):
        caption, cat = captions[i % 12], cats[kinds[i % 12]]
        src = picture(ctx, caption, i)
        data.append({"src": src, "caption": caption, "cat": cat})
        shots.append(f"""
      <figure class="shot" data-cat="{cat}">
        <button type="button" class="shot-open" data-index="{i}" aria-label="Open {esc(caption)}">
          <img src="{esc(src)}" alt="{esc(caption)}" width="400" height="300"></button>
        <figcaption>{esc(caption)}<span class="tag">{cat}</span></figcaption>
      </figure>""")
    filters = "".join(f'<button type="button" class="seg" data-cat="{c}" aria-pressed="'
                      f'{str(c == "All").lower()}">{c}</button>' for c in ("All", *cats))
    body = f"""
<section id="gallery">
  <div class="wrap">
    <div class="center head">{heading(ctx, "Gallery")}
      <p class="lead">A small collection of favourite shots. Choose a picture to see it larger.</p>
      <div class="segmented" role="group" aria-label="Filter by category">{filters}</div>
      <p id="gallery-status" class="small" aria-live="polite">Showing all {n} pictures</p>
    </div>
    <div class="grid shots" style="--cols:4">{''.join(shots)}
    </div>
  </div>
  <div id="lightbox" class="lightbox" role="dialog" aria-modal="true" aria-labelledby="lb-caption" hidden>
    <div class="lb-panel">
      <img id="lb-img" src="{esc(data[0]['src'])}" alt="">
      <p id="lb-caption" class="lb-caption"></p>
      <div class="lb-controls">
        <button type="button" class="btn ghost" id="lb-prev">Previous</button>
        <button type="button" class="btn" id="lb-close">Close</button>
        <button type="button" class="btn ghost" id="lb-next">Next</button>
      </div>
    </div>
  </div>
</section>"""
    script = """(() => {
  const shots = SHOTS, box = document.getElementById('lightbox');
  const img = document.getElementById('lb-img'), caption = document.getElementById('lb-caption');
  const status = document.getElementById('gallery-status');
  let current = 0, opener = null;
  const visible = () => shots.map((s, i) => i).filter(
    i => !document.querySelectorAll('.shot')[i].hidden);
  const show = index => {
    current = index;
    img.src = shots[index].src;
    img.alt = shots[index].caption;
    caption.textContent = shots[index].caption + ' (' + shots[index].cat + ', ' + (index + 1) +
      ' of ' + shots.length + ')';
  };
  const step = delta => {
    const order = visible(), at = order.indexOf(current);
    show(order[(at + delta + order.length) % order.length]);
  };
  const close = () => { box.hidden = true; if (opener) opener.focus(); };
  document.querySelectorAll('.shot-open').forEach(button => button.addEventListener('click', () => {
    opener = button;
    show(Number(button.dataset.index));
    box.hidden = false;
    document.getElementById('lb-close').focus();
  }));
  document.getElementById('lb-prev').addEventListener('click', () => step(-1));
  document.getElementById('lb-next').addEventListener('click', () => step(1));
  document.getElementById('lb-close').addEventListener('click', close);
  box.addEventListener('click', event => { if (event.target === box) close(); });
  document.addEventListener('keydown', event => {
    if (box.hidden) return;
    if (event.key === 'Escape') close();
    if (event.key === 'ArrowLeft') step(-1);
    if (event.key === 'ArrowRight') step(1);
  });
  document.querySelectorAll('.segmented [data-cat]').forEach(button => button.addEventListener('click', () => {
    const cat = button.dataset.cat;
    document.querySelectorAll('.segmented [data-cat]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    let count = 0;
    document.querySelectorAll('.shot').forEach(shot => {
      shot.hidden = cat !== 'All' && shot.dataset.cat !== cat;
      count += shot.hidden ? 0 : 1;
    });
    status.textContent = cat === 'All' ? 'Showing all ' + count + ' pictures'
      : 'Showing ' + count + ' ' + cat.toLowerCase() + ' pictures';
  }));
})();""".replace("SHOTS", js(data))
    return [Block("gallery", "Gallery", body, script)]
