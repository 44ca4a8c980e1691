"""The HTTP layer: one module of routes per domain, and the dependencies they share (deps.py).

Routes read a request, ask who is calling and what they may do, and call the domains'
services; the domains below (runs, sweeps, people, ...) know nothing of HTTP routing and never
import this package, so they depend on each other without cycles (import-linter's contracts in
pyproject.toml)."""
