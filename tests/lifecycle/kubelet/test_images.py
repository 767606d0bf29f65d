"""Image references the kubelet cannot parse (docs/lifecycle-model.md §28).

The table is the grammar of distribution/reference (reference.go, regexp.go, normalize.go
`ParseNormalizedNamed`), which pkg/kubelet/images/image_manager.go `applyDefaultImageTag` calls before any
pull; each row's error is the parser's own words.  Then the kubelet: `EnsureImageExists` returns
ErrInvalidImageName with an InspectFailed event, the container waits with reason InvalidImageName, and
no pull back-off starts.
"""
from __future__ import annotations

import pytest

from explainer.lifecycle.kubelet.images import placeholder, reference_error
from tests.lifecycle.engine import count, events, simulated, statuses

HEX = "4d5db2d6b6e5d66c9e8e7c5d3b44f5c1ec53a0e9c2e7d4d5a1c33b8f0e4a2b6c"
REFERENCES = [
    # (image, the parser's error or None)
    ("nginx", None),
    ("nginx:1.27", None),
    ("registry.example.com/app:1.4.2", None),
    ("localhost:5000/app", None),                       # localhost and a port: a domain
    ("[::1]:5000/app:v1", None),                        # an IPv6 host in brackets
    ("MyRegistry/app", None),                           # an upper-case first component is a domain
    ("app__x", None),                                   # two underscores are a separator
    ("a--b", None),                                     # any number of dashes too
    (f"busybox:1.36@sha256:{HEX}", None),               # a tag and a digest together
    ("app:" + "a" * 128, None),                         # a tag of 128 characters
    ("registry.example.com/app:${APP_VERSION}", "invalid reference format"),   # seed 002
    ("$IMAGE_URL", "invalid reference format: repository name (library/$IMAGE_URL) must be lowercase"),
    ("gcr.io/<<PROJECT>>/jax/hello:latest",
     "invalid reference format: repository name (<<PROJECT>>/jax/hello) must be lowercase"),
    ("Nginx", "invalid reference format: repository name (library/Nginx) must be lowercase"),
    ("foo/Bar:1", "invalid reference format: repository name (foo/Bar) must be lowercase"),
    ("http://registry/app", "invalid reference format"),
    ("app___x", "invalid reference format"),            # three underscores are not a separator
    ("-a", "invalid reference format"),
    ("app:" + "a" * 129, "invalid reference format"),   # a tag of 129
    ("app:1.0\n", "invalid reference format"),          # anchored at the end of the text, as Go's $ is
    ("ubuntu@sha256:abc", "invalid reference format"),  # a digest needs 32 hex digits or more
    (f"busybox@sha256:{HEX.upper()}", "invalid checksum digest format"),
    (f"busybox@sha256:{HEX}00", "invalid checksum digest length"),
    (f"busybox@md5:{HEX}", "unsupported digest algorithm"),
    (HEX, f"invalid repository name ({HEX}), cannot specify 64-byte hexadecimal strings"),
    ("", "repository name must have at least one component"),
]


@pytest.mark.parametrize("image,error", REFERENCES, ids=[repr(r[0])[:40] for r in REFERENCES])
def test_the_kubelets_reference_grammar(image: str, error: str | None) -> None:
    assert reference_error(image) == error


@pytest.mark.parametrize("image,found", [
    ("registry.example.com/app:${APP_VERSION}", ("shell", "${APP_VERSION}")),
    ("$IMAGE_URL", ("shell", "$IMAGE_URL")),
    ("app:$(VERSION)", ("kubelet", "$(VERSION)")),
    ("app:{{ .Values.tag }}", ("helm", "{{ .Values.tag }}")),
    ("gcr.io/<<PROJECT>>/jax/hello:latest", ("marker", "<<PROJECT>>")),
    ("Example/App:1.0", None),
])
def test_placeholders_are_named_by_their_kind(image: str, found: tuple[str, str] | None) -> None:
    assert placeholder(image) == found


def test_a_hostile_reference_is_read_in_linear_time() -> None:
    for image in ("a-" * 50_000 + "!", "a." * 50_000 + "/", "a" * 100_000 + "/" + "b-" * 50_000 + ":"):
        assert reference_error(image) is not None


def test_an_init_container_with_an_unparseable_image_holds_the_pod_at_init_invalid_image_name() -> None:
    """EnsureImageExists: InspectFailed, reason InvalidImageName, no pull and no back-off; the init container
    never runs, so nothing after it does, and the Pod stays Pending (kubectl: Init:InvalidImageName)."""
    pod = simulated("pods/invalid_image")
    assert events(pod) == ["0 - sandbox_ready", "0 migrate-db image_pull_failed"]
    (e,) = [e for e in pod.events if e.type == "image_pull_failed"]
    assert e.reason == "InvalidImageName"
    assert e.message.startswith('event InspectFailed: Failed to apply default image tag '
                                   '"registry.example.com/app:${APP_VERSION}": couldn\'t parse image reference')
    assert statuses(pod) == ["Init:0/1", "Init:InvalidImageName"]
    assert pod.final_phase == "Pending" and count(pod, "migrate-db", "backoff") == 0


def test_an_app_container_with_an_unparseable_image_waits_while_the_others_run() -> None:
    pod = simulated("pods/invalid_image_app")
    assert "0 proxy started" in events(pod) and count(pod, "app", "started") == 0
    assert statuses(pod)[-1] == "InvalidImageName" and pod.final_phase == "Pending"


def test_a_new_image_lets_the_container_start_on_the_next_sync() -> None:
    """The kubelet parses the reference on every sync: once the image is changed to one that parses, it
    starts (a running Pod may change its images: ValidatePodUpdate)."""
    scenario = ("imageUpdates:\n  - {container: migrate-db, image: 'registry.example.com/app:1.4.2', at: 20}\n"
                "  - {container: app, image: 'registry.example.com/app:1.4.2', at: 20}\n")
    pod = simulated("pods/invalid_image", scenario)
    assert "20 migrate-db started" in events(pod)
    assert statuses(pod)[-1] == "Running"


def test_a_pod_waiting_on_its_image_is_deleted_at_once() -> None:
    """Nothing runs, so nothing is stopped: the Pod ends at the deletion, Failed (a deleted Pod that is not
    Succeeded is moved to Failed, docs/lifecycle-model.md §10.1)."""
    pod = simulated("pods/invalid_image", "deleteAt: 10")
    assert pod.end_time == 10 and pod.final_phase == "Failed"
