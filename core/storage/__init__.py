"""Persistence with tortoise-orm: SQLite by default, PostgreSQL by URL."""
