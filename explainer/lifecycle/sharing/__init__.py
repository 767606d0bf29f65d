"""What the containers of one Pod share: namespaces, volumes, ports and data."""
