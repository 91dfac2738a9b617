"""Render families: an episode's dataset source, its images (artifacts), prediction sets.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("episodes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.String(length=500), nullable=True))
    op.create_table(
        "artifacts",
        sa.Column("episode_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("content_type", sa.String(length=64), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["episode_id"], ["episodes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("episode_id", "name"),
    )
    op.create_table(
        "prediction_sets",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("owner", sa.String(length=100), nullable=True),
        sa.Column("items", JSON, nullable=False),
        sa.Column("item_count", sa.Integer(), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("prediction_sets", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_prediction_sets_owner"), ["owner"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("prediction_sets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_prediction_sets_owner"))
    op.drop_table("prediction_sets")
    op.drop_table("artifacts")
    with op.batch_alter_table("episodes", schema=None) as batch_op:
        batch_op.drop_column("source")
