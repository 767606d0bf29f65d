from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("web", "0002_ratecount"),
    ]

    operations = [
        migrations.AddField(
            model_name="permalink",
            name="observed",
            field=models.TextField(blank=True),
        ),
    ]
