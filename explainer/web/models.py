"""Database models for the web app (Permalink will live here; none yet)."""
from __future__ import annotations
