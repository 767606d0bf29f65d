"""The teaching examples of the source documents, and their counter-examples.

One list serves the web gallery, the tests and the benchmarks, so an example exists once.  An example may
carry what a cluster showed about its Pod (``<slug>.observed.txt``: kubectl's output, issue 23), which the
page draws under the prediction and compares with it.
"""
from __future__ import annotations

from pathlib import Path

from ..render.i18n import gettext_noop as _
from explainer.lifecycle.records import record

HERE = Path(__file__).resolve().parent


@record
class Example:
    slug: str
    title: str          # message ids: the web layer translates them
    summary: str
    good: bool          # a teaching case (True) or a counter-example (False)
    scenario: str = ""
    seen: bool = False  # it comes with kubectl's output about its Pod (<slug>.observed.txt)

    def manifest(self) -> str:
        return (HERE / f"{self.slug}.yaml").read_text(encoding="utf-8")

    def observed(self) -> str | None:
        """What the cluster showed about the Pod (kubectl's output), or None."""
        return (HERE / f"{self.slug}.observed.txt").read_text(encoding="utf-8") if self.seen else None


EXAMPLES: tuple[Example, ...] = (
    Example("init-example", _("Init container prepares a config"),
            _("An init container writes a file into an emptyDir that the app then reads."), True),
    Example("native-sidecar-example", _("Native sidecar"),
            _("An init container with restartPolicy: Always keeps running beside the app, which serves until stopped."),
            True),
    Example("native-sidecar-app-exits", _("App that finishes under restartPolicy Always"),
            _("The app's script ends after 20 s; restartPolicy Always restarts it, exit 0 included, into "
              "CrashLoopBackOff."), False),
    Example("native-sidecar-probe", _("Native sidecar with a startupProbe"),
            _("The app waits until the proxy's startupProbe passes."), True,
            "containers:\n  proxy:\n    startupSeconds: 5\n"),
    Example("process-sharing-example", _("Shared process namespace"),
            _("shareProcessNamespace: the containers see each other's processes; a debug container joins."),
            True, "debug:\n  - {name: debugger, image: 'busybox:1.36', target: app, at: 20, runSeconds: 30}\n"),
    Example("lifecycle-demo", _("Init, sidecar and app together"),
            _("A plain init container, a native sidecar and the app, deleted after 30 s."), True,
            "deleteAt: 30\n"),
    Example("restart-all-containers", _("Restart all containers on exit 42"),
            _("Kubernetes 1.36+: a restart rule restarts the whole Pod in place, init containers first."), True,
            "containers:\n  trainer:\n    runs: [{runSeconds: 20, exitCode: 42}, {runSeconds: forever}]\nuntil: 60\n"),
    Example("web-app-pod", _("Production-style web Pod"),
            _("Three init containers, hooks, all three probes and classic sidecars; the course's ${APP_VERSION} "
              "image tag is filled in, as envsubst, Helm or Kustomize would."), True, "deleteAt: 60\n"),
    Example("image-placeholder", _("Image tag left as a template"),
            _("registry.example.com/app:${APP_VERSION}: the API server accepts it, the kubelet cannot parse it "
              "(InvalidImageName), and the Pod waits at Init:InvalidImageName for ever."), False),
    Example("long-running-init", _("Long-running plain init container"),
            _("A proxy written as a plain init container never exits: the app never starts."), False),
    Example("job-classic-sidecar", _("Job with a classic sidecar"),
            _("The worker finishes but the log sidecar keeps the Pod, and the Job, running."), False),
    Example("classic-sidecar-order", _("Ordering by list position"),
            _("A proxy listed before the app is not guaranteed to be ready first."), False),
    Example("tmp-without-volume", _("/tmp shared without a volume"),
            _("Each container has its own /tmp: the token the init container wrote is not there."), False),
    Example("deploy-502-race", _("502s on every deploy"),
            _("No preStop: the Pod stops listening at SIGTERM while the proxies still send it requests for a few "
              "seconds."), False, "deleteAt: 30\n"),
    Example("deploy-prestop-drain", _("A preStop sleep drains the Pod"),
            _("The same Deployment: a preStop sleep longer than the endpoint change takes keeps it serving until "
              "the proxies let it go."), True, "deleteAt: 30\n"),
    Example("rollout-surge-vs-unavailable", _("maxSurge or maxUnavailable"),
            _("Four replicas rolled out two ways: one extra Pod at a time, or one Pod fewer at a time."), True),
    Example("statefulset-update", _("StatefulSet rolling update"),
            _("Highest ordinal first, one Pod at a time, each replacement Ready before the next goes; Parallel "
              "does not change that."), True),
    # what a cluster showed, drawn under the prediction and compared with it (issue 23)
    Example("observed-oom-crash-loop", _("OOMKilled crash loop"),
            _("kubectl shows OOMKilled and RESTARTS climbing where the prediction has the container run: the "
              "250M it allocates exceed its 100Mi limit. Make the prediction match writes the kills in."), False,
            seen=True),
    Example("observed-liveness-kill", _("Liveness probe kills the container"),
            _("describe's events: Unhealthy three times, then Killing. The probe's file is removed after 30 s; the "
              "prediction, which cannot know that, has the probe pass."), False, seen=True),
    Example("observed-init-waits-for-service", _("Init container waiting on a Service"),
            _("The Pod sat at Init:0/2 for minutes while init-myservice looped on nslookup; the prediction has it "
              "finish at once. Make the prediction match writes how long it ran."), False, seen=True),
)
BY_SLUG = {e.slug: e for e in EXAMPLES}
