"""``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) from assets this server serves itself.

FastAPI's built-in pages load Swagger UI, ReDoc, their favicon and Google Fonts from CDNs,
so offline they are blank. Every service app is created with ``docs_url=None,
redoc_url=None`` and calls ``add_docs(app)``, which mounts the static files that the
``fastapi-offline`` package ships (Swagger UI's bundle and CSS, ReDoc's standalone JS, a
favicon) and adds the two pages with FastAPI's own ``get_swagger_ui_html`` /
``get_redoc_html`` pointing at them: FastAPI's documented recipe for self-hosted docs
assets. Every URL is prefixed with the request's ``root_path``, so the pages also work for
an app mounted under another (the layout env at ``/env`` inside the API).

ReDoc 2 also draws a Redocly logo from ``cdn.redoc.ly`` in its sidebar, with no option to
leave it out; the pages' Content-Security-Policy stops that request in the browser (the
logo is simply not shown), and anything else either UI might try to fetch off-host.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_PATH = "/docs-assets"  # where the Swagger UI and ReDoc files are mounted
# This origin only, plus what FastAPI's page templates and the two UIs need inline:
# Swagger UI's start-up script, styled-components' <style> tags, data: images, and
# ReDoc's search worker (a blob:).
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
       "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
       "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'self'")


def add_docs(app: FastAPI, *, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Serve Swagger UI at ``docs_url`` and ReDoc at ``redoc_url`` with no request off-host."""
    if app.docs_url or app.redoc_url:
        raise ValueError("create the app with docs_url=None, redoc_url=None: its built-in "
                         "pages load their assets from a CDN")
    if not app.openapi_url:
        raise ValueError("the docs pages need the app's OpenAPI schema (openapi_url)")
    assets = files("fastapi_offline") / "static"
    app.mount(ASSETS_PATH, StaticFiles(directory=str(assets)), name="docs-assets")
    oauth2_redirect_url = app.swagger_ui_oauth2_redirect_url

    def root(request: Request) -> str:
        return request.scope.get("root_path", "").rstrip("/")

    @app.get(docs_url, include_in_schema=False)
    def swagger_ui(request: Request) -> HTMLResponse:
        prefix = root(request)
        return _same_origin(get_swagger_ui_html(
            openapi_url=prefix + app.openapi_url, title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=oauth2_redirect_url and prefix + oauth2_redirect_url,
            swagger_js_url=f"{prefix}{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{prefix}{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{prefix}{ASSETS_PATH}/favicon.png",
            init_oauth=app.swagger_ui_init_oauth,
            swagger_ui_parameters=app.swagger_ui_parameters))

    if oauth2_redirect_url:
        @app.get(oauth2_redirect_url, include_in_schema=False)
        def swagger_ui_oauth2_redirect() -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()

    @app.get(redoc_url, include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        prefix = root(request)
        return _same_origin(get_redoc_html(
            openapi_url=prefix + app.openapi_url, title=f"{app.title} - ReDoc",
            redoc_js_url=f"{prefix}{ASSETS_PATH}/redoc.standalone.js",
            redoc_favicon_url=f"{prefix}{ASSETS_PATH}/favicon.png",
            with_google_fonts=False))


def _same_origin(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = CSP
    page.headers["X-Content-Type-Options"] = "nosniff"
    return page
