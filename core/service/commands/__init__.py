"""Updates in: the game service that turns each platform-neutral update into lobby actions and
engine commands, and the rooms it hands them to (lobby, private chats, the host's powers,
confirmations, a group's reach). The top layer below `runtime.py`."""
