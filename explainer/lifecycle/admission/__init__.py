"""What the API server accepts: admission checks, feature gates and versions."""
