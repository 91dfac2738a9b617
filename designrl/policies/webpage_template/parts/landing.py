"""A landing page's sections: the hero (with an optional sign-up form it reveals), feature
cards, and pricing plans with a billing-period switch."""

from __future__ import annotations

import re

from designrl.policies.webpage_template.block import Block, Context, cap, esc, heading, js, sub_tag
from designrl.policies.webpage_template.content import FEATURES
from designrl.policies.webpage_template.request import split_names

ICON = ("<svg class='icon' viewBox='0 0 24 24' aria-hidden='true' focusable='false'>"
        "<circle cx='12' cy='12' r='11' fill='var(--soft)'/>"
        "<path d='M7 12.5l3.2 3.2L17 9' fill='none' stroke='var(--primary)' stroke-width='2.4' "
        "stroke-linecap='round' stroke-linejoin='round'/></svg>")


def hero(ctx: Context) -> list[Block]:
    """The opening section: a headline from the request, its pitch and call to action."""
    req, brand = ctx.request, ctx.brand
    what = re.sub(r"^(an?|the)\s+", "", req.descriptor) or req.subject or "app"
    audience = ""
    split = re.match(r"(.+?)\s+for\s+(.+)$", what)
    if split:
        what, audience = split.groups()
    headline = (f"The {what} built for {audience}" if audience
                else f"{brand}: the {what} that keeps up with you")
    pitch = (f"{brand} keeps everything in one calm place, so you spend less time organising "
             f"and more time on what matters. Free to start, ready in a minute.")
    cta = req.label(r"start|sign|join|try|begin", "Get started")
    reveals = req.has(r"reveal|sign-?up|register|form")
    form = ""
    script = ""
    if reveals:
        form = f"""
    <form id="signup" class="card signup" hidden novalidate aria-labelledby="signup-title">
      <h2 id="signup-title">Create your free {esc(brand)} account</h2>
      <div class="row2">
        <div class="field"><label for="su-name">Full name</label>
          <input id="su-name" name="name" autocomplete="name" required></div>
        <div class="field"><label for="su-email">Email</label>
          <input id="su-email" name="email" type="email" autocomplete="email" required></div>
      </div>
      <p class="error" id="su-error"></p>
      <button class="btn" type="submit">Create account</button>
    </form>
    <div id="signup-done" class="card done" role="status" hidden></div>"""
        script = """(() => {
  const open = document.getElementById('cta'), form = document.getElementById('signup');
  const done = document.getElementById('signup-done'), error = document.getElementById('su-error');
  open.addEventListener('click', () => {
    const show = form.hidden && done.hidden;
    form.hidden = !show;
    open.setAttribute('aria-expanded', String(show));
    open.textContent = show ? 'Hide sign-up' : OPEN_LABEL;
    if (show) form.querySelector('input').focus();
  });
  form.addEventListener('submit', event => {
    event.preventDefault();
    const name = form.elements.name.value.trim(), email = form.elements.email.value.trim();
    if (!name || !/^\\S+@\\S+\\.\\S+$/.test(email)) {
      error.textContent = 'Please enter your name and a valid email address.';
      return;
    }
    form.hidden = true;
    done.hidden = false;
    done.textContent = 'Welcome aboard, ' + name + '! We sent a confirmation link to ' + email + '.';
  });
})();""".replace("OPEN_LABEL", js(cta))
        button = (f'<button id="cta" class="btn" type="button" aria-expanded="false" '
                  f'aria-controls="signup">{esc(cta)}</button>')
    else:
        button = f'<a id="cta" class="btn" href="#{{next}}">{esc(cta)}</a>'
    eyebrow = cap(req.descriptor or f"Meet {brand}")
    body = f"""
<section id="home" class="hero">
  <div class="wrap narrow center">
    <p class="eyebrow">{esc(eyebrow)}</p>
    {heading(ctx, headline)}
    <p class="lead">{esc(pitch)}</p>
    <div class="actions">{button}</div>{form}
  </div>
</section>"""
    return [Block("home", "Home", body, script)]


def features(ctx: Context) -> list[Block]:
    """Feature cards for the request's topic, as many as it asks for."""
    req = ctx.request
    items = FEATURES.get(req.topic, FEATURES["general"])
    n = req.count("column", req.count("features?", 3))
    h = sub_tag(ctx)
    cards = "".join(f"""
      <article class="card feature">{ICON}<{h} class="h3">{esc(title)}</{h}><p>{esc(text)}</p>
      </article>"""
                    for title, text in (items * 2)[:n])
    audience = re.search(r"\bfor\s+([a-z]+)\s*$", req.descriptor)
    title = (f"Why {audience.group(1)} choose {ctx.brand}" if audience
             else f"Everything you need in {ctx.brand}")
    body = f"""
<section id="features" class="band">
  <div class="wrap">
    <div class="center head">{heading(ctx, title)}
      <p class="lead">Simple tools that stay out of your way.</p></div>
    <div class="grid" style="--cols:{min(n, 4)}">{cards}
    </div>
  </div>
</section>"""
    return [Block("features", "Features", body)]


