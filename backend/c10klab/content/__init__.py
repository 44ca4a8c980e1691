"""The content domain: lessons read from content/lessons/NN-slug.md."""
