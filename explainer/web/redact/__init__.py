"""Credentials in a pasted manifest: found, and blanked out before a link is stored."""
