"""Permalinks: the input of an explanation (or of a comparison), stored once, never changed.

Only the input is stored; the analysis is recomputed when a link is opened, so improvements
to the model reach old links and no migration follows a change of the output's shape.  Links stored
before ids were keyed (issue 27) keep the ids they were given.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction

from explainer.explain import Explanation, explain
from explainer.web.limits import request_limits

KIND_EXPLAIN, KIND_COMPARE = "explain", "compare"


class ImmutableError(Exception):
    """A stored permalink is never changed: editing makes a new one."""


def canonical_manifest(text: str) -> str:
    """Line endings normalised, one trailing newline: the same paste gives the same link."""
    return text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n") + "\n"


def canonical_scenario(scenario: dict[str, Any] | None) -> str:
    return json.dumps(scenario, sort_keys=True, ensure_ascii=False, separators=(",", ":")) if scenario else ""


def permalink_id(*parts: str) -> str:
    """12 URL-safe characters (72 bits) of an HMAC-SHA256 of the canonical input, keyed with the server's
    secret (issue 27): one input still gives one link, but nobody without the key can compute the link of
    an input they guess (a plain hash of a known template with a guessed password found stored links)."""
    key = hashlib.sha256(b"explainer permalink id\x00" + settings.SECRET_KEY.encode("utf-8")).digest()
    digest = hmac.new(key, "\x00".join(parts).encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode("ascii")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Permalink(models.Model):
    id = models.CharField(primary_key=True, max_length=16)
    kind = models.CharField(max_length=8, default=KIND_EXPLAIN,
                            choices=[(KIND_EXPLAIN, "explain"), (KIND_COMPARE, "compare")])
    manifest = models.TextField(blank=True)
    scenario = models.TextField(blank=True)       # canonical JSON of the scenario mapping, or ""
    version = models.CharField(max_length=8, blank=True)
    left = models.CharField(max_length=16, blank=True)    # compare: the two explain permalinks
    right = models.CharField(max_length=16, blank=True)
    redacted = models.BooleanField(default=False)
    observed = models.TextField(blank=True)       # kubectl's output compared with the prediction, or ""
    delete_token_hash = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableError("a permalink is never changed; store the edited input as a new link")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    @property
    def scenario_data(self) -> dict[str, Any] | None:
        return json.loads(self.scenario) if self.scenario else None

    def explanation(self) -> Explanation:
        """The analysis of this link's input, recomputed (only the input is stored)."""
        return explain(self.manifest, self.scenario_data, self.version,
                       limits=request_limits(), observed=self.observed or None)

    def token_matches(self, token: str) -> bool:
        return secrets.compare_digest(self.delete_token_hash, _token_hash(token or ""))

    @classmethod
    def store(cls, manifest: str, scenario: dict[str, Any] | None, version: str, *,
              redacted: bool = False, observed: str = "") -> tuple[Permalink, str | None]:
        """(permalink, delete token): the token only for the request that first stored it.  An input
        without observed output keeps the id it always had."""
        manifest = canonical_manifest(manifest)
        scen = canonical_scenario(scenario)
        seen = canonical_manifest(observed) if observed.strip() else ""
        parts = (KIND_EXPLAIN, manifest, scen, version) + ((seen,) if seen else ())
        return cls._get_or_create(permalink_id(*parts), kind=KIND_EXPLAIN, manifest=manifest, scenario=scen,
                                  version=version, redacted=redacted, observed=seen)

    @classmethod
    def store_compare(cls, left: str, right: str) -> tuple[Permalink, str | None]:
        pid = permalink_id(KIND_COMPARE, left, right)
        return cls._get_or_create(pid, kind=KIND_COMPARE, left=left, right=right)

    @classmethod
    def _get_or_create(cls, pid: str, **fields: Any) -> tuple[Permalink, str | None]:
        existing = cls.objects.filter(pk=pid).first()
        if existing is not None:
            return existing, None
        token = secrets.token_urlsafe(24)
        try:
            with transaction.atomic():
                link = cls(id=pid, delete_token_hash=_token_hash(token), **fields)
                link.save()
        except IntegrityError:   # a concurrent request stored the same input first
            existing = cls.objects.filter(pk=pid).first()
            if existing is None:
                raise
            return existing, None
        return link, token


class RateCount(models.Model):
    """One client's requests in one rate-limit window (issue 11): in the database, so the count
    is shared by every worker and host (`security.rate_limited`; Redis, when configured, instead)."""

    key = models.CharField(primary_key=True, max_length=200)   # scope:client:window
    count = models.PositiveIntegerField(default=0)
    expires = models.FloatField(db_index=True)                  # a Unix time: rows after it are dropped
