"""The REST API under /api/v1/ (DRF), with its OpenAPI schema at /api/schema/."""
