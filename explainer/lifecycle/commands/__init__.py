"""What a container's commands, scripts and hooks probably do, read from the manifest."""
