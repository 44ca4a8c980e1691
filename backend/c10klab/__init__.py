"""C10K Lab backend: the course API and the benchmark runner."""
