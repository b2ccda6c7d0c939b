"""What a game place (a chat, or one forum topic of it) remembers for its next games: the
host's settings, one typed JSON record per place (core/storage/places.py)."""

import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('models', '0011_deadline_seat')]

    initial = False

    operations = [
        ops.CreateModel(
            name='PlaceSettingsRow',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat', fields.OneToOneField('models.Chat', source_field='chat_id', db_constraint=True, to_field='id', related_name='place_settings', on_delete=OnDelete.CASCADE)),
                ('settings', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'place_settings', 'app': 'models', 'pk_attr': 'id', 'table_description': "A game place's remembered settings (a chat, or a forum topic), as typed JSON"},
            bases=['Model'],
        ),
    ]
