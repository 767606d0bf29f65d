"""Storing a permalink: the one share flow behind the page's Share, the compare page's paste and the API.

Every way of storing an input goes through `share_input` (and a comparison of two stored inputs
through `share_comparison`), in one order: the size check, the rate limit (before the credential
scan, so a limited client costs nothing more), the credential scan, the person's decision about
what it found (redact or keep), the redaction and the store.  Each caller turns the `ShareOutcome`
into its own answer (a partial, a redirect, JSON); a security fix is made here, once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from explainer.web.redact.credentials import (Hit, RedactionFailed, find_output_secrets, find_secrets, redact,
                                        redact_output)
from explainer.web.models import Permalink
from explainer.web.security import rate_limited

DECISIONS = ("redact", "keep")
Status = Literal["stored", "too_large", "rate_limited", "secrets", "unredactable"]
UNREDACTABLE = gettext_noop("The credentials could not be taken out safely (one of them is also written elsewhere in "
                            "the manifest, as part of its structure), so nothing was stored. Remove them yourself "
                            "and share again, or store it as it is.")


@dataclass(frozen=True)
class ShareOutcome:
    """What became of a share: ``stored`` (``link``, and ``token`` the first time only), ``too_large``
    (``limit`` bytes), ``rate_limited``, ``secrets`` (the credentials ``hits``: ask the person), or
    ``unredactable`` (asked to redact, but the check of the redacted text failed: nothing stored)."""

    status: Status
    link: Permalink | None = None
    token: str | None = None
    hits: tuple[Hit, ...] = ()
    limit: int = 0
    redacted: bool = False
    field: str = "manifest"        # too_large: which text is (manifest, or observed)


def share_input(request: HttpRequest, manifest: str, scenario: dict | None, version: str,
                decision: str | None, observed: str = "") -> ShareOutcome:
    """Store ``manifest`` (with its scenario, version and the observed kubectl output) as a permalink,
    or say why not.

    ``decision`` is the person's answer to the credential warning: "redact", "keep", or anything
    else for no answer yet (then found credentials stop the share with ``secrets``)."""
    limit = settings.MAX_STORED_BYTES
    if len(manifest.encode("utf-8")) > limit:
        return ShareOutcome("too_large", limit=limit)
    if len(observed.encode("utf-8")) > limit:
        return ShareOutcome("too_large", limit=limit, field="observed")
    if rate_limited(request, "share"):   # before the credential scan: a limited client costs nothing more
        return ShareOutcome("rate_limited")
    hits = find_secrets(manifest) + (find_output_secrets(observed) if observed.strip() else [])
    if hits and decision not in DECISIONS:
        return ShareOutcome("secrets", hits=tuple(hits))
    redacted = bool(hits) and decision == "redact"
    try:
        text = redact(manifest) if redacted else manifest
        seen = redact_output(observed) if redacted and observed.strip() else observed
    except RedactionFailed:   # the redacted copy still held a value, or no longer read: never stored
        return ShareOutcome("unredactable", hits=tuple(hits))
    link, token = Permalink.store(text, scenario or None, version, redacted=redacted, observed=seen)
    return ShareOutcome("stored", link=link, token=token, redacted=redacted)


def share_comparison(request: HttpRequest, left: Permalink, right: Permalink) -> ShareOutcome:
    """The comparison of two stored inputs gets its own permalink: one rate-limit budget with every share."""
    if rate_limited(request, "share"):
        return ShareOutcome("rate_limited")
    link, token = Permalink.store_compare(left.id, right.id)
    return ShareOutcome("stored", link=link, token=token)
