"""Reading whatever kubectl printed: objects, describe, events and tables."""
