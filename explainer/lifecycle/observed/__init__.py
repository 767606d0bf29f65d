"""What the cluster shows: kubectl's output read, aligned with the prediction, and every difference explained.

docs/lifecycle-model.md §34 (reading), §35 (kubectl's columns, alignment) and §36 (divergences).
"""
