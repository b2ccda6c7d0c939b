"""A deadline's kind apart from its state.

One `state` column used to say both what a deadline was and where it stood: `pending`,
`fired` or `void` for a window's close, `remind` or `reminded` for the reminder before it,
`giveup` for cancelling a game whose group stayed unreachable. Now `kind` says which
(close, remind, giveup) and `state` only where it stands (pending, fired, void). A void
deadline, or a give-up that fired, said no more than that: it is kept as a void or fired
close (nothing reads what a past deadline was)."""

from typing import Any

from tortoise import fields, migrations
from tortoise.migrations import operations as ops

# the old fused state -> (kind, state)
SPLIT = {"remind": ("remind", "pending"), "reminded": ("remind", "fired"),
         "giveup": ("giveup", "pending")}


async def split_kind(apps: Any, schema_editor: Any) -> None:
    deadline = apps.get_model("models.Deadline")
    for old, (kind, state) in SPLIT.items():
        await deadline.filter(state=old).update(kind=kind, state=state)


async def fuse_kind(apps: Any, schema_editor: Any) -> None:
    deadline = apps.get_model("models.Deadline")
    for old, (kind, state) in SPLIT.items():
        await deadline.filter(kind=kind, state=state).update(state=old)


class Migration(migrations.Migration):
    dependencies = [('models', '0009_vote_message')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Deadline',
            name='kind',
            field=fields.CharField(default='close', db_default='close', max_length=16),
        ),
        ops.RunPython(split_kind, fuse_kind),
        ops.AlterModelOptions(
            name='Deadline',
            options={'table': 'deadline', 'app': 'models', 'pk_attr': 'id', 'table_description': "When the game's current window closes, when those it still waits for are reminded,"},
        ),
    ]
