"""The benchmark's models move to their apps (accounts, cases, endpoints, runs, operations).

Only Django's state changes: the tables keep their names (``benchmark_case`` ...) and every row
stays where it is. The apps' 0001 migrations add the same models to their state with
``db_table`` set to those tables. Content types are relabelled, so permissions, group grants
(the Curators group) and admin history follow their models.
"""

from django.db import migrations

# Each model's new app; its content type (and so its permissions, group grants and admin log) moves with it.
MOVED = {
    "accounts": ["apitoken"],
    "cases": ["case", "caseevent", "release", "releasecase"],
    "endpoints": ["modelendpoint"],
    "runs": ["evaluationrun", "trajectory", "step", "modelcall", "runtoken", "judgerecord", "humanscore"],
    "operations": ["runrescore"],
}


def content_types_forward(apps, schema_editor):
    _content_types_move(apps, {("benchmark", model): label for label, models in MOVED.items() for model in models})


def content_types_backward(apps, schema_editor):
    _content_types_move(apps, {(label, model): "benchmark" for label, models in MOVED.items() for model in models})


def _content_types_move(apps, moves):
    content_type = apps.get_model("contenttypes", "ContentType")
    for (old_label, model), new_label in moves.items():
        if not content_type.objects.filter(app_label=new_label, model=model).exists():
            content_type.objects.filter(app_label=old_label, model=model).update(app_label=new_label)


class Migration(migrations.Migration):

    dependencies = [
        ('benchmark', '0010_endpoint_names_per_owner'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='apitoken',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='release',
                    name='cases',
                ),
                migrations.RemoveField(
                    model_name='caseevent',
                    name='case',
                ),
                migrations.RemoveField(
                    model_name='humanscore',
                    name='case',
                ),
                migrations.RemoveField(
                    model_name='releasecase',
                    name='case',
                ),
                migrations.RemoveField(
                    model_name='caseevent',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='evaluationrun',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='evaluationrun',
                    name='endpoint',
                ),
                migrations.RemoveField(
                    model_name='evaluationrun',
                    name='release',
                ),
                migrations.RemoveField(
                    model_name='evaluationrun',
                    name='replay_of',
                ),
                migrations.RemoveField(
                    model_name='runrescore',
                    name='run',
                ),
                migrations.RemoveField(
                    model_name='runtoken',
                    name='run',
                ),
                migrations.RemoveField(
                    model_name='trajectory',
                    name='run',
                ),
                migrations.RemoveField(
                    model_name='humanscore',
                    name='annotator',
                ),
                migrations.DeleteModel(
                    name='JudgeRecord',
                ),
                migrations.RemoveField(
                    model_name='modelcall',
                    name='trajectory',
                ),
                migrations.RemoveField(
                    model_name='modelendpoint',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='release',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='releasecase',
                    name='release',
                ),
                migrations.RemoveField(
                    model_name='trajectory',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='runrescore',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='step',
                    name='trajectory',
                ),
                migrations.DeleteModel(
                    name='ApiToken',
                ),
                migrations.DeleteModel(
                    name='Case',
                ),
                migrations.DeleteModel(
                    name='CaseEvent',
                ),
                migrations.DeleteModel(
                    name='RunToken',
                ),
                migrations.DeleteModel(
                    name='EvaluationRun',
                ),
                migrations.DeleteModel(
                    name='HumanScore',
                ),
                migrations.DeleteModel(
                    name='ModelCall',
                ),
                migrations.DeleteModel(
                    name='ModelEndpoint',
                ),
                migrations.DeleteModel(
                    name='Release',
                ),
                migrations.DeleteModel(
                    name='ReleaseCase',
                ),
                migrations.DeleteModel(
                    name='RunRescore',
                ),
                migrations.DeleteModel(
                    name='Step',
                ),
                migrations.DeleteModel(
                    name='Trajectory',
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward, elidable=False),
    ]
