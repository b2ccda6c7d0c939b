from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0002_indexes')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Outbox',
            name='worker',
            field=fields.CharField(null=True, max_length=40),
        ),
    ]
