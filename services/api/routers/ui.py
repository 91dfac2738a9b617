"""The web UI: five pages (Run, Jobs, Benchmark, Training, Episode) and their static assets,
all served from ``services/api/web`` (no CDN; plain ES modules, no build step).

A page is the shared shell (``web/shell.html``: navigation, the API-key form) around the
page's own body (``web/pages/NAME.html``) and script (``web/static/NAME.js``). The pages
hold no data: their scripts call the same REST API with the key the user gives, so the UI
sees exactly what the key may see. A strict Content-Security-Policy keeps every script,
style and request on this origin.
"""

from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path

from fastapi import APIRouter, FastAPI, HTTPException, status
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parents[1] / "web"
PAGES = {"run": "Run", "jobs": "Jobs", "benchmark": "Benchmark", "training": "Training",
         "episode": "Episode"}
NAV = ("run", "jobs", "benchmark", "training")  # Episode is reached from the others
CSP = ("default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")

router = APIRouter(include_in_schema=False)


def mount_ui(app: FastAPI) -> None:
    app.include_router(router)
    app.mount("/ui/static", StaticFiles(directory=WEB / "static"), name="ui-static")


@router.get("/")
@router.get("/ui")
def ui_home() -> RedirectResponse:
    return RedirectResponse("/ui/run")


@router.get("/ui/{page}", response_class=HTMLResponse)
def ui_page(page: str) -> HTMLResponse:
    if page not in PAGES:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no page {page!r}; pages: "
                            f"{', '.join(PAGES)}")
    return HTMLResponse(render_page(page), headers={
        "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin"})


@cache
def render_page(page: str) -> str:
    nav = "\n".join(
        f'<li><a href="/ui/{name}"{" aria-current=page" if name == page else ""}>'
        f"{PAGES[name]}</a></li>" for name in NAV)
    shell = (WEB / "shell.html").read_text(encoding="utf-8")
    body = (WEB / "pages" / f"{page}.html").read_text(encoding="utf-8")
    return (shell.replace("{{title}}", escape(PAGES[page])).replace("{{page}}", page)
            .replace("{{nav}}", nav).replace("{{body}}", body))
