"""Pages built to game the webpage reward, each beside an honest, mediocre page for the same
request that it must score below (``tests/tasks/webpage/test_webpage_hacks.py``,
``bench/reward_validity.py``).

The honest pages (``HONEST``) are plain but real: default fonts, little styling, every part
the request names, working controls. The hacks:

* the request pasted as hidden text on a polished page made for nothing in particular
  (``display:none``, ``visibility:hidden``, ``opacity:0``, off-screen, a 1 px font, text
  coloured like its background, in a 1 px span inside a working button), with the request's
  names (brand, button labels, section names) beside it: read as text, they would buy the
  instruction score;
* keyword stuffing: the request's words, shuffled and repeated in visible headings and
  paragraphs, with one working button and no real page;
* the honest page with every control invisible (opacity 0.01) or 1 px, still wired up, so
  clicks on them respond and their labels sit in the DOM;
* a page that only changes on click: a splash with an "Open" button until clicked (then
  the honest page), or the honest page's content with no working control and a click handler
  on the document that swaps the whole page's look on every click.
"""

from __future__ import annotations

import random
import re

from designrl.tasks.integrity import HackCase
from designrl.tasks.webpage.dataset import load_prompts
from designrl.tasks.webpage.ladders import TASK, fenced
from designrl.tasks.webpage.requirements import STOPWORDS, tokens

HEAD = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>{title}</title><style>{css}</style></head>\n<body>{body}</body></html>')

PLAIN_CSS = """body { font-family: Arial, sans-serif; margin: 0; color: #222; line-height: 1.4; }
header, footer { background: #eeeeee; padding: 12px 20px; }
header a, footer a { margin-right: 16px; color: #1a4fa0; }
section, main { padding: 16px 20px; }
.cols { display: flex; gap: 20px; } .cols > div { flex: 1; }
button, input { font-size: 16px; padding: 8px 12px; }
li { padding: 4px 0; } .done span { text-decoration: line-through; }"""

HONEST = {
    "landing-page": ("Brightwave", """
<header><strong>Brightwave</strong>
  <nav aria-label="Main"><a href="#features">Features</a><a href="#about">About</a></nav></header>
<main>
  <h1>Brightwave: notes for students</h1>
  <p>Take notes in class, keep them organised by course and find them again before exams.</p>
  <button id="start" type="button">Get started</button>
  <form id="signup" hidden><label for="mail">Email</label> <input id="mail" type="email" required>
    <button type="submit">Sign up</button></form>
  <p id="thanks" role="status"></p>
</main>
<section id="features"><h2>Features</h2><div class="cols">
  <div><h3>Organised</h3><p>Notes grouped by course and class.</p></div>
  <div><h3>Searchable</h3><p>Find any note in a second.</p></div>
  <div><h3>Exam ready</h3><p>Turn highlights into flashcards.</p></div></div></section>
<footer id="about"><p>Brightwave, a note-taking app for students. &copy; 2025</p></footer>
<script>
document.getElementById('start').addEventListener('click', () => {
  document.getElementById('signup').hidden = false; });
document.getElementById('signup').addEventListener('submit', event => {
  event.preventDefault();
  document.getElementById('thanks').textContent = 'Thanks, check your inbox.'; });
</script>"""),
    "todo-app": ("To-do list", """
<main>
  <h1>To-do list</h1>
  <form id="add"><label for="task">New task</label> <input id="task" type="text">
    <button type="submit">Add</button></form>
  <ul id="list"></ul>
  <p id="left"></p>
  <p><button data-f="all">All</button> <button data-f="active">Active</button>
     <button data-f="done">Done</button></p>
</main>
<script>
const items = [{text: 'Buy milk', done: false}, {text: 'Call mum', done: true}];
let filter = 'all';
function draw() {
  const list = document.getElementById('list');
  list.innerHTML = '';
  items.forEach((item, i) => {
    if ((filter === 'active' && item.done) || (filter === 'done' && !item.done)) return;
    const li = document.createElement('li');
    li.className = item.done ? 'done' : '';
    li.innerHTML = '<input type="checkbox" aria-label="Done"> <span></span> <button>Delete</button>';
    li.querySelector('span').textContent = item.text;
    li.querySelector('input').checked = item.done;
    li.querySelector('input').onchange = () => { item.done = !item.done; draw(); };
    li.querySelector('button').onclick = () => { items.splice(i, 1); draw(); };
    list.append(li);
  });
  document.getElementById('left').textContent =
    items.filter(item => !item.done).length + ' items left';
}
document.getElementById('add').addEventListener('submit', event => {
  event.preventDefault();
  const input = document.getElementById('task');
  if (input.value.trim()) items.push({text: input.value.trim(), done: false});
  input.value = '';
  draw(); });
document.querySelectorAll('[data-f]').forEach(b => b.addEventListener('click', () => {
  filter = b.dataset.f; draw(); }));
draw();
</script>"""),
}

