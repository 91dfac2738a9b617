"""Small single-purpose apps: a to-do list with filters and a calculator that chains operations."""

from __future__ import annotations

from designrl.policies.webpage_template.block import Block, Context, esc, heading, js


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def todo(ctx: Context) -> list[Block]:
    """A to-do list: add, tick off, delete, and filter by the request's views."""
    req = ctx.request
    filters = next((names for names in req.lists if len(names) >= 2
                    and names[0].lower() == "all"), ("All", "Active", "Done"))
    start = [("Read chapter 4 for Monday", True), ("Buy groceries for the week", False),
             ("Call the dentist", False)]
    buttons = "".join(
        f'<button type="button" class="seg" data-filter="{i}" aria-pressed="{str(i == 0).lower()}">'
        f'{esc(name)}</button>' for i, name in enumerate(filters[:3]))
    body = f"""
<section id="tasks">
  <div class="wrap narrow">
    <div class="center head">{heading(ctx, "To-do list")}
      <p class="lead">Add what you need to do, tick it off when it is done.</p></div>
    <div class="card app">
      <form id="todo-form" class="add" autocomplete="off">
        <label for="todo-input">New task</label>
        <div class="inline">
          <input id="todo-input" name="task" placeholder="e.g. Water the plants" maxlength="80">
          <button class="btn" type="submit">{esc(req.label(r"^add", "Add"))}</button>
        </div>
        <p class="error" id="todo-error"></p>
      </form>
      <div class="toolbar">
        <p id="todo-count" class="count" aria-live="polite"></p>
        <div class="segmented" role="group" aria-label="Show tasks">{buttons}</div>
      </div>
      <ul id="todo-list" class="todo-list"></ul>
      <p id="todo-empty" class="empty" hidden>Nothing to show here.</p>
    </div>
  </div>
</section>"""
    script = """(() => {
  let tasks = START.map(([text, done], id) => ({id, text, done})), next = tasks.length, view = 0;
  const list = document.getElementById('todo-list'), count = document.getElementById('todo-count');
  const empty = document.getElementById('todo-empty'), form = document.getElementById('todo-form');
  const input = document.getElementById('todo-input'), error = document.getElementById('todo-error');
  const shown = t => view === 0 || (view === 1 ? !t.done : t.done);
  const render = () => {
    list.replaceChildren();
    for (const task of tasks.filter(shown)) {
      const li = document.createElement('li');
      li.className = task.done ? 'done' : '';
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = task.done;
      box.addEventListener('change', () => { task.done = box.checked; render(); });
      const span = document.createElement('span');
      span.textContent = task.text;
      label.append(box, span);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'link-btn';
      remove.textContent = 'Delete';
      remove.setAttribute('aria-label', 'Delete ' + task.text);
      remove.addEventListener('click', () => { tasks = tasks.filter(t => t !== task); render(); });
      li.append(label, remove);
      list.append(li);
    }
    const left = tasks.filter(t => !t.done).length;
    count.textContent = left + (left === 1 ? ' item' : ' items') + ' left';
    empty.hidden = list.children.length > 0;
  };
  form.addEventListener('submit', event => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) { error.textContent = 'Type a task first.'; return; }
    error.textContent = '';
    tasks.push({id: next++, text, done: false});
    input.value = '';
    render();
  });
  document.querySelectorAll('[data-filter]').forEach(button => button.addEventListener('click', () => {
    view = Number(button.dataset.filter);
    document.querySelectorAll('[data-filter]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  render();
})();""".replace("START", js(start))
    return [Block("tasks", "Tasks", body, script)]


def calculator(ctx: Context) -> list[Block]:
    """A four-function calculator, by buttons or keyboard."""
    keys = [("C", "clear", "Clear"), ("÷", "/", "Divide"), ("×", "*", "Multiply"),
            ("−", "-", "Subtract"), ("7", "7", ""), ("8", "8", ""), ("9", "9", ""),
            ("+", "+", "Add"), ("4", "4", ""), ("5", "5", ""), ("6", "6", ""),
            ("1", "1", ""), ("2", "2", ""), ("3", "3", ""), ("=", "=", "Equals"),
            ("0", "0", ""), (".", ".", "Decimal point")]
    cells = []
    for face, key, name in keys:
        kind = "op" if key in "/*-+" else ("eq" if key == "=" else
                                          ("fn" if key == "clear" else "num"))
        area = {"+": "plus", "=": "eq", "0": "zero"}.get(key, "")
        style = f' style="grid-area:{area}"' if area else ""
        label = f' aria-label="{name}"' if name else ""
        cells.append(f'<button type="button" class="key {kind}" data-key="{esc(key)}"'
                     f'{label}{style}>{face}</button>')
    body = f"""
<section id="calculator">
  <div class="wrap narrow center">
    {heading(ctx, "Calculator")}
    <p class="lead">Chain as many operations as you like; each one applies to the running total.</p>
    <div class="calc card" role="group" aria-label="Calculator">
      <div class="display">
        <p id="calc-expr" class="expr" aria-hidden="true">Ready</p>
        <p id="calc-out" class="out" role="status" aria-live="polite">0</p>
      </div>
      <div class="keys">{''.join(cells)}</div>
    </div>
    <p class="small">Keyboard works too: digits, + − × ÷, Enter for equals, Escape to clear.</p>
  </div>
</section>"""
    script = """(() => {
  const out = document.getElementById('calc-out'), expr = document.getElementById('calc-expr');
  const SYM = {'/': '÷', '*': '×', '-': '−', '+': '+'};
  let total = null, op = null, entry = '0', fresh = true, error = false;
  const fmt = n => String(Math.round(n * 1e10) / 1e10);
  const show = note => {
    out.textContent = error ? 'Error' : entry;
    out.classList.toggle('err', error);
    expr.textContent = note || (op ? fmt(total) + ' ' + SYM[op] : 'Ready');
  };
  const apply = () => {
    const b = Number(entry);
    if (op === '/' && b === 0) { error = true; return false; }
    total = op === '+' ? total + b : op === '-' ? total - b : op === '*' ? total * b : total / b;
    entry = fmt(total);
    return true;
  };
  const clear = () => { total = null; op = null; entry = '0'; fresh = true; error = false; };
  const press = key => {
    if (key === 'clear') { clear(); return show(); }
    if (error) clear();
    if (/[0-9.]/.test(key)) {
      if (fresh) { entry = key === '.' ? '0.' : key; fresh = false; }
      else if (key === '.' && entry.includes('.')) return show('Already has a decimal point');
      else if (entry.length < 14) entry = entry === '0' && key !== '.' ? key : entry + key;
      return show();
    }
    if (key === '=') {
      if (op === null) return show(entry + ' =');
      const note = fmt(total) + ' ' + SYM[op] + ' ' + entry + ' =';
      if (!apply()) return show('Cannot divide by zero');
      op = null; fresh = true;
      return show(note);
    }
    if (op !== null && !fresh && !apply()) return show('Cannot divide by zero');
    if (op === null || total === null) total = Number(entry);
    op = key; fresh = true;
    show();
  };
  document.querySelectorAll('.key').forEach(b => b.addEventListener('click', () => press(b.dataset.key)));
  document.addEventListener('keydown', event => {
    const map = {Enter: '=', '=': '=', Escape: 'clear', Delete: 'clear'};
    const key = map[event.key] || (/^[0-9.+\\-*/]$/.test(event.key) ? event.key : null);
    if (key) { event.preventDefault(); press(key); }
  });
})();"""
    return [Block("calculator", "Calculator", body, script)]
