"""The classroom: who is online and where, what each class is shown, its board and queue."""
