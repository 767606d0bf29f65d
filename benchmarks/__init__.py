"""`make bench` and `make loadtest`: measurements beside the shipped package (`python -m benchmarks.bench`)."""
