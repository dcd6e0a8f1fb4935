"""The cases app takes over its models from benchmark (benchmark.0011): state only, the tables exist."""

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
                    name='Case',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('case_id', models.CharField(max_length=80, unique=True)),
                        ('type', models.CharField(help_text='e.g. routing_L1, trip_L2', max_length=20)),
                        ('category', models.CharField(choices=[('place_perception', 'Place Perception'), ('nearby_discovery', 'Nearby Discovery'), ('routing', 'Routing'), ('trip_design', 'Trip Design')], max_length=20)),
                        ('level', models.CharField(choices=[('L0', 'L0'), ('L1', 'L1'), ('L2', 'L2')], max_length=2)),
                        ('question', models.TextField()),
                        ('answer', models.JSONField(help_text='The answer document (paper tables 5 and 6).')),
                        ('reference_path', models.JSONField(default=list, help_text='Agent-toolset calls that solve the case: [{tool, arguments, observation_sha256}].')),
                        ('engine_path', models.JSONField(default=list, help_text='Data-engine-toolset calls the engine made.')),
                        ('required_evidence', models.JSONField(default=dict, help_text='{attributes: [{place_id, key}], note_ids: [...]} an agent must have seen.')),
                        ('constraints', models.JSONField(default=dict, help_text='Machine-checkable constraints.')),
                        ('uniqueness', models.JSONField(default=dict, help_text='The engine-toolset check that proves the answer unique.')),
                        ('status', models.CharField(choices=[('draft', 'draft'), ('validated', 'validated'), ('rejected', 'rejected')], default='draft', max_length=10)),
                        ('rejection_reason', models.TextField(blank=True)),
                        ('provenance', models.JSONField(default=dict, help_text='generator, version, seed, recipe, city name and version.')),
                        ('verification', models.JSONField(default=dict, help_text='The last verification: ok, failures, when.')),
                        ('city_name', models.CharField(max_length=50)),
                        ('city_version', models.CharField(max_length=64)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'db_table': 'benchmark_case',
                        'ordering': ['case_id'],
                        'permissions': [('curate_case', 'Can validate, reject and re-verify cases')],
                        'indexes': [models.Index(fields=['category', 'level', 'status'], name='benchmark_c_categor_0c99ee_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='CaseEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(max_length=20)),
                        ('changes', models.JSONField(default=dict, help_text='field -> [old, new]')),
                        ('reason', models.TextField(blank=True)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('case', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='cases.case')),
                    ],
                    options={
                        'db_table': 'benchmark_caseevent',
                        'ordering': ['at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='Release',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.SlugField(unique=True)),
                        ('split', models.CharField(choices=[('public', 'public'), ('hidden', 'hidden (answers only for curators)')], default='public', max_length=10)),
                        ('content_hash', models.CharField(max_length=64)),
                        ('city_name', models.CharField(max_length=50)),
                        ('city_version', models.CharField(max_length=64)),
                        ('description', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'benchmark_release',
                    },
                ),
                migrations.CreateModel(
                    name='ReleaseCase',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveIntegerField()),
                        ('snapshot', models.JSONField(help_text='The case document at freezing time.')),
                        ('case', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='release_entries', to='cases.case')),
                        ('release', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='cases.release')),
                    ],
                    options={
                        'db_table': 'benchmark_releasecase',
                        'ordering': ['release', 'position'],
                    },
                ),
                migrations.AddField(
                    model_name='release',
                    name='cases',
                    field=models.ManyToManyField(related_name='releases', through='cases.ReleaseCase', to='cases.case'),
                ),
                migrations.AddConstraint(
                    model_name='releasecase',
                    constraint=models.UniqueConstraint(fields=('release', 'case'), name='case_once_per_release'),
                ),
            ],
        ),
    ]
