"""The html family: screenshot → HTML, scored with Design2Code's metrics.

Files: ``dataset`` (Design2Code folders, WebSight JSONL), ``prompt`` (the screenshot
and the brief), ``extract`` (the HTML in a completion), ``text_blocks``, ``visual``
and ``structure`` (the metrics), ``colour_blocks`` (Design2Code's colour-injection
blocks, an option), ``degrade`` (the validity ladder), ``reward`` (``HtmlReward``,
and ``get_html_reward``, its batch reward function).
"""
