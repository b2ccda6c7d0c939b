"""Platform adapters: thin translators between chat platforms and the core."""
