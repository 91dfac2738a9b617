"""A weather dashboard: today's conditions, a forecast of day cards and a rainfall bar chart, all
made up from the seed, with a Celsius/Fahrenheit switch."""

from __future__ import annotations

from designrl.policies.webpage_template.block import Block, Context, cap, esc, heading, js
from designrl.policies.webpage_template.content import CITIES

WEATHER = ("Sunny", "Partly cloudy", "Cloudy", "Light rain", "Showers", "Thunderstorms")


def _weather_icon(kind: str) -> str:
    """A small inline SVG for one of the ``WEATHER`` kinds, in the palette's colours."""
    sun = ("<g stroke='var(--primary)' stroke-width='2.5' stroke-linecap='round'>"
           "<path d='M16 2v4M16 22v4M4 14h4M24 14h4M7.5 5.5l2.8 2.8M21.7 19.7l2.8 2.8"
           "M7.5 22.5l2.8-2.8M21.7 8.3l2.8-2.8'/></g>"
           "<circle cx='16' cy='14' r='6' fill='var(--primary)'/>")
    cloud = ("<path d='M10 28h16a6 6 0 0 0 0-12 8 8 0 0 0-15 2 5 5 0 0 0-1 10z' "
             "fill='var(--soft)' stroke='var(--dark)' stroke-width='1.5'/>")
    rain = "<path d='M14 31l-2 4M20 31l-2 4M26 31l-2 4' stroke='var(--dark)' stroke-width='2'/>"
    parts = {"Sunny": sun, "Partly cloudy": sun + cloud, "Cloudy": cloud,
             "Light rain": cloud + rain, "Showers": cloud + rain,
             "Thunderstorms": cloud + rain}[kind]
    return f"<svg class='wx' viewBox='0 0 40 40' aria-hidden='true' focusable='false'>{parts}</svg>"


# long: one page part's markup, styles and script written out in page order; split,
# its pieces would only make sense read together.
def weather(ctx: Context) -> list[Block]:
    """Today, the forecast and the rainfall, as three sections."""
    rng, req = ctx.rng, ctx.request
    city = rng.choice(CITIES)
    n = req.count("days?", 7)
    names = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    base = rng.randint(14, 22)
    days = []
    for i in range(n):
        kind = rng.choice(WEATHER)
        rain = {"Sunny": 0, "Partly cloudy": rng.randint(0, 1), "Cloudy": rng.randint(0, 2),
                "Light rain": rng.randint(2, 5)}.get(kind, rng.randint(6, 18))
        high = base + rng.randint(-3, 4) - (2 if rain > 5 else 0)
        days.append({"day": names[i % 7], "kind": kind, "high": high,
                     "low": high - rng.randint(5, 9), "rain": rain})
    today = days[0]
    cards = "".join(f"""
        <li><button type="button" class="day" data-i="{i}" aria-pressed="{str(i == 0).lower()}">
          <span class="d">{d['day'][:3]}</span>{_weather_icon(d['kind'])}
          <span class="hi" data-c="{d['high']}">{d['high']}°</span>
          <span class="lo small" data-c="{d['low']}">{d['low']}°</span></button></li>"""
                    for i, d in enumerate(days))
    most = max(d["rain"] for d in days) or 1
    bars = "".join(f"""
        <li><span class="mm small">{d['rain']} mm</span>
          <span class="bar" style="height:{max(2, round(140 * d['rain'] / most))}px"></span>
          <span class="d">{d['day'][:3]}</span></li>""" for d in days)
    toggle = next((t for t in req.toggles if "celsius" in t[0].lower()), ("Celsius", "Fahrenheit"))
    body = f"""
<section id="today">
  <div class="wrap">
    <div class="titlebar">
      <div>{heading(ctx, f"Weather in {city}")}
        <p class="small">Made-up data for a seven-day week, updated just now.</p></div>
      <div class="segmented" role="group" aria-label="Temperature unit">
        <button type="button" class="seg" data-unit="c" aria-pressed="true">°C <span class="sr">{esc(cap(toggle[0]))}</span></button>
        <button type="button" class="seg" data-unit="f" aria-pressed="false">°F <span class="sr">{esc(cap(toggle[1]))}</span></button>
      </div>
    </div>
    <div class="card now" aria-labelledby="now-title">
      <div class="now-main">{_weather_icon(today['kind'])}
        <p class="temp" data-c="{today['high']}" id="now-temp">{today['high']}°</p>
        <div><h2 id="now-title">Today, {today['day']}</h2>
          <p id="now-kind">{today['kind']}</p></div>
      </div>
      <dl class="facts">
        <div><dt>Feels like</dt><dd data-c="{today['high'] - 1}">{today['high'] - 1}°</dd></div>
        <div><dt>Humidity</dt><dd>{rng.randint(48, 86)}%</dd></div>
        <div><dt>Wind</dt><dd>{rng.randint(6, 28)} km/h</dd></div>
        <div><dt>Rain</dt><dd>{today['rain']} mm</dd></div>
      </dl>
    </div>
  </div>
</section>"""
    forecast = f"""
<section id="forecast" class="band">
  <div class="wrap">
    <h2>{n}-day forecast</h2>
    <ul class="week" style="--cols:{n}">{cards}
    </ul>
    <p id="day-detail" class="status" role="status"></p>
  </div>
</section>"""
    rainfall = f"""
<section id="rainfall">
  <div class="wrap">
    <h2 id="rain-title">Daily rainfall</h2>
    <figure class="chart" aria-labelledby="rain-title">
      <ul class="bars week" style="--cols:{n}">{bars}
      </ul>
      <figcaption class="small">Millimetres of rain expected each day.</figcaption>
    </figure>
  </div>
</section>"""
    script = """(() => {
  const days = DAYS;
  let unit = 'c', selected = 0;
  const conv = c => unit === 'c' ? c : Math.round(c * 9 / 5 + 32);
  const render = () => {
    document.querySelectorAll('[data-c]').forEach(
      el => { el.textContent = conv(Number(el.dataset.c)) + '°'; });
    const d = days[selected];
    document.getElementById('day-detail').textContent = d.day + ': ' + d.kind.toLowerCase() +
      ', high ' + conv(d.high) + '°, low ' + conv(d.low) + '°' + (unit === 'c' ? 'C' : 'F') +
      ', ' + d.rain + ' mm of rain.';
  };
  document.querySelectorAll('[data-unit]').forEach(button => button.addEventListener('click', () => {
    unit = button.dataset.unit;
    document.querySelectorAll('[data-unit]').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  document.querySelectorAll('.day').forEach(button => button.addEventListener('click', () => {
    selected = Number(button.dataset.i);
    document.querySelectorAll('.day').forEach(
      b => b.setAttribute('aria-pressed', String(b === button)));
    render();
  }));
  render();
})();""".replace("DAYS", js(days))
    return [Block("today", "Today", body, script), Block("forecast", "Forecast", forecast),
            Block("rainfall", "Rainfall", rainfall)]
