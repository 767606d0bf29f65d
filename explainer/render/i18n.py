"""Mark text for translation without importing Django (shared with the core and the findings).

The core and renderers produce English message ids with ``{named}`` fields; the web layer
passes each id through gettext before formatting, and `makemessages` finds them by the
``gettext_noop`` keyword it already knows.
"""
from __future__ import annotations

from ..lifecycle.i18n import Text, gettext_noop

__all__ = ["Text", "gettext_noop"]
