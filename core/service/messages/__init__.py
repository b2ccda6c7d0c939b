"""What will be said: typed outbox payloads and the outbox they are written to, the service's
own texts (and their voiced variants), the buttons a message offers. Above `rows`."""
