"""Nightfall core: the pure rules engine and the platform-neutral services around it."""
