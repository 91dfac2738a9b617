"""The template's look: one palette (a single hue on white) and font pairing picked by the
seed, and the house stylesheet (one type scale, spacing rhythm, 44 px targets) they fill."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Palette:
    """One hue on white: ``primary`` carries white text at >= 4.5:1; ``tint`` and ``soft``
    are pale enough to count as neutral beside it."""

    name: str
    primary: str
    dark: str
    tint: str
    soft: str


PALETTES = (
    Palette("teal", "#0f766e", "#115e59", "#f0fdfa", "#ccfbf1"),
    Palette("indigo", "#4338ca", "#3730a3", "#eef2ff", "#e0e7ff"),
    Palette("blue", "#1d4ed8", "#1e40af", "#eff6ff", "#dbeafe"),
    Palette("green", "#15803d", "#166534", "#f0fdf4", "#dcfce7"),
    Palette("rose", "#be123c", "#9f1239", "#fff1f2", "#ffe4e6"),
    Palette("violet", "#6d28d9", "#5b21b6", "#f5f3ff", "#ede9fe"),
    Palette("amber", "#b45309", "#92400e", "#fffbeb", "#fef3c7"),
)
SANS = "system-ui, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
FONTS = ((SANS, SANS),  # (body, headings)
         ("'Liberation Sans', Arial, sans-serif", "Georgia, 'DejaVu Serif', serif"))

CSS = """
:root { --primary: PRIMARY; --dark: DARK; --tint: TINT; --soft: SOFT; --ink: #0f172a;
        --muted: #475569; --line: #d5dce5; --radius: RADIUSpx; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font-family: BODYFONT; font-size: 16px; line-height: 1.5; color: var(--ink);
       background: #ffffff; }
h1, h2, h3 { font-family: HEADFONT; line-height: 1.25; margin: 0 0 12px; }
h1 { font-size: 40px; } h2 { font-size: 28px; } h3, .h3 { font-size: 20px; }
p { margin: 0 0 16px; }
a { color: var(--dark); }
img { max-width: 100%; display: block; }
:focus-visible { outline: 3px solid var(--dark); outline-offset: 2px; }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 32px; }
.narrow { max-width: 760px; }
.center { text-align: center; }
.head { margin: 0 auto 40px; max-width: 680px; }
.lead { font-size: 20px; color: var(--muted); }
.small { font-size: 14px; color: var(--muted); }
.eyebrow { font-size: 14px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase;
           color: var(--dark); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      white-space: nowrap; }
section { padding: 72px 0; }
.band { background: var(--tint); }
.site-head { border-bottom: 1px solid var(--line); background: #ffffff; }
.bar-list { display: flex; align-items: center; gap: 16px; }
.topbar { display: flex; align-items: center; justify-content: space-between; gap: 24px;
          min-height: 72px; }
.brand { display: inline-flex; align-items: center; gap: 10px; font-size: 20px; font-weight: 700;
         color: var(--ink); text-decoration: none; }
.brand svg { width: 28px; height: 28px; }
.site-head nav ul, .foot ul { display: flex; flex-wrap: wrap; gap: 8px; list-style: none;
                              margin: 0; padding: 0; }
.site-head nav a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 14px;
                   border-radius: 8px; color: var(--ink); text-decoration: none; }
.site-head nav a:hover { background: var(--tint); }
.btn { display: inline-flex; align-items: center; justify-content: center; font: inherit;
       font-weight: 600; min-height: 48px; padding: 0 24px; border-radius: 8px;
       border: 2px solid var(--primary); background: var(--primary); color: #ffffff;
       text-decoration: none; cursor: pointer; }
