"""The outbox to the platforms: due rows rendered in the reader's language and handed to their
adapters, within each platform's rate limits, riding out outages. Above `telling`."""