def pricing(ctx: Context) -> list[Block]:
    """The plans the request names, a monthly/yearly switch and a choose button each."""
    req = ctx.request
    inline = re.search(r"([A-Z]\w*(?:,\s*[A-Z]\w*)*,?\s+(?:and|or)\s+[A-Z]\w*)\s+(?:plans|tiers)",
                       req.text)
    lists = req.lists + ((split_names(inline.group(1)),) if inline else ())
    names = next((names for names in lists if 2 <= len(names) <= 4
                  and all(n[:1].isupper() for n in names)), ())
    n = len(names) or req.count("plans?", 3)
    names = names or ("Starter", "Pro", "Team", "Enterprise")[:n]
    prices = [0, 12, 29, 59] if names[0].lower() == "free" else [9, 19, 39, 79]
    perks = [["Up to 3 projects", "1 GB of storage", "Community support"],
             ["Unlimited projects", "50 GB of storage", "Email support"],
             ["Everything in Pro", "Shared workspaces", "Priority support"],
             ["Everything in Team", "Single sign-on", "A dedicated manager"]]
    period = next((t for t in req.toggles if "month" in t[0].lower()), ("Monthly", "Yearly"))
    cards, h = [], sub_tag(ctx)
    for i, name in enumerate(names):
        badge = '<p class="badge">Most popular</p>' if i == 1 else ""
        items = "".join(f"<li>{esc(p)}</li>" for p in perks[i % 4])
        cards.append(f"""
      <article class="card plan{' featured' if i == 1 else ''}" aria-labelledby="plan-{i}">
        {badge}<{h} class="h3" id="plan-{i}">{esc(name)}</{h}>
        <p class="price" data-month="{prices[i]}"><strong>${prices[i]}</strong>
          <span class="per">/ month</span></p>
        <ul class="ticks">{items}</ul>
        <button class="btn ghost choose" type="button" aria-pressed="false"
          data-plan="{esc(name)}">Choose {esc(name)}</button>
      </article>""")
    title = f"Plans for every {ctx.brand} user" if req.brand else "Simple, honest pricing"
    body = f"""
<section id="pricing">
  <div class="wrap">
    <div class="center head">{heading(ctx, title)}
      <p class="lead">{"Start free and upgrade" if prices[0] == 0 else "Start small and grow"}
        when you need more. Cancel any time.</p>
      <div class="segmented" role="group" aria-label="Billing period">
        <button type="button" class="seg" data-period="month" aria-pressed="true">{esc(cap(period[0]))}</button>
        <button type="button" class="seg" data-period="year" aria-pressed="false">{esc(cap(period[1]))} (2 months free)</button>
      </div>
    </div>
    <div class="grid" style="--cols:{len(names)}">{''.join(cards)}
    </div>
    <p id="plan-status" class="status center" role="status">Pick the plan that fits you.</p>
  </div>
</section>"""
    script = """(() => {
  let period = 'month', chosen = null;
  const status = document.getElementById('plan-status');
  const render = () => document.querySelectorAll('.price').forEach(price => {
    const monthly = Number(price.dataset.month);
    const value = period === 'month' ? monthly : monthly * 10;
    price.querySelector('strong').textContent = '$' + value;
    price.querySelector('.per').textContent = '/ ' + period;
  });
  const describe = () => {
    if (!chosen) return;
    const price = chosen.closest('.plan').querySelector('strong').textContent;
    status.textContent = 'You chose the ' + chosen.dataset.plan + ' plan: ' + price + ' per ' +
      period + '. Nice pick!';
  };
  document.querySelectorAll('[data-period]').forEach(button => button.addEventListener('click', () => {
    period = button.dataset.period;
    document.querySelectorAll('[data-period]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
    if (chosen) describe(); else status.textContent = 'Showing ' + period + 'ly prices.';
  }));
  document.querySelectorAll('.choose').forEach(button => button.addEventListener('click', () => {
    chosen = button;
    document.querySelectorAll('.choose').forEach(b => {
      const on = b === button;
      b.setAttribute('aria-pressed', String(on));
      b.textContent = on ? 'Selected' : 'Choose ' + b.dataset.plan;
      b.closest('.plan').classList.toggle('chosen', on);
    });
    describe();
  }));
})();"""
    return [Block("pricing", "Pricing", body, script)]
