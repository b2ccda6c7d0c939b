"""The Telegram adapter: python-telegram-bot 22, thin over the game service."""
