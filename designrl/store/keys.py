"""API keys: created once (the plain key is shown to its owner then, never stored), looked
up by their SHA-256, listed and revoked by name.

Roles: ``admin`` sees and cancels every job; ``user`` submits jobs and sees its own;
``reader`` submits nothing and reads the jobs of the key named in its ``reads`` (``*``:
every job) -- a dashboard's or a colleague's read-only view.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from designrl.store.models import ApiKey, utcnow

ROLES = ("admin", "user", "reader")
EVERY_OWNER = "*"  # a reader's ``reads`` that reads every job


@dataclass(frozen=True)
class KeyInfo:
    """What ``list_api_keys`` shows of a key (never the key: only its hash is stored)."""

    name: str
    role: str
    reads: str | None
    created_at: datetime
    revoked_at: datetime | None


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_api_key(session: Session, name: str, role: str = "user",
                   reads: str | None = None) -> str:
    """Store a new key for ``name`` and return the plain key (shown once). ``reads`` is a
    reader's: the key name whose jobs it reads, or ``*`` for every job."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    if reads is not None and role != "reader":
        raise ValueError("only a reader key names whose jobs it reads")
    key = "drl_" + secrets.token_urlsafe(32)
    session.add(ApiKey(name=name, key_hash=hash_key(key), role=role, reads=reads))
    session.commit()
    return key


def find_api_key(session: Session, key: str) -> ApiKey | None:
    """The live key record for a presented key, or None."""
    found = session.scalar(select(ApiKey).where(ApiKey.key_hash == hash_key(key)))
    return found if found is not None and found.revoked_at is None else None


def list_api_keys(session: Session, *, revoked: bool = True) -> list[KeyInfo]:
    """Every key by name (``revoked=False``: the live ones only)."""
    query = select(ApiKey).order_by(ApiKey.name)
    if not revoked:
        query = query.where(ApiKey.revoked_at.is_(None))
    return [KeyInfo(k.name, k.role, k.reads, k.created_at, k.revoked_at)
            for k in session.scalars(query)]


def revoke_api_key(session: Session, name: str) -> bool:
    """Revoke the key named ``name`` (it is refused from now on; its jobs are kept).
    False if there is no such key or it was revoked already."""
    key = session.scalar(select(ApiKey).where(ApiKey.name == name).with_for_update())
    if key is None or key.revoked_at is not None:
        session.rollback()
        return False
    key.revoked_at = utcnow()
    session.commit()
    return True


def readable_owner(key: ApiKey) -> str | None:
    """Whose jobs ``key`` may read: None for every job (an admin, a ``*`` reader), else an
    owner's name (a user: its own; a reader: the one it reads, or nobody's if unset)."""
    if key.role == "admin" or (key.role == "reader" and key.reads == EVERY_OWNER):
        return None
    if key.role == "reader":
        return key.reads or ""  # "" owns nothing: a reader naming no one reads nothing
    return key.name


def may_read(key: ApiKey, owner: str | None) -> bool:
    """Whether ``key`` may read a job (or episode, prediction set) owned by ``owner``."""
    readable = readable_owner(key)
    return readable is None or (owner is not None and owner == readable)
