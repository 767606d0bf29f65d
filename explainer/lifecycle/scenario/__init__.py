"""The what-if scenario: how each container really behaves, and what happens to the Pod."""
