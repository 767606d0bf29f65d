"""Kubernetes defaults and kubelet constants, each named once, with where it comes from."""
from __future__ import annotations

# https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination
TERMINATION_GRACE_PERIOD_SECONDS = 30
# kuberuntime_container.go `minimumGracePeriodInSeconds`: the stop call always gets >= 2 s.
MINIMUM_GRACE_PERIOD_SECONDS = 2
# pkg/apis/core/v1/defaults.go `SetDefaults_Probe`
PROBE_PERIOD_SECONDS = 10
PROBE_TIMEOUT_SECONDS = 1
PROBE_SUCCESS_THRESHOLD = 1
PROBE_FAILURE_THRESHOLD = 3
PROBE_INITIAL_DELAY_SECONDS = 0
# pkg/kubelet/kubelet.go `newCrashLoopBackOff`: 10 s doubling to a 300 s cap.
# https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts
CRASH_LOOP_INITIAL_SECONDS = 10
CRASH_LOOP_MAX_SECONDS = 300
# A container that ran this long without trouble has its back-off forgotten (kubelet.go).
CRASH_LOOP_RESET_SECONDS = 600
# kubelet.go `newCrashLoopBackOff`: with the ReduceDefaultCrashLoopBackOffDecay gate, 1 s doubling to 60 s;
# the node's crashLoopBackOff.maxContainerRestartPeriod (KubeletCrashLoopBackOffMax) may be 1-300 s.
# https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts
REDUCED_CRASH_LOOP_INITIAL_SECONDS = 1
REDUCED_CRASH_LOOP_MAX_SECONDS = 60
NODE_MAX_RESTART_PERIOD_RANGE = (1, 300)
# pkg/apis/core/validation/validation.go: at most 20 restartPolicyRules, 255 exit codes in one rule.
# https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restart-rules
MAX_RESTART_RULES = 20
MAX_RESTART_RULE_VALUES = 255
# batch/v1 Job spec.backoffLimit default (pkg/apis/batch/v1/defaults.go `SetDefaults_Job`).
# https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-backoff-failure-policy
JOB_BACKOFF_LIMIT = 6
# kubelet.go `imageBackOffPeriod`, `MaxImageBackOff`
IMAGE_BACKOFF_INITIAL_SECONDS = 10
IMAGE_BACKOFF_MAX_SECONDS = 300
# Exit codes the runtime reports: 128 + SIGTERM (15) and 128 + SIGKILL (9).
EXIT_SIGTERM = 143
EXIT_SIGKILL = 137
# runc: "exec failed: ... no such file or directory" for an exec hook whose program the image lacks
EXIT_EXEC_NOT_FOUND = 126
# What the model assumes when neither the manifest nor the scenario says.
ASSUMED_FINITE_RUN_SECONDS = 1.0
# A JVM whose -Xmx reaches its memory limit: when the heap has filled under load (docs/lifecycle-model.md §24.1)
ASSUMED_OOM_SECONDS = 60.0
# How long an endpoint change takes to reach whatever sends the Pod requests (docs/lifecycle-model.md §27.4):
# kube-proxy alone needs about a second (iptables minSyncPeriod 1 s, plus the watch), ingress controllers a
# little more, cloud load balancers often far more. An assumption, changed by trafficPropagationSeconds.
TRAFFIC_PROPAGATION_SECONDS = 5.0
DEFAULT_HORIZON_SECONDS = 300.0
MAX_HORIZON_SECONDS = 86_400.0
MAX_EVENTS = 200_000
# Our own bound too (issue 27): a sync walks every container (computePodActions), so containers that
# crash-loop out of step (no common period for fastforward.py to jump) cost containers x restarts; at
# the node's 1 s back-off cap, 500 such containers took minutes.  The simulation stops, and says so,
# once its syncs have looked at this many containers (~2 s of CPU; a day of 500 containers in step
# costs ~20,000, of 40 out of step at the 300 s cap ~1.4 million).
MAX_SYNC_WORK = 3_000_000
MAX_CONTAINERS_PER_POD = 500

# Rollouts (docs/lifecycle-model.md §26). The ReplicaSet, StatefulSet and DaemonSet controllers look again
# minReadySeconds + 1 s after a Pod turns Ready ("Add a second to avoid milliseconds skew in AddAfter":
# replica_set.go, stateful_set.go, daemon_controller.go `updatePod`); a Deployment without progress is looked
# at again 1 s after its deadline (progress.go `requeueStuckDeployment`).
AVAILABILITY_RECHECK_SECONDS = 1.0
PROGRESS_RECHECK_SECONDS = 1.0
# What a rollout assumes when the scenario does not say: controllers react at once, a DaemonSet runs on 3 nodes
# (how many nodes is not in the manifest: scenario rollout.nodes; the traffic lane counts the others too).
ROLLOUT_SYNC_DELAY_SECONDS = 0.0
ROLLOUT_ASSUMED_NODES = 3
# The most controller reactions one rollout simulates (a bound, like MAX_EVENTS for the kubelet).
ROLLOUT_MAX_SYNCS = 100_000

POD_RESTART_POLICIES = ("Always", "OnFailure", "Never")
PROTOCOLS = ("TCP", "UDP", "SCTP")

# Kubernetes versions the model knows (docs/lifecycle-model.md §3); the newest is the default.  1.25 and 1.26
# (docs/lifecycle-model.md §33) are the oldest whose schemas kubernetes-validate 1.37.0 ships.
SUPPORTED_VERSIONS = ("1.25", "1.26", "1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
DEFAULT_VERSION = SUPPORTED_VERSIONS[-1]
# Before 1.27 the pod worker's grace-period override replaced the grace period after preStop (so the stop call got
# the whole override again), and a deleted Pod left the API in the phase it had (k/k #115835, #115331).
TERMINAL_PHASE_ON_DELETE = (1, 27)

DOCS = {
    "pod-lifecycle": "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/",
    "init-containers": "https://kubernetes.io/docs/concepts/workloads/pods/init-containers/",
    "sidecar-containers": "https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/",
    "ephemeral-containers": "https://kubernetes.io/docs/concepts/workloads/pods/ephemeral-containers/",
    "hooks": "https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/",
    "probes": "https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/",
    "share-process-namespace": "https://kubernetes.io/docs/tasks/configure-pod-container/share-process-namespace/",
    "volumes": "https://kubernetes.io/docs/concepts/storage/volumes/",
    "resources": "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    "security-context": "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/",
    "jobs": "https://kubernetes.io/docs/concepts/workloads/controllers/job/",
    "feature-gates": "https://kubernetes.io/docs/reference/command-line-tools-reference/feature-gates/",
    "debug-running-pod": "https://kubernetes.io/docs/tasks/debug/debug-application/debug-running-pod/",
    "secrets": "https://kubernetes.io/docs/concepts/configuration/secret/",
    "container-restarts": "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts",
    "stop-signals": "https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#stop-signals",
}
