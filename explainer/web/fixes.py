""""Apply fix" on the page: the server patches the editor's text, the page's script only puts
the answer into the editor (and keeps the previous text for Undo), then explains it again.

Bounded like every write (issue 27): the text is at most ``EXPLAINER_MAX_FIX_BYTES`` (413 names the
setting), each client has the share budget's limit (``EXPLAINER_SHARE_RATE_LIMIT`` per window) for
fixes of its own, and the explanations that prove a fix have the request's Pod and container limits.
Patching itself is linear in the text (patching_prune.py)."""
from __future__ import annotations

import dataclasses

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from explainer.fixes import Target, fix_one
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.numbers import whole_number
from explainer.web.limits import request_limits
from explainer.web.security import rate_limited
from explainer.web.forms import ExplainForm
from explainer.web.present import translate_errors
from explainer.web.whatif import scenario_from_post


@require_POST
def apply_fix(request: HttpRequest) -> JsonResponse:
    """POST the explain form plus ``rule``, ``container`` and ``line`` of one finding:
    200 {"manifest": the fixed text}, 400 for a bad request, 409 when that finding has no fix
    that holds (the text changed since it was explained, or the fix would make things worse)."""
    form = ExplainForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"error": " ".join(str(m) for ms in form.errors.values() for m in ms)}, status=400)
    line = whole_number(request.POST.get("line", ""), 9)   # ASCII digits: "²" is no line number
    rule = request.POST.get("rule", "")
    if not rule or line is None:
        return JsonResponse({"error": gettext("Name the finding to fix (rule and line).")}, status=400)
    try:
        scenario = scenario_from_post(request.POST)
    except ManifestError as exc:
        return JsonResponse({"error": translate_errors(exc.records)[0]["message"]}, status=400)
    data = form.cleaned_data
    manifest = data["manifest"].replace("\r\n", "\n")   # browsers send a textarea's lines as CRLF
    size, limit = len(manifest.encode("utf-8")), settings.MAX_FIX_BYTES
    if size > limit:
        return JsonResponse({"error": gettext("The manifest is %(size)s bytes; Apply fix takes at most %(limit)s bytes "
                                              "(EXPLAINER_MAX_FIX_BYTES raises it where the explainer runs).")
                             % {"size": f"{size:,}", "limit": f"{limit:,}"}}, status=413)
    if rate_limited(request, "fix"):
        return JsonResponse({"error": gettext("Too many fixes asked for from your address; try again later.")},
                            status=429)
    target = Target(rule, request.POST.get("container") or None, line)
    limits = dataclasses.replace(request_limits(), max_bytes=limit, bytes_setting="EXPLAINER_MAX_FIX_BYTES")
    text, _finding = fix_one(manifest, target, scenario, data["version"], limits=limits)
    if text is None:
        return JsonResponse({"error": gettext("This fix does not apply to the text as it is now: explain it "
                                              "again and retry.")}, status=409)
    return JsonResponse({"manifest": text})
