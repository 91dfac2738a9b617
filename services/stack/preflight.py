"""What ``stack up`` checks before it starts anything: Redis answers, the database opens,
the ports are free, vLLM's interpreter has vLLM. Each check raises ``StackError`` with a
reason a user can act on."""

from __future__ import annotations

import socket
from pathlib import Path


class StackError(RuntimeError):
    """A service cannot start: Redis or the database unreachable, a port busy, a service
    that exited or never answered (the message says which, and where its log is)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def check_port(port: int, whose: str, flag: str) -> None:
    if not port_is_free(port):
        raise StackError(f"port {port} ({whose}) is busy: another process listens on it; "
                         f"stop it or choose another {flag}")


def check_redis(url: str) -> None:
    from redis import Redis

    try:
        client = Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - any failure means "unreachable"
        raise StackError(f"Redis is unreachable at {hide_password(url)}: {exc}") from exc


def check_database(url: str) -> None:
    from sqlalchemy.engine import make_url

    from designrl.store import make_engine, make_sessionmaker, ping

    if make_url(url).get_backend_name() == "sqlite":
        database = make_url(url).database
        if database and database != ":memory:" and not database.startswith("file:") \
                and not Path(database).parent.is_dir():
            raise StackError(f"the database's folder {Path(database).parent} does not exist")
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            ping(session)
    except Exception as exc:  # noqa: BLE001 - any failure means "unreachable"
        raise StackError(f"the database at {hide_password(url)} cannot be opened: "
                         f"{str(exc).splitlines()[0]}") from exc
    finally:
        engine.dispose()


def check_vllm_python(python: str) -> None:
    from designrl.inference.vllm_server import VLLMNotFound
    from designrl.inference.vllm_server import check_vllm_python as check

    try:
        check(python)
    except VLLMNotFound as exc:
        raise StackError(str(exc)) from exc


def hide_password(url: str) -> str:
    """``url`` with its password, if any, shown as ***."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
