"""A product page: photo, price, colour and size choices, a quantity stepper and a cart, then
tabs of description, specifications and reviews."""

from __future__ import annotations

from designrl.policies.webpage_template.block import Block, Context, cap, esc, heading, picture
from designrl.policies.webpage_template.parts.tabs import tab_widget


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def product(ctx: Context) -> list[Block]:
    """The product itself, then its details in tabs, as two sections."""
    req, rng = ctx.request, ctx.rng
    thing = req.subject or "product"
    maker = req.brand or ctx.brand.split()[0]
    name = f"{maker} {rng.choice(('Glide', 'Stride', 'Pace', 'Drift'))} {rng.randint(2, 5)}"
    price = rng.choice((89, 109, 129, 149))
    colours = ("Ocean blue", "Graphite", "Sunset orange")
    shoes = req.topic == "shoes"
    sizes = [str(s) for s in range(38, 47)] if shoes else ["S", "M", "L", "XL"]
    swatches = "".join(
        f'<label class="pill"><input type="radio" name="colour" value="{c}"'
        f'{" checked" if i == 0 else ""}> {c}</label>' for i, c in enumerate(colours))
    options = "".join(f"<option>{s}</option>" for s in sizes)
    tabs = req.names_after(r"tabs") or ("Description", "Specs", "Reviews")
    specs = [("Weight", "248 g (size 42)"), ("Drop", "8 mm"), ("Upper", "Recycled knit mesh"),
             ("Best for", "Road running, 5 km to marathon")] if shoes else [
        ("Weight", "1.2 kg"), ("Materials", "Recycled aluminium and cotton"),
        ("Warranty", "Two years"), ("In the box", f"The {thing} and a quick-start card")]
    reviews = [("Priya", "★★★★★", "Light, springy and comfortable from the first run."),
               ("Tom", "★★★★☆", "Great grip in the wet. I went half a size up."),
               ("Lena", "★★★★★", "My third pair: they last for about 800 km.")] if shoes else [
        ("Priya", "★★★★★", "Well made and exactly as described."),
        ("Tom", "★★★★☆", "Does the job nicely. Delivery took three days."),
        ("Lena", "★★★★★", "Bought a second one as a gift.")]
    about = ("pairs a soft, responsive foam midsole with a breathable knit upper, so easy miles "
             "feel easier and fast days feel faster.</p><p>A rubber outsole with a wide base "
             "keeps you steady on wet roads and tight corners.") if shoes else (
        f"is our best-loved {esc(thing)}: simple to use, built to last and backed by a two-year "
        f"warranty.</p><p>Every order ships within one working day.")
    panels = {
        0: f"<p>The {esc(name)} {about}</p>",
        1: "<table><caption>Specifications</caption><tbody>" + "".join(
            f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in specs)
           + "</tbody></table>",
        2: "".join(f"<figure class='review'><blockquote><p>{esc(t)}</p></blockquote>"
                   f"<figcaption><span aria-label='{s.count('★')} out of 5 stars'>{s}</span> "
                   f"{esc(w)}</figcaption></figure>" for w, s, t in reviews),
    }
    info = tab_widget("Product information", tabs,
                      [panels.get(i, "<p>More to come soon.</p>") for i in range(len(tabs))])
    cart = ('<button type="button" class="cart" id="cart-button" aria-label="Cart, 0 items">'
            'Cart <span class="badge-count" id="cart-count" aria-hidden="true">0</span></button>')
    body = f"""
<section id="product">
  <div class="wrap split product">
    <figure class="photo"><img src="{esc(picture(ctx, name))}" alt="{esc(name)}, side view"
      width="560" height="420"></figure>
    <div>
      <p class="eyebrow">{esc(cap(thing))}</p>
      {heading(ctx, name)}
      <p class="small"><span aria-label="4.6 out of 5 stars">★★★★☆</span> 4.6 · 128 reviews</p>
      <p class="price"><strong>${price}</strong></p>
      <p>Everyday comfort with a lively ride. Free delivery and 30-day returns.</p>
      <fieldset class="choice"><legend>Colour: <span id="colour-name">{colours[0]}</span></legend>
        {swatches}</fieldset>
      <div class="row2">
        <div class="field"><label for="size">Size</label>
          <select id="size" name="size"><option value="">Choose a size</option>{options}</select></div>
        <div class="field"><label for="qty">Quantity</label>
          <div class="stepper"><button type="button" id="qty-down" aria-label="Decrease quantity">−</button>
          <input id="qty" name="qty" type="number" min="1" max="10" value="1" inputmode="numeric">
          <button type="button" id="qty-up" aria-label="Increase quantity">+</button></div></div>
      </div>
      <button type="button" class="btn wide" id="add-to-cart">{esc(req.label(r"cart", "Add to cart"))}</button>
      <p id="cart-status" class="status" role="status">Choose a size to add it to your cart.</p>
    </div>
  </div>
</section>"""
    details = f"""
<section id="details" class="band">
  <div class="wrap">
    <h2>About the {esc(name)}</h2>
    {info}
  </div>
</section>"""
    script = """(() => {
  const qty = document.getElementById('qty'), size = document.getElementById('size');
  const status = document.getElementById('cart-status'), count = document.getElementById('cart-count');
  const cartButton = document.getElementById('cart-button');
  let inCart = 0;
  const clamp = v => Math.min(10, Math.max(1, Math.round(Number(v) || 1)));
  const summary = () => {
    const colour = document.querySelector('input[name=colour]:checked').value;
    status.textContent = qty.value + ' × ' + colour + (size.value ? ', size ' + size.value : '') +
      (size.value ? ' ready to add.' : ': choose a size to add it to your cart.');
  };
  document.getElementById('qty-down').addEventListener('click', () => { qty.value = clamp(qty.value - 1); summary(); });
  document.getElementById('qty-up').addEventListener('click', () => { qty.value = clamp(Number(qty.value) + 1); summary(); });
  qty.addEventListener('input', summary);
  qty.addEventListener('change', () => { qty.value = clamp(qty.value); summary(); });
  size.addEventListener('change', summary);
  document.querySelectorAll('input[name=colour]').forEach(radio => radio.addEventListener('click', () => {
    document.getElementById('colour-name').textContent = radio.value;
    summary();
  }));
  document.getElementById('add-to-cart').addEventListener('click', () => {
    if (!size.value) { size.selectedIndex = 1; }
    inCart += clamp(qty.value);
    count.textContent = inCart;
    cartButton.setAttribute('aria-label', 'Cart, ' + inCart + ' items');
    cartButton.classList.add('bump');
    status.textContent = 'Added ' + clamp(qty.value) + ' × size ' + size.value +
      ' to your cart. Cart total: ' + inCart + '.';
  });
  cartButton.addEventListener('click', () => {
    status.textContent = inCart ? 'Your cart holds ' + inCart + ' pair' + (inCart > 1 ? 's' : '') +
      '. Checkout is coming soon.' : 'Your cart is empty.';
  });
  const tabs = Array.from(document.querySelectorAll('[role=tab]'));
  const select = tab => tabs.forEach(t => {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  });
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', event => {
      const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
      if (step) { const t = tabs[(i + step + tabs.length) % tabs.length]; select(t); t.focus(); }
    });
  });
})();"""
    return [Block("product", "Product", body, script, header_extra=cart),
            Block("details", "Details", details)]
