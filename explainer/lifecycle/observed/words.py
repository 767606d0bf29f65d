"""The sentences of the divergences (docs/lifecycle-model.md §36): what differs, why, and whether the
scenario can reproduce it.  Message ids here; the Simplified Chinese at the end of the .po file."""
from __future__ import annotations

from ..i18n import gettext_noop as _

# what each side shows, in a few words ("predicted" / "observed" of the contract)
RESTARTS = _("RESTARTS {n} at {t} s")
RESTARTS_LAST = _("RESTARTS {n}; the last run ended {reason}, exit code {code}")
RUNNING = _("running at {t} s")
EXITS_AT = _("exits at {t} s")
EXITED = _("exited at {t} s ({reason}, exit code {code})")
STARTS_AT = _("starts at {t} s")
READY_AT = _("Ready at {t} s")
NOT_READY = _("not Ready at {t} s")
NEVER_READY = _("never Ready")
WAITING = _("waiting: {reason}")
PULLED = _("image pulled")
NO_DELETION = _("no deletion")
DELETED = _("deleted at about {t} s")
STATUS = _("{status} at {t} s")

# why, in sentences
OOM = _("{c} was killed by the kernel's OOM killer (reason OOMKilled, exit code {code}): its memory use reached "
        "the container's memory limit{limit}. The prediction has no such kill. Every kill is a restart, and "
        "the kubelet restarts it with back-off until CrashLoopBackOff. Raise resources.limits.memory, or make "
        "the program use less (a JVM's heap, a cache). {repro}")
LIVENESS = _("{c} was killed by its {kind} probe: the kubelet saw failed checks (Unhealthy) and killed it "
             "(Killing) to start it again. The prediction has the probe pass. A liveness probe that fails while "
             "the program is only slow or busy turns slowness into a crash loop: check what the probe calls "
             "({detail}), give the container a startupProbe, or raise failureThreshold. {repro}")
COMPLETED = _("{c} exited with code 0 and was restarted: under restartPolicy Always the kubelet restarts a "
              "container whatever its exit code, so a command that finishes (a script, a one-off task) is "
              "restarted with back-off until CrashLoopBackOff. The prediction has it run until stopped. Keep the "
              "process in the foreground, or run the task as a Job. {repro}")
CRASHED = _("{c} exited with code {code} ({reason}) and was restarted; the prediction has it run on. The "
            "program fails: `kubectl logs --previous` shows its last run's output. {repro}")
RESTARTED = _("{c} was restarted {n} times, the prediction {p} times. The paste does not say why (no last "
              "state, no events about it): `kubectl describe pod` shows the last termination. {repro}")
NOT_OBSERVED = _("{c}: the prediction shows {what}, the cluster {observed}. {why}{repro}")
ASSUMED = _("The prediction guessed how long {c} runs ({why}); the cluster shows otherwise. ")
STILL_RUNNING = _("{c} was still running at {t} s; the prediction has it exit at {p} s. An init container that "
                  "waits (for a Service, a database) holds back every container after it, and the Pod shows "
                  "Init:{i}/{n} for as long as it waits. {repro}")
STILL_RUNNING_APP = _("{c} was still running at {t} s; the prediction has it exit at {p} s. {repro}")
EXITED_EARLY = _("{c} exited at {t} s ({reason}, exit code {code}); the prediction has it run on. {repro}")
SLOW_PULL = _("Pulling {c}'s image took {pull} s, so it started at {t} s, {delay} s after the prediction: the "
              "model leaves image pulls out. Pre-pull the image, use a smaller one, or pin its tag with "
              "imagePullPolicy IfNotPresent. {repro}")
LATE_START = _("{c} started at {t} s, {delay} s after the prediction ({p} s): time the model leaves out, spent "
               "scheduling, creating the sandbox and its network, mounting volumes and pulling the image (no "
               "Pulling and Pulled events say how long each took). {repro}")
LATE_READY = _("{c} became Ready {after} s after it started, the prediction {p} s after: its readiness probe "
               "passed late, so the program took about {s} s before it answered. {repro}")
NEVER_READY_WHY = _("{c} was running but not Ready at {t} s; the prediction has it Ready at {p} s. Its readiness "
                    "probe kept failing ({detail}). {repro}")
PULL_FAILED = _("{c} could not get its image ({reason}): a wrong name or tag, a private registry without "
                "imagePullSecrets, or a registry out of reach. The kubelet retries with back-off (10 s doubling to "
                "300 s) and the container never starts; the prediction has the pull succeed. {repro}")
CANNOT_START = _("{c} is waiting with {reason}: the runtime could not create or start it (a missing ConfigMap or "
                 "Secret key, a command that does not exist). {repro}")
DELETED_WHY = _("The Pod was deleted at about {t} s (its deletionTimestamp is set, grace period {grace} s); the "
                "scenario has no deletion.{why} {repro}")
DISRUPTION = _(" Its DisruptionTarget condition says why: {reason} (a preemption, an eviction, the node's "
               "shutdown or a taint).")
STATUS_WHY = _("kubectl shows {observed} at {t} s, the prediction {predicted}. {repro}")
READY_UNEXPECTED = _("The prediction has {c} never Ready, the cluster shows it Ready: the model reads a probe "
                     "that cannot pass where the cluster's passes. {repro}")

# whether the scenario can reproduce it, and how
CAN_RUNS = _("The scenario can reproduce it: {c} runs {seconds} s and ends with exit code {code}{oom}, {how}.")
CAN_PROBE = _("The scenario can reproduce it: failingProbes: [{kind}] for {c} (every check fails).")
CAN_FOREVER = _("The scenario can make the prediction match: {c} runs until stopped.")
CAN_RUN_ONCE = _("The scenario can reproduce it: {c} runs {seconds} s and exits {code}.")
CAN_STARTUP = _("The scenario can reproduce it: startupSeconds: {s} for {c} (its probes pass from then on).")
CAN_PULL = _("The scenario can reproduce it: imagePull: fails for {c}.")
CAN_DELETE = _("The scenario can reproduce it: deleteAt: {t} with deleteGracePeriodSeconds: {grace}.")
CANNOT_PULL_TIME = _("The scenario cannot reproduce it: it has no duration for an image pull.")
CANNOT_CONTROL_PLANE = _("The scenario cannot reproduce it: the model starts containers as soon as the kubelet "
                         "gets to them.")
CANNOT_RUNTIME = _("The scenario cannot reproduce it: the model does not simulate the runtime's errors.")
CANNOT_PROBE = _("The scenario cannot reproduce it: the model reads from the manifest that this probe cannot "
                 "pass, and a scenario does not override that.")
CANNOT_STATUS = _("The scenario cannot reproduce it as such; the differences above, where there are any, say why.")
OOM_SUFFIX = _(" (OOMKilled)")
HOW_REPEAT = _("again after every restart")
HOW_THEN_RUNS = _("{n} times, then it keeps running")
LIMIT = _(" ({limit})")
