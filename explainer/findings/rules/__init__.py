"""One module per rule; the registry (../registry.py) lists them."""
