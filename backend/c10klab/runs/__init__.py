"""The runs domain: queueing benchmark runs and streaming their events."""