.btn:hover { background: var(--dark); border-color: var(--dark); }
.btn.ghost { background: #ffffff; color: var(--dark); }
.btn.ghost:hover { background: var(--tint); }
.btn.wide { width: 100%; }
.actions { display: flex; justify-content: center; gap: 16px; margin-top: 32px; }
.card { background: #ffffff; border: 1px solid var(--line); border-radius: var(--radius);
        padding: 32px; }
.grid { display: grid; gap: 24px; grid-template-columns: repeat(var(--cols), minmax(0, 1fr)); }
.split { display: grid; gap: 40px; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
         align-items: start; }
.row2 { display: grid; gap: 16px; grid-template-columns: 1fr 1fr; }
.field { margin-bottom: 16px; text-align: left; }
label, legend { display: block; font-weight: 600; margin-bottom: 6px; }
input, select, textarea { font: inherit; width: 100%; min-height: 48px; padding: 10px 14px;
                          border: 1px solid #64748b; border-radius: 8px; color: var(--ink);
                          background: #ffffff; }
textarea { resize: vertical; }
input[type=checkbox], input[type=radio] { width: 24px; height: 24px; min-height: 0; margin: 0;
                                           accent-color: var(--primary); }
[aria-invalid=true] { border-color: #b91c1c; }
.error { color: #b91c1c; font-size: 14px; margin: 6px 0 0; }
.error:empty, .status:empty { display: none; }
.status { font-weight: 600; margin-top: 24px; }
.done { border-color: var(--primary); background: var(--tint); font-weight: 600; }
.hero { padding: 96px 0; }
.signup { margin-top: 40px; text-align: left; }
.signup .btn { margin-top: 8px; }
.feature .icon { width: 48px; height: 48px; display: block; margin-bottom: 16px; }
.feature p { margin: 0; color: var(--muted); }
.segmented { display: inline-flex; flex-wrap: wrap; justify-content: center; gap: 8px; }
.seg { font: inherit; min-height: 44px; padding: 0 20px; border-radius: 999px; cursor: pointer;
       border: 2px solid var(--primary); background: #ffffff; color: var(--dark); }
.seg[aria-pressed=true] { background: var(--primary); color: #ffffff; }
.plan { display: flex; flex-direction: column; }
.plan.featured { border-color: var(--primary); }
.plan.chosen { border-width: 3px; border-color: var(--dark); background: var(--tint); }
.plan .ticks { flex: 1; }
.badge { align-self: flex-start; font-size: 14px; font-weight: 700; margin: 0 0 12px;
         padding: 2px 12px; border-radius: 999px; background: var(--soft); color: var(--dark); }
.price strong { font-size: 40px; }
.price .per { color: var(--muted); }
.ticks { list-style: none; padding: 0; margin: 0 0 24px; }
.ticks li { padding: 6px 0; border-top: 1px solid var(--line); }
.choose[aria-pressed=true] { background: var(--primary); color: #ffffff; }
.app { text-align: left; }
.inline { display: flex; gap: 12px; }
.inline input { flex: 1; }
.toolbar { display: flex; justify-content: space-between; align-items: center; gap: 16px;
           margin: 24px 0 8px; flex-wrap: wrap; }
.count { margin: 0; font-weight: 600; }
.todo-list { list-style: none; margin: 0; padding: 0; }
.todo-list li { display: flex; justify-content: space-between; align-items: center; gap: 12px;
                padding: 10px 0; border-top: 1px solid var(--line); }
.todo-list label { display: flex; align-items: center; gap: 12px; margin: 0; font-weight: 400; }
.todo-list li.done span { text-decoration: line-through; color: var(--muted); }
.link-btn { font: inherit; min-height: 44px; padding: 0 14px; border-radius: 8px; cursor: pointer;
            border: 1px solid var(--line); background: #ffffff; color: #b91c1c; }
.empty { color: var(--muted); text-align: center; margin: 24px 0 0; }
.info p { margin-bottom: 20px; }
.shots figure { margin: 0; }
.shot-open { display: block; width: 100%; padding: 0; border: 0; border-radius: var(--radius);
             overflow: hidden; cursor: zoom-in; background: var(--soft); }
.shot-open img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; }
.shots figcaption { display: flex; justify-content: space-between; gap: 8px; padding-top: 10px;
                    font-size: 14px; }
.tag { color: var(--dark); font-weight: 700; }
.lightbox { position: fixed; inset: 0; display: grid; place-items: center; padding: 32px;
            background: rgba(15, 23, 42, 0.86); z-index: 10; }
.lightbox[hidden] { display: none; }
.lb-panel { background: #ffffff; border-radius: var(--radius); padding: 24px; max-width: 760px;
            width: 100%; }
.lb-panel img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 8px; }
.lb-caption { margin: 16px 0; font-weight: 600; text-align: center; }
.lb-controls { display: flex; justify-content: center; gap: 12px; }
.calc { max-width: 380px; margin: 0 auto 24px; padding: 24px; text-align: right; }
.display { background: var(--tint); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
.expr { font-size: 16px; color: var(--muted); margin: 0; min-height: 24px; }
.out { font-size: 40px; font-weight: 700; margin: 0; overflow-wrap: anywhere; }
.out.err { color: #b91c1c; }
.keys { display: grid; gap: 10px; grid-template-columns: repeat(4, 1fr);
        grid-template-areas: ". . . ." ". . . plus" ". . . plus" ". . . eq" "zero zero . eq"; }
.key { font: inherit; font-size: 20px; min-height: 60px; border-radius: 8px; cursor: pointer;
       border: 1px solid var(--line); background: #ffffff; color: var(--ink); }
.key:hover { background: var(--tint); }
.key.op, .key.fn { background: var(--soft); color: var(--dark); font-weight: 700;
                   border-color: var(--soft); }
.key.eq { background: var(--primary); color: #ffffff; border-color: var(--primary); }
.search { margin-bottom: 32px; }
.search .small { margin: 8px 0 0; }
.head .segmented + .small { margin: 12px 0 0; }
.qa { border-bottom: 1px solid var(--line); }
.qa .h3 { margin: 0; }
.q { display: flex; width: 100%; justify-content: space-between; align-items: center; gap: 16px;
     font: inherit; font-size: 20px; font-weight: 600; text-align: left; min-height: 64px;
     padding: 12px 4px; border: 0; background: none; color: var(--ink); cursor: pointer; }
.q:hover { color: var(--dark); }
.sign { font-size: 28px; color: var(--dark); }
.a p { color: var(--muted); padding: 0 4px 8px; }
.titlebar { display: flex; justify-content: space-between; align-items: center; gap: 24px;
            margin-bottom: 32px; }
.now { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 32px;
       align-items: center; }
.now-main { display: flex; align-items: center; gap: 24px; }
.now-main .wx { width: 96px; height: 96px; }
.now-main h2 { margin-bottom: 4px; }
.now-main p { margin: 0; }
.temp { font-size: 56px; font-weight: 700; line-height: 1; }
.facts { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin: 0; }
.facts dt { color: var(--muted); font-size: 14px; }
.facts dd { margin: 0; font-size: 20px; font-weight: 600; }
.week { display: grid; gap: 16px; grid-template-columns: repeat(var(--cols), minmax(0, 1fr));
        list-style: none; margin: 0; padding: 0; }
.day { display: flex; flex-direction: column; align-items: center; gap: 4px; width: 100%;
       font: inherit; padding: 16px 8px; border-radius: var(--radius); cursor: pointer;
       border: 1px solid var(--line); background: #ffffff; color: var(--ink); }
.day[aria-pressed=true] { border: 2px solid var(--primary); background: var(--soft); }
.day .wx { width: 48px; height: 48px; }
.d { font-weight: 700; }
.hi { font-size: 20px; font-weight: 700; }
.bars li, .barbtn { display: flex; flex-direction: column; align-items: center; justify-content: flex-end;
                    gap: 6px; min-height: 200px; }
.barbtn { width: 100%; font: inherit; border: 0; background: none; color: var(--ink); cursor: pointer; }
.bar { display: block; width: min(48px, 70%); border-radius: 6px 6px 0 0; background: var(--primary); }
.chart { margin: 0; }
.chart figcaption { margin-top: 16px; text-align: center; }
.product { align-items: center; }
.photo { margin: 0; }
.photo img { width: 100%; border-radius: var(--radius); aspect-ratio: 4 / 3; object-fit: cover; }
.choice { border: 0; padding: 0; margin: 0 0 16px; }
.pill { display: inline-flex; align-items: center; gap: 8px; min-height: 44px; padding: 0 14px;
        margin: 0 8px 8px 0; border: 1px solid var(--line); border-radius: 999px;
        font-weight: 400; cursor: pointer; }
.stepper { display: flex; gap: 8px; }
.stepper button { font: inherit; font-size: 20px; min-width: 48px; min-height: 48px;
                  border-radius: 8px; border: 1px solid var(--line); background: var(--tint);
                  color: var(--ink); cursor: pointer; }
.stepper input { text-align: center; }
.cart { display: inline-flex; align-items: center; gap: 8px; font: inherit; font-weight: 600;
        min-height: 44px; padding: 0 16px; border-radius: 999px; cursor: pointer;
        border: 2px solid var(--primary); background: #ffffff; color: var(--dark); }
.badge-count { display: inline-grid; place-items: center; min-width: 28px; height: 28px;
               border-radius: 999px; background: var(--primary); color: #ffffff; }
.cart.bump { background: var(--tint); }
.tabs { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 16px; }
[role=tab] { font: inherit; font-weight: 600; min-height: 48px; padding: 0 24px; cursor: pointer;
             border-radius: 8px; border: 2px solid var(--primary); background: #ffffff;
             color: var(--dark); }
[role=tab][aria-selected=true] { background: var(--primary); color: #ffffff; }
.panels p:last-child { margin-bottom: 0; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 700; margin-bottom: 8px; }
th, td { text-align: left; padding: 12px; border-bottom: 1px solid var(--line); }
.review { margin: 0 0 16px; }
.review blockquote { margin: 0 0 4px; }
.review p { margin: 0; }
.progress-row { display: flex; justify-content: space-between; }
.progress-row p { margin: 0 0 8px; }
.progress { height: 8px; border-radius: 999px; background: var(--soft); margin-bottom: 24px; }
.progress span { display: block; height: 100%; width: 0; border-radius: 999px;
                 background: var(--primary); }
.answers { display: grid; gap: 12px; grid-template-columns: 1fr 1fr; margin-bottom: 16px; }
.answer { font: inherit; text-align: left; min-height: 56px; padding: 12px 16px; cursor: pointer;
          border-radius: 8px; border: 2px solid var(--line); background: #ffffff; color: var(--ink); }
.answer:hover:not(:disabled) { border-color: var(--primary); }
.answer:disabled { cursor: default; color: var(--ink); }
.answer.right { border-color: #15803d; background: #f0fdf4; }
.answer.wrong { border-color: #b91c1c; background: #fef2f2; }
.feedback.good { color: #166534; }
.feedback.bad { color: #991b1b; }
.site-foot { background: var(--ink); color: #e2e8f0; padding: 40px 0; }
.foot { display: flex; justify-content: space-between; align-items: center; gap: 24px;
        flex-wrap: wrap; }
.foot p { margin: 0; }
.foot-brand { font-size: 20px; font-weight: 700; color: #ffffff; }
.foot a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 12px;
          color: #ffffff; }
@media (max-width: 760px) {
  .grid, .split, .row2, .now, .answers { grid-template-columns: 1fr; }
  .week:not(.bars) { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .bars { gap: 6px; }
  .now-main { flex-wrap: wrap; }
  .bar-list, .titlebar, .topbar { flex-wrap: wrap; }
  h1 { font-size: 32px; }
  section { padding: 48px 0; }
}
"""


def write_css(palette: Palette, radius: int, body_font: str, head_font: str) -> str:
    """The stylesheet in ``palette``, with corners of ``radius`` px and the given fonts."""
    return (CSS.replace("PRIMARY", palette.primary).replace("DARK", palette.dark)
            .replace("TINT", palette.tint).replace("SOFT", palette.soft)
            .replace("RADIUS", str(radius))
            .replace("BODYFONT", body_font).replace("HEADFONT", head_font))
