"""Alembic migrations of the store's schema. zfrec.store.db.upgrade runs them on open."""
