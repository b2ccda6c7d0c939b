"""The Matrix adapter's parts that talk to the homeserver through nio's `AsyncClient`: the
sync loop, sending, private and team rooms, invites, muting, encryption. Each part gets its
collaborators in its constructor (the client, the room state, the store, the settings, its
sibling parts it needs), never the adapter: adapter.py composes them."""
