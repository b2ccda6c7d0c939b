"""The bottom layer: the contract with the adapters and front ends (what they exchange with
the service, what they may keep, how time is read, how bad input is answered). Imports nothing
of the service above it; `core/service/__init__.py` re-exports the adapters' part."""
