"""The runner: the only part of C10K Lab that talks to Docker (docker_engine.py imports it).

It takes queued runs from the store one at a time, runs the server and the load generator in
locked-down containers, and writes what happens as events.
"""
