"""Questions and answers: an FAQ accordion with a search filter, and a quiz asked one question
at a time."""

from __future__ import annotations

from designrl.policies.webpage_template.block import (
    Block,
    Context,
    cap,
    esc,
    heading,
    js,
    number_word,
    sub_tag,
)
from designrl.policies.webpage_template.content import FAQS, QUIZZES


def faq(ctx: Context) -> list[Block]:
    """An accordion of the topic's questions with a search that filters them."""
    req = ctx.request
    n = req.count("questions?", 6)
    items = (FAQS.get(req.topic, FAQS["general"]) * 2)[:n]
    h = sub_tag(ctx)
    rows = "".join(f"""
      <div class="qa">
        <{h} class="h3"><button type="button" class="q" aria-expanded="false" aria-controls="a{i}" id="q{i}">
          <span>{esc(q)}</span><span class="sign" aria-hidden="true">+</span></button></{h}>
        <div class="a" id="a{i}" role="region" aria-labelledby="q{i}" hidden><p>{esc(a)}</p></div>
      </div>""" for i, (q, a) in enumerate(items))
    where = f"about our {req.subject}" if req.subject else "before they get started"
    title = "Frequently asked questions"
    body = f"""
<section id="faq">
  <div class="wrap narrow">
    <div class="center head">{heading(ctx, title)}
      <p class="lead">Quick answers to what people ask most {esc(where)}.</p></div>
    <div class="field search">
      <label for="faq-search">Search the questions</label>
      <input id="faq-search" type="search" placeholder="Type a word to filter" autocomplete="off">
      <p id="faq-status" class="small" aria-live="polite">Showing all {n} questions</p>
    </div>
    <div class="accordion">{rows}
    </div>
    <p id="faq-none" class="empty" hidden>No question matches your search. Try another word.</p>
  </div>
</section>"""
    script = """(() => {
  const items = Array.from(document.querySelectorAll('.qa'));
  const search = document.getElementById('faq-search'), status = document.getElementById('faq-status');
  const none = document.getElementById('faq-none');
  const setOpen = (item, open) => {
    item.querySelector('.q').setAttribute('aria-expanded', String(open));
    item.querySelector('.a').hidden = !open;
    item.querySelector('.sign').textContent = open ? '−' : '+';
    item.classList.toggle('open', open);
  };
  items.forEach(item => item.querySelector('.q').addEventListener('click', () => {
    const open = item.querySelector('.q').getAttribute('aria-expanded') !== 'true';
    items.forEach(other => setOpen(other, other === item && open));
  }));
  const filter = () => {
    const words = search.value.trim().toLowerCase();
    let shown = 0;
    for (const item of items) {
      const text = item.textContent.toLowerCase();
      item.hidden = words !== '' && !text.includes(words);
      shown += item.hidden ? 0 : 1;
    }
    none.hidden = shown > 0;
    status.textContent = words ? shown + ' of ' + items.length + ' questions match "' +
      search.value.trim() + '"' : 'Showing all ' + items.length + ' questions';
  };
  search.addEventListener('input', filter);
  search.addEventListener('keydown', event => { if (event.key === 'Enter') { event.preventDefault(); filter(); } });
})();"""
    return [Block("faq", "FAQ", body, script)]


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def quiz(ctx: Context) -> list[Block]:
    """A multiple-choice quiz with feedback, progress and a final score."""
    req = ctx.request
    n = req.count("questions?", 5)
    bank = (QUIZZES.get(req.topic, QUIZZES["general"]) * 2)[:n]
    topic = req.subject or "general knowledge"
    title = f"{cap(topic)} quiz"
    body = f"""
<section id="quiz">
  <div class="wrap narrow">
    <div class="center head">{heading(ctx, title)}
      <p class="lead">{cap(number_word(n))} questions, one at a time. How much do you know?</p>
    </div>
    <div class="card app quiz" aria-live="polite">
      <div class="progress-row"><p id="quiz-progress" class="small">Question 1 of {n}</p>
        <p id="quiz-score" class="small">Score: 0</p></div>
      <div class="progress" role="progressbar" aria-label="Quiz progress" aria-valuemin="0"
        aria-valuemax="{n}" aria-valuenow="1"><span id="quiz-bar"></span></div>
      <div id="quiz-body"></div>
    </div>
  </div>
</section>"""
    script = """(() => {
  const bank = BANK, body = document.getElementById('quiz-body');
  const progress = document.getElementById('quiz-progress'), scoreEl = document.getElementById('quiz-score');
  const bar = document.getElementById('quiz-bar'), meter = bar.parentElement;
  let index = 0, score = 0;
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const ask = () => {
    const [question, answers, correct, fact] = bank[index];
    progress.textContent = 'Question ' + (index + 1) + ' of ' + bank.length;
    scoreEl.textContent = 'Score: ' + score;
    meter.setAttribute('aria-valuenow', String(index + 1));
    bar.style.width = (100 * (index + 1) / bank.length) + '%';
    const title = el('h2', 'question', question);
    const grid = el('div', 'answers');
    const feedback = el('p', 'feedback');
    feedback.setAttribute('role', 'status');
    const next = el('button', 'btn', index + 1 < bank.length ? 'Next question' : 'See my score');
    next.type = 'button';
    next.hidden = true;
    answers.forEach((answer, i) => {
      const button = el('button', 'answer', answer);
      button.type = 'button';
      button.addEventListener('click', () => {
        const right = i === correct;
        if (right) score += 1;
        grid.querySelectorAll('button').forEach((b, j) => {
          b.disabled = true;
          if (j === correct) b.classList.add('right');
          else if (j === i) b.classList.add('wrong');
        });
        feedback.textContent = (right ? 'Correct! ' : 'Not quite: it is ' + answers[correct] + '. ') + fact;
        feedback.className = 'feedback ' + (right ? 'good' : 'bad');
        scoreEl.textContent = 'Score: ' + score;
        next.hidden = false;
      });
      grid.append(button);
    });
    next.addEventListener('click', () => { index += 1; index < bank.length ? ask() : finish(); });
    body.replaceChildren(title, grid, feedback, next);
  };
  const finish = () => {
    progress.textContent = 'Finished';
    meter.setAttribute('aria-valuenow', String(bank.length));
    const title = el('h2', 'question', 'You scored ' + score + ' out of ' + bank.length);
    const note = el('p', '', score === bank.length ? 'A perfect score. Brilliant!' :
      score >= bank.length / 2 ? 'Nicely done. Try again for a perfect score?' :
      'Every expert started somewhere. Have another go!');
    const again = el('button', 'btn', 'Restart');
    again.type = 'button';
    again.addEventListener('click', () => { index = 0; score = 0; ask(); });
    body.replaceChildren(title, note, again);
  };
  ask();
})();""".replace("BANK", js(bank))
    return [Block("quiz", "Quiz", body, script)]
