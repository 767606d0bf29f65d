"""Validation of manifest objects against the OpenAPI schema of a Kubernetes version."""
from .validate import (SUPPORTED_SCHEMA_VERSIONS, check_document, has_schema, normalise_version,
                       serving_api_version, validate_document)

__all__ = ["SUPPORTED_SCHEMA_VERSIONS", "check_document", "has_schema", "normalise_version",
           "serving_api_version", "validate_document"]
