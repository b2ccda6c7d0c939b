"""A deadline may name a seat: when a player who left the game's chat leaves the game unless
he is back (kind `leave`); coming back voids it."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0010_deadline_kind')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Deadline',
            name='seat',
            field=fields.ForeignKeyField('models.Seat', source_field='seat_id', null=True, db_constraint=True, to_field='id', related_name='deadlines', on_delete=OnDelete.CASCADE),
        ),
    ]
