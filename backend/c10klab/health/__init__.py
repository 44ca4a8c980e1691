"""The health domain: is the course ready to run benchmarks, and if not, why."""
