"""A rollout of a Deployment, StatefulSet or DaemonSet: old Pods replaced by new ones as the controller
does it, each Pod with its own lifecycle from the kubelet model (issue 22; docs/lifecycle-model.md §26)."""
