"""Eval Protocol rollouts: ``ep_rollouts`` maps a client's ``rollout_id`` to the episode
``POST /ep/init`` started, with the tags its traces carry and the prompt it asked.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ep_rollouts",
        sa.Column("rollout_id", sa.String(200), nullable=False),
        sa.Column("episode_id", sa.String(32), nullable=False),
        sa.Column("owner", sa.String(100), nullable=True),
        sa.Column("invocation_id", sa.String(200), nullable=False),
        sa.Column("experiment_id", sa.String(200), nullable=False),
        sa.Column("run_id", sa.String(200), nullable=False),
        sa.Column("row_id", sa.String(200), nullable=False),
        sa.Column("messages", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["episode_id"], ["episodes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("rollout_id"),
    )
    op.create_index("ix_ep_rollouts_episode_id", "ep_rollouts", ["episode_id"])


def downgrade() -> None:
    op.drop_index("ix_ep_rollouts_episode_id", table_name="ep_rollouts")
    op.drop_table("ep_rollouts")
