"""The `image-reference-invalid` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.kubelet.images import SHOWN, placeholder, reference_error, shown
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "image-reference-invalid"
TITLE = gettext_noop("Image reference the kubelet cannot parse")
SEVERITY = Severity.ERROR
DOCS_URL = "https://kubernetes.io/docs/concepts/containers/images/#image-names"
REFERENCES = (
    "https://kubernetes.io/docs/tasks/inject-data-application/define-interdependent-environment-variables/",
    "https://kubernetes.io/docs/tasks/manage-kubernetes-objects/kustomization/",
    "https://github.com/helm/charts/issues/6878",
)
WHAT = gettext_noop(
    "A container's image is not a valid image reference, often a template placeholder (${APP_VERSION}) "
    "that nothing filled in.")
WHY = gettext_noop(
    "The API server accepts any image that is not empty, so the Pod is created. The kubelet parses the "
    "reference before it pulls (EnsureImageExists), and a reference that does not parse is an InspectFailed "
    "event and the waiting reason InvalidImageName, at every sync: nothing is pulled, nothing backs off, "
    "and the container never starts. An init container with such an image holds the whole Pod at "
    "Init:InvalidImageName. The kubelet expands $(VAR) in command, args and env only, never in image, and "
    "kubectl expands nothing: ${VAR} is filled by envsubst, {{ .Values.x }} by Helm, and a tag by "
    "Kustomize's images field, before the file reaches the cluster.")
FIX_TEXT = gettext_noop(
    "Fill the reference in before applying it (envsubst, helm template or install, kustomize edit set "
    "image), or write the real registry, name and tag.")
FIRES_WHEN = gettext_noop(
    "an init, sidecar or app container's image fails the image reference grammar the kubelet uses "
    "(distribution/reference ParseNormalizedNamed): a placeholder, upper case in the repository, a URL "
    "scheme, a tag over 128 characters, a malformed digest.")
QUIET_WHEN = gettext_noop(
    "every image parses, whatever registry, tag or digest it names (whether it exists is the pull's "
    "business).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
# $how
- name: $name
  image: $filled
"""
EXAMPLE = {"how": "export APP_VERSION=1.4.2; envsubst < pod.yaml | kubectl apply -f -",
           "filled": "registry.example.com/app:1.4.2"}
_HOW = {   # how each kind of placeholder is meant to be filled
    "shell": gettext_noop("a shell or envsubst fills it before kubectl apply; Kubernetes never does"),
    "kubelet": gettext_noop("the kubelet expands $(VAR) in command, args and env, but never in image"),
    "helm": gettext_noop("Helm renders it (helm template, helm install); kubectl applies it as text"),
    "marker": gettext_noop("it marks a value to write in by hand"),
}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.init_containers + ctx.pod.containers:
        error = reference_error(c.image) if c.image else None
        if error is None:
            continue
        found = placeholder(c.image)
        if found is not None:
            kind, text = found
            why = Text(gettext_noop("it still holds the placeholder {placeholder} ({how})"),
                       {"placeholder": text, "how": Text(_HOW[kind])})
        else:
            why = Text(gettext_noop("the parser says: {error}"), {"error": error})
        explanation = Text(gettext_noop(
            "The image of {c}, {image}, is not an image reference the kubelet can parse: {why}. The API server "
            "accepts it, but the kubelet fails before any pull (InvalidImageName, event InspectFailed) on every "
            "sync, with no back-off and no retry that could succeed: {c} never starts. {outcome}"),
            {"c": c.name, "image": shown(c.image), "why": why, "outcome": _outcome(ctx, c)})
        repository, filled = _fill_in(c.image, found)
        yield ctx.finding(ID, c, ctx.container_path(c, "image"), explanation,
                          fill(FIX, name=c.name, filled=filled, how=_how(found, repository, filled != c.image)))


def _outcome(ctx: RuleContext, c: Container) -> Text:
    """What the timeline shows: the Pod's STATUS from the moment the kubelet gives up on the image."""
    sim = ctx.simulation
    at = ctx.trace_time(c, "image_pull_failed")
    if sim is None or at is None:
        if c.role == "init":
            return Text(gettext_noop("The Pod stays Pending at Init:InvalidImageName, and no app container "
                                     "ever starts."))
        return Text(gettext_noop("The Pod stays Pending."))
    status = next((p.status for p in reversed(sim.timeline) if p.t <= at.t), "")
    if c.role == "init":
        return Text(gettext_noop("From {t} s the Pod shows {status} and stays Pending: no later init container "
                                 "and no app container ever starts."), {"t": at, "status": status})
    return Text(gettext_noop("From {t} s the Pod shows {status} and stays Pending."), {"t": at, "status": status})


def _how(found: tuple[str, str] | None, repository: str, tag: bool) -> str:
    """The comment of the fix: how this kind of placeholder is filled in before the file reaches the cluster."""
    if found is None or found[0] == "marker":
        return "write the real registry, name and tag"
    kind, text = found
    if kind == "helm":
        return "render it first: helm template . | kubectl apply -f -   (or helm install)"
    if kind == "kubelet":
        return "$(VAR) works in command, args and env only: write the image out, or fill it with envsubst"
    variable = text.strip("${}").split(":", 1)[0].split("-", 1)[0]
    how = f"export {variable}=<VALUE>; envsubst < pod.yaml | kubectl apply -f -"
    if tag and repository != "<REPOSITORY>":
        how += f"\n# or let Kustomize set the tag: images: [{{name: {repository}, newTag: <VALUE>}}]"
    return how


def _fill_in(image: str, found: tuple[str, str] | None) -> tuple[str, str]:
    """(repository, the image to write) for the fix: the tag is a person's choice, so it stays a marker."""
    name, colon, tag = image.rpartition(":")
    if not colon or "/" in tag:
        name, tag = image, ""
    name = name.split("@", 1)[0]
    if len(image) > 2 * SHOWN:
        return "<REPOSITORY>", "<REPOSITORY>:<TAG>"    # a reference that long is not one to copy back
    if found is not None and found[1] in name:     # the placeholder is in the name: a value to write in
        marker = "<" + "".join(ch for ch in found[1] if ch.isalnum() or ch == "_").upper() + ">"
        return name.replace(found[1], marker), image.replace(found[1], marker)
    repository = name if reference_error(name) is None else "<REPOSITORY>"
    return repository, f"{repository}:<TAG>"
