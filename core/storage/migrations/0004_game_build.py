from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0003_outbox_worker')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Game',
            name='build',
            field=fields.CharField(null=True, max_length=32),
        ),
    ]
