"""Image references the kubelet cannot parse: `InvalidImageName` (docs/lifecycle-model.md §28).

The API server takes any non-empty image string (`validateContainerCommon` checks only that it is set and has
no leading or trailing white space).  The kubelet parses it before pulling: pkg/kubelet/images/image_manager.go
`EnsureImageExists` calls `applyDefaultImageTag`, which calls the distribution/reference parser
`ParseNormalizedNamed`; when that fails the kubelet records a Warning event `InspectFailed` ("Failed to apply
default image tag …: couldn't parse image reference …") and returns `ErrInvalidImageName`, which becomes the
container's waiting reason.  Nothing is pulled and no pull back-off starts, so every sync fails the same way.

`reference_error` follows the grammar of distribution/reference (reference.go, regexp.go, normalize.go),
written here from that grammar; `placeholder` names the template text (`${VAR}`, `{{ .Values.x }}`,
`<<PROJECT>>`) that makes a reference unparseable because nothing filled it in.
"""
from __future__ import annotations

import functools
import re

# distribution/reference regexp.go, as a grammar: a path component is lower-case alphanumerics joined by one
# period, one or two underscores or any number of dashes; a domain component may hold upper case.
_ALNUM = r"[a-z0-9]+"
_SEPARATOR = r"(?:[._]|__|-+)"
_PATH_COMPONENT = rf"{_ALNUM}(?:{_SEPARATOR}{_ALNUM})*"
_REMOTE = rf"{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*"
_DOMAIN_COMPONENT = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_HOST = rf"(?:{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*|\[[a-fA-F0-9:]+\])"
_DOMAIN = rf"{_HOST}(?::[0-9]+)?"
_NAME = rf"(?:{_DOMAIN}/)?{_REMOTE}"
_TAG = r"[\w][\w.-]{0,127}"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"
# Go's regexp: \w is ASCII, and the anchors are the text's ends (fullmatch, never before a final newline)
_REFERENCE = re.compile(rf"({_NAME})(?::({_TAG}))?(?:@({_DIGEST}))?", re.ASCII)
_ANCHORED_NAME = re.compile(rf"(?:({_DOMAIN})/)?({_REMOTE})", re.ASCII)
_IDENTIFIER = re.compile(r"[a-f0-9]{64}")
NAME_TOTAL_LENGTH_MAX = 255                # reference.go RepositoryNameTotalLengthMax
# opencontainers/go-digest: the algorithms registered, and the length of each one's hex encoding
_DIGEST_HEX = {"sha256": 64, "sha384": 96, "sha512": 128}

INVALID_REFERENCE_FORMAT = "invalid reference format"


SHOWN = 120          # an image is quoted up to this many characters (a hostile one may be a megabyte)


def shown(image: str) -> str:
    """``image`` as a message quotes it: whole, or its start and an ellipsis."""
    return image if len(image) <= SHOWN else image[:SHOWN] + "…"


def reference_error(image: str) -> str | None:
    """Why the kubelet cannot parse ``image`` (the parser's own words), or None when it can.  Short ones (every
    real image) are remembered; a long one is parsed each time rather than kept."""
    return _cached_error(image) if len(image) <= 512 else _error(image)


@functools.lru_cache(maxsize=4096)
def _cached_error(image: str) -> str | None:
    return _error(image)


def _error(image: str) -> str | None:
    """Why the kubelet cannot parse ``image`` (the parser's own words), or None when it can.

    ParseNormalizedNamed: a 64-hex identifier is refused; the domain is split off (a first component with
    a dot or a colon, or `localhost`, or upper case, is a domain); the repository must be lower case; then
    Parse checks the whole reference against the grammar, the name's length and the digest."""
    if not image:
        return "repository name must have at least one component"
    if _IDENTIFIER.fullmatch(image):
        return f"invalid repository name ({image}), cannot specify 64-byte hexadecimal strings"   # 64 characters
    domain, remainder = _split_domain(image)
    remote = remainder.split(":", 1)[0]
    if remote.lower() != remote:
        return f"invalid reference format: repository name ({shown(remote)}) must be lowercase"
    whole = f"{domain}/{remainder}"
    m = _REFERENCE.fullmatch(whole)
    if m is None:
        lowered = whole.lower()
        if lowered != whole and _REFERENCE.fullmatch(lowered):
            return "repository name must be lowercase"
        return INVALID_REFERENCE_FORMAT
    name = _ANCHORED_NAME.fullmatch(m.group(1))
    path = name.group(2) if name else m.group(1)
    if len(path) > NAME_TOTAL_LENGTH_MAX:
        return f"repository name must not be more than {NAME_TOTAL_LENGTH_MAX} characters"
    if m.group(3):
        algorithm, _sep, encoded = m.group(3).partition(":")
        if algorithm not in _DIGEST_HEX:
            return "unsupported digest algorithm"
        if len(encoded) != _DIGEST_HEX[algorithm]:
            return "invalid checksum digest length"
        if encoded.lower() != encoded:
            return "invalid checksum digest format"
    return None


def _split_domain(name: str) -> tuple[str, str]:
    """normalize.go `splitDockerDomain`: (domain, remote name), Docker Hub's `library/` added to a bare name."""
    first, slash, rest = name.partition("/")
    if not slash:
        return "docker.io", "library/" + name
    if first == "localhost" or any(ch in first for ch in ".:") or first.lower() != first:
        domain, remote = first, rest
    elif first == "index.docker.io":
        domain, remote = "docker.io", rest
    else:
        domain, remote = "docker.io", name
    if domain == "docker.io" and "/" not in remote:
        remote = "library/" + remote
    return domain, remote


def kubelet_message(image: str, error: str) -> str:
    """The message of the kubelet's InspectFailed event (image_manager.go `EnsureImageExists`)."""
    image = shown(image)
    return f'Failed to apply default image tag "{image}": couldn\'t parse image reference "{image}": {error}'


# Template text left in an image: shell and envsubst (${VAR}, $VAR), the kubelet's own $(VAR) (expanded in
# command, args and env only: never in image), Helm and Go templates ({{ .Values.x }}), and the hand-written
# markers of examples (<<PROJECT>>, <TAG>, %VERSION%).
_PLACEHOLDERS = (
    ("shell", re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+-=][^}]*)?\}|\$[A-Za-z_][A-Za-z0-9_]*")),
    ("kubelet", re.compile(r"\$\([A-Za-z_][A-Za-z0-9_]*\)")),
    ("helm", re.compile(r"\{\{.*?\}\}")),
    ("marker", re.compile(r"<<?[A-Za-z_][\w.-]*>>?|%[A-Za-z_]\w*%")),
)


def placeholder(image: str) -> tuple[str, str] | None:
    """(kind, text) of the template placeholder left in ``image``: kind is shell, kubelet, helm or marker."""
    for kind, pattern in _PLACEHOLDERS:
        m = pattern.search(image)
        if m is not None:
            return kind, m.group(0)
    return None
