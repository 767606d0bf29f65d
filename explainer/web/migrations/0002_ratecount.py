from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("web", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="RateCount",
            fields=[
                ("key", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("count", models.PositiveIntegerField(default=0)),
                ("expires", models.FloatField(db_index=True)),
            ],
        ),
    ]
