""""Apply fix" on the page: the server patches the editor's text, the page's script only puts
the answer into the editor (and keeps the previous text for Undo), then explains it again."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from explainer.fixes import Target, fix_one
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.numbers import whole_number
from explainer.lifecycle.yamlload import Limits
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
    target = Target(rule, request.POST.get("container") or None, line)
    text, _finding = fix_one(manifest, target, scenario, data["version"],
                             limits=Limits(max_bytes=settings.MAX_MANIFEST_BYTES,
                                           bytes_setting="EXPLAINER_MAX_MANIFEST_BYTES"))
    if text is None:
        return JsonResponse({"error": gettext("This fix does not apply to the text as it is now: explain it "
                                              "again and retry.")}, status=409)
    return JsonResponse({"manifest": text})
