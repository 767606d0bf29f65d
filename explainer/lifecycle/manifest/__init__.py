"""Reading the input: YAML with lines and limits, the manifest read into the Pod model."""
