from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Chat',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('platform', fields.CharField(max_length=32)),
                ('ref', fields.CharField(max_length=255)),
                ('locale', fields.CharField(default='en', max_length=8)),
                ('settings', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'chat', 'app': 'models', 'unique_together': (('platform', 'ref'),), 'pk_attr': 'id', 'table_description': 'A group chat on a platform, with its settings.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Identity',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('platform', fields.CharField(max_length=32)),
                ('ref', fields.CharField(max_length=255)),
                ('name', fields.CharField(max_length=255)),
                ('locale', fields.CharField(null=True, max_length=8)),
                ('locale_hint', fields.CharField(null=True, max_length=8)),
            ],
            options={'table': 'identity', 'app': 'models', 'unique_together': (('platform', 'ref'),), 'pk_attr': 'id', 'table_description': "A person's account on a platform."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Game',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat', fields.ForeignKeyField('models.Chat', source_field='chat_id', db_constraint=True, to_field='id', related_name='games', on_delete=OnDelete.CASCADE)),
                ('ruleset', fields.CharField(max_length=64)),
                ('status', fields.CharField(default='lobby', max_length=16)),
                ('host', fields.ForeignKeyField('models.Identity', source_field='host_id', db_constraint=True, to_field='id', related_name='hosted', on_delete=OnDelete.CASCADE)),
                ('settings', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('setup', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('snapshot', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('version', fields.IntField(default=0)),
                ('window', fields.IntField(default=0)),
                ('paused_left', fields.FloatField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'game', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One game from sign-up to its end.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Button',
            fields=[
                ('token', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='buttons', on_delete=OnDelete.CASCADE)),
                ('window', fields.IntField()),
                ('pid', fields.CharField(null=True, max_length=16)),
                ('label', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('command', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'button', 'app': 'models', 'pk_attr': 'token', 'table_description': 'An opaque token behind an inline button, resolved against stored state when pressed.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Deadline',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='deadlines', on_delete=OnDelete.CASCADE)),
                ('window', fields.IntField()),
                ('due_at', fields.FloatField()),
                ('state', fields.CharField(default='pending', max_length=16)),
            ],
            options={'table': 'deadline', 'app': 'models', 'pk_attr': 'id', 'table_description': "When the game's current window closes."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='KeyValue',
            fields=[
                ('key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('value', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'key_value', 'app': 'models', 'pk_attr': 'key', 'table_description': "Small persistent settings of the service itself (the console's manual clock)."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LogEntry',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='log', on_delete=OnDelete.CASCADE)),
                ('seq', fields.IntField()),
                ('command', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('events', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'log_entry', 'app': 'models', 'unique_together': (('game', 'seq'),), 'pk_attr': 'id', 'table_description': 'One accepted command and the events it caused, in order.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Outbox',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='outbox', on_delete=OnDelete.CASCADE)),
                ('platform', fields.CharField(max_length=32)),
                ('chat_ref', fields.CharField(max_length=255)),
                ('private', fields.BooleanField(default=False)),
                ('identity', fields.ForeignKeyField('models.Identity', source_field='identity_id', null=True, db_constraint=True, to_field='id', related_name='inbox', on_delete=OnDelete.CASCADE)),
                ('payload', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('status', fields.CharField(default='pending', max_length=16)),
                ('attempts', fields.IntField(default=0)),
                ('next_try_at', fields.FloatField(default=0.0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'outbox', 'app': 'models', 'pk_attr': 'id', 'table_description': "A message waiting for delivery, rendered in its reader's language when delivered."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ProcessedUpdate',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('platform', fields.CharField(max_length=32)),
                ('update_id', fields.CharField(max_length=128)),
            ],
            options={'table': 'processed_update', 'app': 'models', 'unique_together': (('platform', 'update_id'),), 'pk_attr': 'id', 'table_description': 'Incoming platform updates already applied (a duplicate is applied once).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Seat',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE)),
                ('identity', fields.ForeignKeyField('models.Identity', source_field='identity_id', db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE)),
                ('pid', fields.CharField(max_length=16)),
                ('position', fields.IntField()),
                ('active', fields.BooleanField(default=True)),
            ],
            options={'table': 'seat', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A player of a game: identity, seat and engine player id.'},
            bases=['Model'],
        ),
    ]
