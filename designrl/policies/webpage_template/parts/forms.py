"""A contact or sign-up form with the fields the request lists, validated inline and confirmed
in the page."""

from __future__ import annotations

import re

from designrl.policies.webpage_template.block import (
    Block,
    Context,
    cap,
    esc,
    heading,
    js,
    slug,
    sub_tag,
)
from designrl.policies.webpage_template.request import Request, split_names

# (a word in the field's name, its input type): the first match wins.
FIELD_TYPES = (("mail", "email"), ("password", "password"), ("phone", "tel"), ("tel", "tel"),
               ("message", "textarea"), ("comment", "textarea"), ("select", "select"),
               ("topic", "select"), ("subject", "select"), ("date", "date"))


def _fields(req: Request) -> list[tuple[str, str, str]]:
    """(name, label, type) of the form fields the request lists, else name/email/message."""
    inline = re.search(r"\bwith\s+((?:an?\s+)?[\w -]+(?:,\s*[\w -]+)*\s+and\s+[\w -]+?)\s+fields",
                       req.text)
    lists = req.lists + ((split_names(re.sub(r"\ban?\s+", "", inline.group(1))),)
                         if inline else ())
    listed = next((names for names in lists if len(names) >= 2 and any(
        re.search(r"name|mail|message", n, re.I) for n in names)), ("name", "email", "message"))
    out = []
    for raw in listed:
        kind = next((t for word, t in FIELD_TYPES if word in raw.lower()), "text")
        label = re.sub(r"\s*\b(select|field|input|dropdown|box)\b", "", raw, flags=re.I).strip()
        out.append((slug(label), cap(label), kind))
    return out


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def contact(ctx: Context) -> list[Block]:
    """A contact form, or a sign-up form when the request asks for one."""
    req = ctx.request
    signup = req.has(r"sign-?up|register|create an account|join")
    topics = {"books": ["An order", "Delivery", "Returns", "Book recommendations"],
              "shoes": ["An order", "Sizing", "Returns", "Something else"]}.get(
        req.topic, ["A general question", "Support", "Billing", "Feedback"])
    rows, h = [], sub_tag(ctx)
    for name, label, kind in _fields(req):
        fid = f"f-{name}"
        common = (f'id="{fid}" name="{name}" required aria-describedby="{fid}-error"')
        if kind == "textarea":
            control = f'<textarea {common} rows="5"></textarea>'
        elif kind == "select":
            options = "".join(f"<option>{esc(t)}</option>" for t in topics)
            control = (f'<select {common}><option value="">Choose a {esc(label.lower())}</option>'
                       f"{options}</select>")
        else:
            auto = {"name": ' autocomplete="name"', "email": ' autocomplete="email"',
                    "password": ' autocomplete="new-password" minlength="8"'}.get(name, "")
            control = f'<input {common} type="{kind}"{auto}>'
        rows.append(f"""
          <div class="field"><label for="{fid}">{esc(label)}</label>{control}
            <p class="error" id="{fid}-error"></p></div>""")
    about = f" about {req.subject}" if req.subject else ""
    if signup:
        title, lead = f"Join {ctx.brand}", "Create your free account in under a minute."
        submit, thanks = "Create account", "Your account is ready. Welcome aboard!"
        aside = ("Why join?", [("Free forever", "The basics cost nothing, for as long as you "
                                "like."), ("No spam", "We email you only when it matters."),
                               ("Leave any time", "Delete your account in two clicks.")])
    else:
        title = "Get in touch"
        lead = (f"Questions{about}? Send us a message and we will reply within one working "
                f"day.")
        submit, thanks = "Send message", ("Thanks for writing to us. We will get back to you "
                                          "within one working day.")
        aside = ("Other ways to reach us", [
            ("Email", f"hello@{slug(ctx.brand)}.example"),
            ("Phone", "+1 555 0134 (9am to 5pm)"), ("Office", "12 Harbour Street, Springfield")])
    facts = "".join(f"<p><strong>{esc(k)}</strong><br>{esc(v)}</p>" for k, v in aside[1])
    body = f"""
<section id="contact">
  <div class="wrap">
    <div class="center head">{heading(ctx, title)}
      <p class="lead">{esc(lead)}</p></div>
    <div class="split">
      <div>
        <form id="contact-form" class="card" novalidate aria-label="{esc(title)}">{''.join(rows)}
          <button class="btn" type="submit">{esc(submit)}</button>
          <p class="small">What you type stays in this page: nothing is sent anywhere.</p>
        </form>
        <div id="contact-done" class="card done" role="status" tabindex="-1" hidden></div>
      </div>
      <aside class="card info" aria-labelledby="reach">
        <{h} class="h3" id="reach">{esc(aside[0])}</{h}>{facts}
      </aside>
    </div>
  </div>
</section>"""
    script = """(() => {
  const form = document.getElementById('contact-form'), done = document.getElementById('contact-done');
  const check = field => {
    const value = field.value.trim();
    if (!value) return (field.labels[0] ? field.labels[0].textContent : 'This field') + ' is required.';
    if (field.type === 'email' && !/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/.test(value))
      return 'Enter an email address like name@example.com.';
    if (field.type === 'password' && value.length < 8) return 'Use at least 8 characters.';
    return '';
  };
  const show = field => {
    const message = check(field);
    document.getElementById(field.id + '-error').textContent = message;
    field.setAttribute('aria-invalid', String(Boolean(message)));
    return !message;
  };
  for (const field of form.querySelectorAll('input, select, textarea'))
    field.addEventListener('blur', () => { if (field.value) show(field); });
  form.addEventListener('submit', event => {
    event.preventDefault();
    const fields = Array.from(form.querySelectorAll('input, select, textarea'));
    const bad = fields.filter(f => !show(f));
    if (bad.length) { bad[0].focus(); return; }
    const name = form.elements.name ? form.elements.name.value.trim() : '';
    done.innerHTML = '<SUB class="h3"></SUB><p></p>';
    done.querySelector('p').textContent = THANKS;
    done.querySelector('.h3').textContent = 'Thank you' + (name ? ', ' + name : '') + '!';
    form.hidden = true;
    done.hidden = false;
    done.focus();
  });
})();""".replace("SUB", h).replace("THANKS", js(thanks))
    return [Block("contact", "Sign up" if signup else "Contact", body, script)]
