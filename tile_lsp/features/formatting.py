"""Formatting: re-indent and normalise spacing, keeping every comment, name and order."""

from __future__ import annotations


def format_text(text: str) -> str | None:
    """The formatted text, or None when it cannot be formatted safely (leave it unchanged)."""
    return None