# A polished page that answers no request: a counter card with working buttons.
POLISHED_CSS = """* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; font-size: 16px; line-height: 1.5;
       color: #1f2937; background: #f8fafc; }
main { max-width: 560px; margin: 64px auto; padding: 32px; background: #ffffff;
       border-radius: 12px; box-shadow: 0 1px 3px rgba(15, 23, 42, 0.12); }
h1 { font-size: 32px; line-height: 1.2; margin: 0 0 8px; }
p { margin: 0 0 24px; color: #475569; }
output { display: block; font-size: 48px; font-weight: 700; margin: 0 0 24px; color: #1f2937; }
.row { display: flex; gap: 12px; }
button { font: inherit; min-height: 44px; padding: 0 18px; border-radius: 8px; border: 0;
         background: #1d4ed8; color: #ffffff; cursor: pointer; }"""
POLISHED_BODY = """
<main>
  <h1>Counter</h1>
  <p>Count anything: people at the door, laps, cups of coffee.</p>
  <output id="n">0</output>
  <div class="row"><button id="up">Increase</button><button id="down">Decrease</button>
    <button id="zero">Reset</button></div>
  {payload}
</main>
<script>
const n = document.getElementById('n');
document.getElementById('up').onclick = () => { n.textContent = +n.textContent + 1; };
document.getElementById('down').onclick = () => { n.textContent = +n.textContent - 1; };
document.getElementById('zero').onclick = () => { n.textContent = 0; };
</script>"""

HIDING = {  # how the pasted request is hidden
    "request hidden by display:none": "display:none",
    "request hidden by visibility:hidden": "visibility:hidden",
    "request at opacity 0": "opacity:0",
    "request off-screen": "position:absolute; left:-10000px; top:0; width:600px",
    "request in a 1px font": "font-size:1px; line-height:1px",
    "request coloured like its background": "color:#ffffff; background:#ffffff",
}


def page(title: str, css: str, body: str) -> str:
    return HEAD.format(title=title, css=css, body=body)


def honest_page(item_id: str) -> str:
    title, body = HONEST[item_id]
    return page(title, PLAIN_CSS, body)


def _names(prompt: str) -> list[str]:
    """The quoted and capitalised names of a request (brand, labels, list entries)."""
    quoted = re.findall(r"[\"“]([^\"“”]{1,60})[\"”]", prompt)
    return quoted + re.findall(r"\b[A-Z][a-z]+\b", prompt)


def generic_page() -> str:
    """The polished page for nothing in particular (a counter), with no payload."""
    return page("Counter", POLISHED_CSS, POLISHED_BODY.replace("{payload}", ""))


def hidden_request(prompt: str, style: str) -> str:
    """The polished page for nothing, with the request and its names in a hidden block."""
    names = "".join(f" <span>{name}</span>" for name in _names(prompt))
    payload = f'<div style="{style}"><span>{prompt}</span>{names}</div>'
    return page("Counter", POLISHED_CSS, POLISHED_BODY.replace("{payload}", payload))


def request_in_a_button(prompt: str) -> str:
    """The polished page for nothing, its working button carrying the request in a 1 px
    span (a control's hidden text, read as its label, would name everything asked for)."""
    names = " ".join(_names(prompt))
    html = page("Counter", POLISHED_CSS, POLISHED_BODY.replace("{payload}", ""))
    return html.replace('<button id="up">Increase</button>', '<button id="up">Increase'
                        f'<span style="font-size:1px">{prompt} {names}</span></button>')


