"""Drop policy_versions: nothing ever wrote or read it.

Policy versions live where the learner publishes them, the adapter store and the
Redis version key (``designrl.learner.versions``); ``GET /versions`` lists the
adapter store. Downgrade recreates the empty table as 0001 made it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("policy_versions")


def downgrade() -> None:
    op.create_table(
        "policy_versions",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("base_model", sa.String(length=500), nullable=True),
        sa.Column("adapter_path", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
