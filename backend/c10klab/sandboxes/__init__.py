"""The sandboxes domain: the server catalog and read-only access to the servers' sources."""
