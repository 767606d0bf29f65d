"""The sharing diagram: DOT, and the bounded `dot` and `rsvg-convert` runs that draw it."""
