"""Reading a permalink by its id, the one way every view does (issue 27).

Ids are keyed hashes (models.permalink_id), so they cannot be computed from a guessed input; guessing
them at random is bounded too: each id that names no link counts against the client's
``EXPLAINER_NOT_FOUND_RATE_LIMIT`` per ``EXPLAINER_NOT_FOUND_RATE_WINDOW`` seconds, and once that budget
is used up every permalink read of the client is refused (429) until the window ends, found or not,
so that a hit cannot be told from a miss.
"""
from __future__ import annotations

from django.http import Http404, HttpRequest

from explainer.web.models import Permalink
from explainer.web.security import TooManyMisses, budget_used_up, rate_limited

__all__ = ["TooManyMisses", "find_link", "link_or_404"]


def find_link(request: HttpRequest, pid: str, kind: str | None = None) -> Permalink | None:
    """The permalink ``pid`` (of ``kind``, when given), or None (counted as a miss); TooManyMisses when
    the client's budget of misses is used up."""
    if budget_used_up(request, "miss"):
        raise TooManyMisses()
    query = Permalink.objects.filter(pk=pid)
    link = (query.filter(kind=kind) if kind else query).first()
    if link is None:
        rate_limited(request, "miss")
    return link


def link_or_404(request: HttpRequest, pid: str, kind: str | None = None) -> Permalink:
    link = find_link(request, pid, kind)
    if link is None:
        raise Http404("No such permalink: it never existed or was deleted.")
    return link
