from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0004_game_build')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Identity',
            name='handle',
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name='Identity',
            name='anonymous',
            field=fields.BooleanField(default=False),
        ),
    ]
