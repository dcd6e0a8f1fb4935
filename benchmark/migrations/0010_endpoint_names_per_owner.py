"""Endpoint names unique per owner (among endpoints not deleted), no longer across every user.

The new unique index is built CONCURRENTLY, so submissions are not blocked while it is built
(PostgreSQL has no NOT VALID unique constraint, and AddConstraint would take a lock that blocks
writes); hence a non-atomic migration. Then the old site-wide unique constraint on the name is dropped.
No row can clash: names were unique site-wide until now.
"""
from django.conf import settings
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class AddUniqueConstraintConcurrently(AddIndexConcurrently):
    """AddConstraint of a conditional UniqueConstraint whose unique index is created CONCURRENTLY.

    Like AddIndexConcurrently (which it extends for its transaction check), it needs ``atomic = False``.
    """

    def __init__(self, model_name: str, constraint: models.UniqueConstraint):
        self.model_name, self.constraint = model_name, constraint

    @property
    def index(self):  # what AddIndex's describe() and migration_name_fragment name
        return self.constraint

    def deconstruct(self):
        return self.__class__.__name__, [], {"model_name": self.model_name, "constraint": self.constraint}

    def state_forwards(self, app_label, state):
        state.add_constraint(app_label, self.model_name_lower, self.constraint)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._ensure_not_in_transaction(schema_editor)
        model = to_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            statement = self.constraint.create_sql(model, schema_editor)
            statement.template = statement.template.replace("CREATE UNIQUE INDEX", "CREATE UNIQUE INDEX CONCURRENTLY",
                                                            1)
            schema_editor.execute(statement, params=None)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._ensure_not_in_transaction(schema_editor)
        model = from_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            schema_editor.execute(schema_editor.sql_delete_index_concurrently
                                  % {"name": schema_editor.quote_name(self.constraint.name)})


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("benchmark", "0009_accounts_and_tokens"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        AddUniqueConstraintConcurrently(
            model_name="modelendpoint",
            constraint=models.UniqueConstraint(condition=models.Q(("deleted_at__isnull", True)),
                                               fields=("owner", "name"), name="endpoint_name_unique_per_owner",
                                               nulls_distinct=False),
        ),
        migrations.AlterField(
            model_name="modelendpoint",
            name="name",
            field=models.CharField(max_length=100),
        ),
    ]
