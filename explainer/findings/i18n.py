"""Mark the findings' text for translation without importing Django.

Rules write English message ids with ``{named}`` fields, each inside ``gettext_noop(...)`` so
that `makemessages` finds it; a Finding keeps the id and its fields as a `Text`, and the web
layer renders it through gettext (the JSON output renders it in English).  Both live in the
core (`explainer.lifecycle.i18n`), which marks its own texts the same way.
"""
from __future__ import annotations

from ..lifecycle.i18n import Text, gettext_noop

__all__ = ["Text", "gettext_noop"]
