"""OpenEnv-compatible server for the layout env: ``create_app`` builds the FastAPI app."""
