"""Submitting a model: the form and its connection test; a user's API token and own endpoints."""
