"""Real tables for what the `key_value` grab-bag held, and `Game` renamed `GameRecord`.

The storage row shared its name with the engine's `Game`; its table keeps the name `game`,
so the rename changes no SQL. Every `key_value` row of a known kind moves to its table (a
running game keeps its ballot, its offered keyboards, its team rooms; a bot keeps its
message ids and its Matrix state), see `core.storage.legacy`; then `key_value` goes.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

from core.storage.legacy import RenameModelKeepTable, move_key_values

class Migration(migrations.Migration):
    dependencies = [('models', '0005_identity_handle')]

    initial = False

    operations = [
        RenameModelKeepTable('Game', 'GameRecord', table='game'),
        ops.CreateModel(
            name='AdapterState',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('platform', fields.CharField(max_length=32)),
                ('namespace', fields.CharField(max_length=32)),
                ('key', fields.CharField(max_length=255)),
                ('value', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'adapter_state', 'app': 'models', 'unique_together': (('platform', 'namespace', 'key'),), 'pk_attr': 'id', 'table_description': 'A small JSON value an adapter keeps across restarts (a sync token, a private room'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DeliveryLease',
            fields=[
                ('name', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('worker', fields.CharField(default='', max_length=40)),
                ('until', fields.FloatField(default=0.0)),
            ],
            options={'table': 'delivery_lease', 'app': 'models', 'pk_attr': 'name', 'table_description': 'Which of several workers on one database delivers the outbox, and until when (it'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Ballot',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRecord', source_field='game_id', db_constraint=True, to_field='id', related_name='ballots', on_delete=OnDelete.CASCADE)),
                ('window', fields.IntField()),
                ('buttons', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'ballot', 'app': 'models', 'unique_together': (('game', 'window'),), 'pk_attr': 'id', 'table_description': "The buttons of a window's group vote: the live tally and the closing count edit the"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='KnownTeamRoom',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRecord', source_field='game_id', db_constraint=True, to_field='id', related_name='team_rooms', on_delete=OnDelete.CASCADE)),
                ('key', fields.CharField(max_length=64)),
                ('title', fields.CharField(max_length=255)),
            ],
            options={'table': 'team_room', 'app': 'models', 'unique_together': (('game', 'key'),), 'pk_attr': 'id', 'table_description': 'A team chat of a game that got a room, with its title: each says goodbye when the'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='MessageRef',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('platform', fields.CharField(max_length=32)),
                ('chat_ref', fields.CharField(max_length=255)),
                ('key', fields.CharField(max_length=128)),
                ('ids', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('detail', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'message_ref', 'app': 'models', 'unique_together': (('platform', 'chat_ref', 'key'),), 'pk_attr': 'id', 'table_description': 'Which platform messages show one of our messages that is edited in place (a chat'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Prompt',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRecord', source_field='game_id', db_constraint=True, to_field='id', related_name='prompts', on_delete=OnDelete.CASCADE)),
                ('window', fields.IntField()),
                ('identity', fields.ForeignKeyField('models.Identity', source_field='identity_id', db_constraint=True, to_field='id', related_name='prompts', on_delete=OnDelete.CASCADE)),
                ('message_key', fields.CharField(max_length=128)),
                ('payload', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'prompt', 'app': 'models', 'indexes': [Index(fields=['game_id', 'window'])], 'pk_attr': 'id', 'table_description': 'A private keyboard offered to a player in a window: edited to show the choice made,'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SignupButtons',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.OneToOneField('models.GameRecord', source_field='game_id', db_constraint=True, to_field='id', related_name='signup_buttons', on_delete=OnDelete.CASCADE)),
                ('buttons', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'signup_buttons', 'app': 'models', 'pk_attr': 'id', 'table_description': "The join and leave buttons under a game's sign-up message (made once, kept while"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Told',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('kind', fields.CharField(max_length=32)),
                ('chat', fields.ForeignKeyField('models.Chat', source_field='chat_id', null=True, db_constraint=True, to_field='id', related_name='told', on_delete=OnDelete.CASCADE)),
                ('game', fields.ForeignKeyField('models.GameRecord', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='told', on_delete=OnDelete.CASCADE)),
                ('identity', fields.ForeignKeyField('models.Identity', source_field='identity_id', db_constraint=True, to_field='id', related_name='told', on_delete=OnDelete.CASCADE)),
            ],
            options={'table': 'told', 'app': 'models', 'indexes': [Index(fields=['identity_id', 'kind'])], 'pk_attr': 'id', 'table_description': 'A group was told something about a person once, not to be told again: `unreachable`'},
            bases=['Model'],
        ),
        ops.AlterModelOptions(
            name='GameRecord',
            options={'table': 'game', 'app': 'models', 'pk_attr': 'id', 'table_description': "One game from sign-up to its end (the engine's `Game` is its live state)."},
        ),
        ops.AlterModelOptions(
            name='Deadline',
            options={'table': 'deadline', 'app': 'models', 'pk_attr': 'id', 'table_description': "When the game's current window closes, or (state `remind`) when those it still waits"},
        ),
        ops.RunPython(move_key_values),
        ops.DeleteModel(name='KeyValue'),
    ]
