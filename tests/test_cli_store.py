"""``designrl db upgrade`` and ``designrl api-key create`` on an embedded SQLite database."""

from __future__ import annotations

import json

from designrl.cli import main
from designrl.store import make_engine, make_sessionmaker
from designrl.store.keys import find_api_key
from designrl.store.migrate import tables


def test_db_upgrade_then_keys_are_created_once_and_stored_hashed(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'd.db'}"
    assert main(["db", "upgrade", "--db", url]) == 0
    assert {"jobs", "episodes", "api_keys"} <= tables(make_engine(url))
    capsys.readouterr()
    assert main(["api-key", "create", "ops", "--role", "admin", "--db", url, "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["role"] == "admin" and made["key"].startswith("drl_")
    with make_sessionmaker(make_engine(url))() as session:
        stored = find_api_key(session, made["key"])
        assert stored.name == "ops" and made["key"] not in stored.key_hash
    assert main(["api-key", "create", "ops", "--db", url]) == 1
    assert "exists already" in capsys.readouterr().err
