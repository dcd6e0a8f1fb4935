"""The runs app takes over its models from benchmark (benchmark.0011): state only, the tables exist."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('cases', '0001_initial'),
        ('endpoints', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('benchmark', '0011_models_to_apps'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='JudgeRecord',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=64, unique=True)),
                        ('role', models.CharField(max_length=40)),
                        ('model', models.CharField(max_length=200)),
                        ('prompt_version', models.CharField(max_length=40)),
                        ('verdict', models.JSONField(help_text='Score, explanation, raw outputs and failure, as the judge returned them.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'benchmark_judgerecord',
                    },
                ),
                migrations.CreateModel(
                    name='EvaluationRun',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200)),
                        ('agent', models.CharField(help_text='Agent registry name: litellm, reference, heuristic, ...', max_length=40)),
                        ('config', models.JSONField(default=dict, help_text='temperature, tool_budget, trials, seed, filters')),
                        ('status', models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('completed', 'completed'), ('cancelled', 'cancelled'), ('failed', 'failed')], default='queued', max_length=10)),
                        ('purpose', models.CharField(choices=[('evaluation', 'evaluation'), ('smoke', 'smoke test of a submission')], db_default='evaluation', default='evaluation', help_text='Smoke tests check a submitted endpoint on 3 cases; never on the leaderboard.', max_length=10)),
                        ('verified', models.BooleanField(default=True, help_text='False for self-reported (uploaded) results.')),
                        ('aggregates', models.JSONField(blank=True, default=dict, help_text='Table 2 and table 3 of this run.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('error', models.TextField(blank=True, db_default='', default='', help_text='Why a failed run failed.')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('endpoint', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='endpoints.modelendpoint')),
                        ('release', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='cases.release')),
                        ('replay_of', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='replays', to='runs.evaluationrun')),
                    ],
                    options={
                        'db_table': 'benchmark_evaluationrun',
                    },
                ),
                migrations.CreateModel(
                    name='RunToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token_hash', models.CharField(max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('revoked', models.BooleanField(default=False)),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tokens', to='runs.evaluationrun')),
                    ],
                    options={
                        'db_table': 'benchmark_runtoken',
                    },
                ),
                migrations.CreateModel(
                    name='Trajectory',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('trial', models.PositiveIntegerField(default=0)),
                        ('status', models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('done', 'done'), ('cancelled', 'cancelled')], default='queued', max_length=10)),
                        ('claimed_at', models.DateTimeField(blank=True, help_text='Lease heartbeat of the worker running it.', null=True)),
                        ('claimed_by', models.CharField(blank=True, help_text='The task holding the claim.', max_length=64)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('ended', models.CharField(blank=True, choices=[('submitted', 'submitted'), ('budget_exhausted', 'budget_exhausted'), ('model_error', 'model_error'), ('timeout', 'timeout'), ('invalid_answer', 'invalid_answer'), ('no_submission', 'no_submission')], max_length=20)),
                        ('final_answer', models.JSONField(blank=True, null=True)),
                        ('error', models.TextField(blank=True)),
                        ('input_tokens', models.PositiveIntegerField(default=0)),
                        ('output_tokens', models.PositiveIntegerField(default=0)),
                        ('scores', models.JSONField(blank=True, default=dict, help_text='metric -> {value, explanation, details, source}')),
                        ('passed', models.BooleanField(null=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='trajectories', to='cases.releasecase')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='trajectories', to='runs.evaluationrun')),
                    ],
                    options={
                        'db_table': 'benchmark_trajectory',
                    },
                ),
                migrations.CreateModel(
                    name='Step',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveIntegerField()),
                        ('tool', models.CharField(max_length=40)),
                        ('arguments', models.JSONField(default=dict)),
                        ('observation', models.JSONField(null=True)),
                        ('error_kind', models.CharField(blank=True, max_length=20)),
                        ('latency_ms', models.FloatField(default=0)),
                        ('model_text', models.TextField(blank=True)),
                        ('input_tokens', models.PositiveIntegerField(default=0)),
                        ('output_tokens', models.PositiveIntegerField(default=0)),
                        ('trajectory', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='steps', to='runs.trajectory')),
                    ],
                    options={
                        'db_table': 'benchmark_step',
                        'ordering': ['trajectory', 'index'],
                    },
                ),
                migrations.CreateModel(
                    name='ModelCall',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('sequence', models.PositiveIntegerField()),
                        ('request', models.JSONField()),
                        ('response', models.JSONField(null=True)),
                        ('error', models.TextField(blank=True)),
                        ('attempts', models.PositiveIntegerField(default=1)),
                        ('latency_ms', models.FloatField(default=0)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('trajectory', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='model_calls', to='runs.trajectory')),
                    ],
                    options={
                        'db_table': 'benchmark_modelcall',
                        'ordering': ['trajectory', 'sequence'],
                    },
                ),
                migrations.CreateModel(
                    name='HumanScore',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('metric', models.CharField(choices=[('SC', 'Semantic Constraint'), ('RP', 'Reasoning Purity')], max_length=4)),
                        ('answer', models.JSONField(help_text='The agent answer that was scored.')),
                        ('trajectory', models.JSONField(blank=True, default=dict, help_text='Its trajectory (for RP).')),
                        ('score', models.FloatField(help_text='Between 0 and 1.')),
                        ('note', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('annotator', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('case', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='human_scores', to='cases.case')),
                    ],
                    options={
                        'db_table': 'benchmark_humanscore',
                        'constraints': [models.CheckConstraint(condition=models.Q(('score__gte', 0), ('score__lte', 1)), name='human_score_in_unit_interval')],
                    },
                ),
                migrations.AddIndex(
                    model_name='trajectory',
                    index=models.Index(fields=['run', 'status'], name='benchmark_t_run_id_c7caa2_idx'),
                ),
                migrations.AddConstraint(
                    model_name='trajectory',
                    constraint=models.UniqueConstraint(fields=('run', 'entry', 'trial'), name='one_trajectory_per_case_trial'),
                ),
                migrations.AddConstraint(
                    model_name='step',
                    constraint=models.UniqueConstraint(fields=('trajectory', 'index'), name='step_index_unique'),
                ),
                migrations.AddConstraint(
                    model_name='modelcall',
                    constraint=models.UniqueConstraint(fields=('trajectory', 'sequence'), name='model_call_sequence_unique'),
                ),
            ],
        ),
    ]
