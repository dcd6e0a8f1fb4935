"""The operations app takes over its models from benchmark (benchmark.0011): state only, the tables exist."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('runs', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('benchmark', '0011_models_to_apps'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='RunRescore',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('reason', models.TextField(help_text='Why the run was re-scored (a metric fix, a new judge ...).')),
                        ('metrics', models.JSONField(blank=True, default=list, help_text='The metrics replaced; empty means all.')),
                        ('versions', models.JSONField(default=dict, help_text='Code commit, scoring code hash, judges and prompt versions.')),
                        ('n_trajectories', models.PositiveIntegerField(default=0, help_text='Trajectories re-scored.')),
                        ('n_pass_changed', models.PositiveIntegerField(default=0, help_text='Trajectories whose pass verdict changed.')),
                        ('n_metric_changed', models.PositiveIntegerField(default=0, help_text='Trajectories where any metric changed.')),
                        ('changes', models.JSONField(blank=True, default=list, help_text='Per changed trajectory: {trajectory, case_id, trial, passed, metrics}.')),
                        ('aggregates_before', models.JSONField(blank=True, default=dict)),
                        ('aggregates_after', models.JSONField(blank=True, default=dict)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rescores', to='runs.evaluationrun')),
                    ],
                    options={
                        'db_table': 'benchmark_runrescore',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
            ],
        ),
    ]
