"""The endpoints app takes over its models from benchmark (benchmark.0011): state only, the tables exist."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('benchmark', '0011_models_to_apps'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='ModelEndpoint',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100)),
                        ('model', models.CharField(help_text='litellm model string, e.g. openai/gpt-4o-mini', max_length=200)),
                        ('api_base', models.URLField(blank=True, max_length=500)),
                        ('api_key_encrypted', models.TextField(blank=True, editable=False)),
                        ('params', models.JSONField(blank=True, default=dict, help_text='Extra litellm parameters.')),
                        ('concurrency', models.PositiveIntegerField(default=4, help_text='Requests in flight at once, across workers.')),
                        ('requests_per_minute', models.PositiveIntegerField(blank=True, help_text='Across all workers.', null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('deleted_at', models.DateTimeField(blank=True, help_text='Set when its owner deleted it.', null=True)),
                        ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'benchmark_modelendpoint',
                        'constraints': [models.UniqueConstraint(condition=models.Q(('deleted_at__isnull', True)), fields=('owner', 'name'), name='endpoint_name_unique_per_owner', nulls_distinct=False)],
                    },
                ),
            ],
        ),
    ]
