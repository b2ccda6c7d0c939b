"""Which message cast each player's current vote: an edit of it withdraws the vote (the
forum rule: a vote in an edited message does not count)."""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('models', '0008_command_path')]

    initial = False

    operations = [
        ops.CreateModel(
            name='VoteMessage',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.GameRecord', source_field='game_id', db_constraint=True, to_field='id', related_name='vote_messages', on_delete=OnDelete.CASCADE)),
                ('pid', fields.CharField(max_length=16)),
                ('window', fields.IntField()),
                ('message', fields.CharField(max_length=255)),
                ('seq', fields.IntField()),
            ],
            options={'table': 'vote_message', 'app': 'models', 'unique_together': (('game', 'pid'),), 'pk_attr': 'id', 'table_description': "The message that cast a player's current vote (a Telegram message, a Matrix event):"},
            bases=['Model'],
        ),
    ]
