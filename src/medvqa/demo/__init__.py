"""The end-to-end demo on shipped real data."""
