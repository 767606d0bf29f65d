"""The OpenAPI 3.1 description of the JSON API."""
