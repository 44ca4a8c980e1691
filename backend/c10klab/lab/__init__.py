"""The lab: what a free experiment may set (every run field, labelled, with this host's limits)
and a learner's history of runs and sweeps."""