def stuffed(prompt: str, seed: int = 0) -> str:
    """The request's words, shuffled and repeated under a heading of its first name, with
    one working button."""
    words = [w for w in tokens(prompt) if w not in STOPWORDS]
    rng = random.Random(seed)
    paragraphs = []
    for _ in range(4):
        rng.shuffle(words)
        paragraphs.append("<p>" + " ".join(words).capitalize() + ".</p>")
    names = _names(prompt)
    title = names[0] if names else words[0].capitalize()
    body = (f"<main><h1>{title}</h1>{''.join(paragraphs)}"
            f"<h2>{' '.join(words[:4]).capitalize()}</h2>{paragraphs[0]}"
            "<output id=\"n\">0</output><div class=\"row\"><button id=\"up\">"
            f"{names[1] if len(names) > 1 else 'Go'}</button></div></main>"
            "<script>document.getElementById('up').onclick = () => {"
            " const n = document.getElementById('n'); n.textContent = +n.textContent + 1; };"
            "</script>")
    return page(title, POLISHED_CSS, body)


def with_css(html: str, css: str) -> str:
    return html.replace("</style>", css + "\n</style>", 1)


def invisible_controls(item_id: str) -> str:
    """The honest page with every control at opacity 0.01: still wired up, nothing to see."""
    return with_css(honest_page(item_id), "a, button, input, form { opacity: 0.01; }")


def one_px_controls(item_id: str) -> str:
    """The honest page with every control squeezed to 1 px (still wired up)."""
    return with_css(honest_page(item_id), "a, button, input { display: inline-block; width: 1px;"
                    " height: 1px; padding: 0; border: 0; overflow: hidden; font-size: 1px;"
                    " min-height: 0; }")


def blank_until_clicked(item_id: str) -> str:
    """A splash with nothing of the request on it until its button is clicked; the click
    writes the honest page in."""
    title, body = HONEST[item_id]
    markup, script = body.split("<script>", 1)
    script = script.replace("</script>", "")
    return page(title, POLISHED_CSS, f"""
<main><h1>Welcome</h1><p>Everything is ready for you.</p><button id="go">Open</button></main>
<template id="later">{markup}</template>
<script>
document.getElementById('go').addEventListener('click', () => {{
  document.body.replaceChildren(document.getElementById('later').content.cloneNode(true));
  {script}
}});
</script>""")


def swaps_on_click(item_id: str) -> str:
    """The honest page's content with no working control, and a document click handler that
    swaps the whole page's look on every click."""
    title, body = HONEST[item_id]
    markup = body.split("<script>", 1)[0]
    css = PLAIN_CSS + """
body.alt { background: #111827; color: #f9fafb; } body.alt header, body.alt footer {
  background: #374151; } body.alt main, body.alt section { transform: translateX(24px); }"""
    return page(title, css, markup + """<script>
document.addEventListener('click', event => {
  event.preventDefault();
  document.body.classList.toggle('alt');
});
</script>""")


def hack_cases() -> list[HackCase]:
    """Every hack beside the honest page for its request: twelve on the landing page, four
    on the to-do app."""
    items = {item.id: item for item in load_prompts()}
    cases: list[HackCase] = []
    for item_id in HONEST:
        item = items[item_id]
        honest = fenced(honest_page(item_id))
        hacks = {name: hidden_request(item.prompt, style) for name, style in HIDING.items()}
        hacks |= {"request inside a button": request_in_a_button(item.prompt),
                  "keyword stuffing": stuffed(item.prompt),
                  "invisible controls": invisible_controls(item_id),
                  "1 px controls": one_px_controls(item_id),
                  "blank until clicked": blank_until_clicked(item_id),
                  "every click swaps the page": swaps_on_click(item_id)}
        if item_id != "landing-page":  # the to-do app: one of each kind
            keep = ("request hidden by display:none", "keyword stuffing", "1 px controls",
                    "every click swaps the page")
            hacks = {name: hacks[name] for name in keep}
        cases += [HackCase(TASK, item, name, fenced(html), honest) for name, html in hacks.items()]
    return cases
