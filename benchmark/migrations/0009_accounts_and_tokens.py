"""Accounts and tokens: hashed REST API tokens, soft-deleted endpoints, a failed run's reason.

Expand only (docs/operations.md, migration policy): a new table and two columns the previous code
does not name (``deleted_at`` is nullable, ``error`` has a database default). The DRF tokens of
``rest_framework.authtoken`` (stored in clear) are copied as SHA-256 hashes and then deleted; each
keeps working, since a presented token is looked up by its hash.
"""
import hashlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

DRF_TOKENS = "authtoken_token"  # rest_framework.authtoken's table, present where that app was ever migrated


def hash_drf_tokens(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if DRF_TOKENS not in connection.introspection.table_names(cursor):
            return
        cursor.execute(f"SELECT key, user_id, created FROM {DRF_TOKENS}")
        rows = cursor.fetchall()
    api_token = apps.get_model("benchmark", "ApiToken")
    api_token.objects.bulk_create([api_token(user_id=user_id, key_hash=hashlib.sha256(key.encode()).hexdigest(),
                                             created_at=created) for key, user_id, created in rows],
                                  ignore_conflicts=True)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {DRF_TOKENS}")  # no token stays in clear


class Migration(migrations.Migration):

    dependencies = [
        ("benchmark", "0008_run_rescores"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key_hash", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="api_token",
                                              to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.AddField(
            model_name="evaluationrun",
            name="error",
            field=models.TextField(blank=True, db_default="", default="", help_text="Why a failed run failed."),
        ),
        migrations.AddField(
            model_name="modelendpoint",
            name="deleted_at",
            field=models.DateTimeField(blank=True, help_text="Set when its owner deleted it.", null=True),
        ),
        migrations.RunPython(hash_drf_tokens, migrations.RunPython.noop),
    ]
