"""The explain form: size limit and version; the manifest itself is judged by the core."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from explainer.lifecycle import defaults as d


class ExplainForm(forms.Form):
    manifest = forms.CharField(
        label=_("Manifest"), strip=False,
        error_messages={"null_characters_not_allowed": _(
            "The input holds NUL characters: is it a binary file? Paste YAML or JSON text.")},
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false", "autocomplete": "off",
                                     "autocapitalize": "off", "wrap": "off", "id": "manifest"}))
    version = forms.ChoiceField(label=_("Kubernetes version"), choices=[(v, v) for v in reversed(d.SUPPORTED_VERSIONS)],
                                initial=d.DEFAULT_VERSION)
    scenario = forms.CharField(label=_("Scenario (YAML)"), required=False, strip=False,
                               widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "id": "scenario"}))
    # what the cluster shows (issue 23): kubectl's output, compared with the prediction
    observed = forms.CharField(
        label=_("What the cluster shows"), required=False, strip=False,
        error_messages={"null_characters_not_allowed": _(
            "The observed output holds NUL characters: is it a binary file? Paste kubectl's text output.")},
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off",
                                     "autocapitalize": "off", "wrap": "off", "id": "observed",
                                     "aria-labelledby": "observed-label",
                                     "aria-describedby": "observed-hint"}))

    def clean_manifest(self) -> str:
        text = self.cleaned_data["manifest"]
        size = len(text.encode("utf-8"))
        limit = settings.MAX_MANIFEST_BYTES
        if size > limit:
            raise forms.ValidationError(
                _("The manifest is %(size)s bytes; the limit is %(limit)s bytes (EXPLAINER_MAX_MANIFEST_BYTES raises "
                  "it where the explainer runs)."),
                params={"size": f"{size:,}", "limit": f"{limit:,}"}, code="too_large")
        if not text.strip():
            raise forms.ValidationError(_("Paste a Kubernetes manifest: a Pod, Deployment, Job, ..."), code="empty")
        return text

    def clean_observed(self) -> str:
        text = self.cleaned_data.get("observed") or ""
        size = len(text.encode("utf-8"))
        limit = settings.MAX_MANIFEST_BYTES
        if size > limit:
            raise forms.ValidationError(
                _("The observed output is %(size)s bytes; the limit is %(limit)s bytes (EXPLAINER_MAX_MANIFEST_BYTES "
                  "raises it where the explainer runs)."),
                params={"size": f"{size:,}", "limit": f"{limit:,}"}, code="too_large")
        return text
