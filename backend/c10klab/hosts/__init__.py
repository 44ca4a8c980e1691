"""Runner hosts: who runs the benchmarks, and what each last said about itself."""
