"""Filling the Run page's form (tests/ui): family, task, the item (a seed, or a dataset
item's id) and policy, then Start."""

from __future__ import annotations


def pick_item(page, item: str) -> None:
    """The item field: a list of the task's ids when the catalog gives them, else text."""
    if page.locator("#item").evaluate("e => e.tagName") == "SELECT":
        page.select_option("#item", item)
    else:
        page.fill("#item", item)


def fill_run(page, family: str, task: str, item: int | str, policy: str) -> None:
    """Fill the form: an int item is a seed, a str a dataset item's id."""
    page.select_option("#family", family)
    page.select_option("#task", task)
    if isinstance(item, int):
        page.fill("#seed", str(item))
    else:
        pick_item(page, item)
    page.select_option("#policy", policy)


def start_run(page, family: str, task: str, item: int | str, policy: str):
    """Fill the form, press Start; the ``POST /v1/runs`` response."""
    fill_run(page, family, task, item, policy)
    with page.expect_response("**/v1/runs") as reply:
        page.click("#start")
    return reply.value
