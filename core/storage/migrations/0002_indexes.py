from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.AlterField(
            model_name='Button',
            name='game',
            field=fields.ForeignKeyField('models.Game', source_field='game_id', db_index=True, db_constraint=True, to_field='id', related_name='buttons', on_delete=OnDelete.CASCADE),
        ),
        ops.AlterField(
            model_name='Deadline',
            name='due_at',
            field=fields.FloatField(db_index=True),
        ),
        ops.AlterField(
            model_name='Deadline',
            name='game',
            field=fields.ForeignKeyField('models.Game', source_field='game_id', db_index=True, db_constraint=True, to_field='id', related_name='deadlines', on_delete=OnDelete.CASCADE),
        ),
        ops.AlterField(
            model_name='Deadline',
            name='state',
            field=fields.CharField(default='pending', db_index=True, max_length=16),
        ),
        ops.AlterField(
            model_name='Game',
            name='status',
            field=fields.CharField(default='lobby', db_index=True, max_length=16),
        ),
        ops.AlterField(
            model_name='Outbox',
            name='status',
            field=fields.CharField(default='pending', db_index=True, max_length=16),
        ),
        ops.AlterField(
            model_name='Seat',
            name='game',
            field=fields.ForeignKeyField('models.Game', source_field='game_id', db_index=True, db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE),
        ),
        ops.AlterField(
            model_name='Seat',
            name='identity',
            field=fields.ForeignKeyField('models.Identity', source_field='identity_id', db_index=True, db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE),
        ),
    ]
