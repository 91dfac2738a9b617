"""API keys: created once (the plain key is shown to its owner then, never stored), looked
up by their SHA-256."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from designrl.store.models import ApiKey

ROLES = ("admin", "user", "reader")  # reader: may read its own jobs, not submit


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_api_key(session: Session, name: str, role: str = "user") -> str:
    """Store a new key for ``name`` and return the plain key (shown once)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    key = "drl_" + secrets.token_urlsafe(32)
    session.add(ApiKey(name=name, key_hash=hash_key(key), role=role))
    session.commit()
    return key


def find_api_key(session: Session, key: str) -> ApiKey | None:
    """The live key record for a presented key, or None."""
    found = session.scalar(select(ApiKey).where(ApiKey.key_hash == hash_key(key)))
    return found if found is not None and found.revoked_at is None else None
