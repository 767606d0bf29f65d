"""A workload's rollout drawn and told: layout, counts chart, SVG, story, comparison."""
