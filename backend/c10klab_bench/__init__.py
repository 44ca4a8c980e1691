"""Benchmark scripts (`make bench-*`): they run experiments through the same runner and request
validation the course uses, and write what they measured to results/."""
