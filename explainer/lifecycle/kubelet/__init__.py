"""The kubelet, simulated: how one Pod starts, is probed, restarts and stops."""
