"""What one request may make the explainer read and simulate (the settings' MAX_* values)."""
from __future__ import annotations

from django.conf import settings

from explainer.lifecycle.manifest.yamlload import Limits


def request_limits() -> Limits:
    """What one request may make the explainer read and simulate (the CLI has no Pod limits)."""
    return Limits(max_bytes=settings.MAX_MANIFEST_BYTES, max_pods=settings.MAX_PODS,
                  max_containers=settings.MAX_CONTAINERS, bytes_setting="EXPLAINER_MAX_MANIFEST_BYTES",
                  pods_setting="EXPLAINER_MAX_PODS", containers_setting="EXPLAINER_MAX_CONTAINERS")
