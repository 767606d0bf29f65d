"""The command line (`podlife`), straight into the core: no Django."""
