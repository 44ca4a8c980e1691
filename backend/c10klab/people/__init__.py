"""People: instructors and students, classes, sessions, and who may see what."""
