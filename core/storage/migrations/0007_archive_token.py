"""Each finished game's archive page gets an address nobody can guess: a random token on the
game's row. The games that ended before it get theirs here (their old /games/ID addresses
stop serving pages; `nightfall games` lists the new links)."""

import secrets
from typing import Any

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


async def give_finished_games_tokens(apps: Any, schema_editor: Any) -> None:
    game = apps.get_model("models.GameRecord")
    for row in await game.filter(status="ended", archive_token=None):
        row.archive_token = secrets.token_urlsafe(16)  # as core.story.archive gives them
        await row.save(update_fields=["archive_token"])


class Migration(migrations.Migration):
    dependencies = [('models', '0006_tables')]

    initial = False

    operations = [
        ops.AddField(
            model_name='GameRecord',
            name='archive_token',
            field=fields.CharField(null=True, db_index=True, max_length=32),
        ),
        ops.RunPython(give_finished_games_tokens),
    ]
