"""The "Curators" group: may add, edit, view and curate cases, and view and freeze releases."""
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Curators"
PERMISSIONS = [
    ("case", "add_case"), ("case", "change_case"), ("case", "view_case"), ("case", "curate_case"),
    ("release", "add_release"), ("release", "view_release"),
]


def create_curators(apps, schema_editor):
    # Permissions are normally created after all migrations; create them now so the group can hold them.
    app_config = apps.get_app_config("benchmark")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group, Permission = apps.get_model("auth", "Group"), apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for model, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label="benchmark",
                                                     content_type__model=model, codename=codename))


def remove_curators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("benchmark", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_curators, remove_curators)]
