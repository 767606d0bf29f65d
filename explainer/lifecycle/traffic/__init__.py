"""When a Pod receives requests from its Services, and when those requests fail."""
