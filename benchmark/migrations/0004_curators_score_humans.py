"""Curators may enter human reference scores (judge calibration, appendix B.2)."""
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Curators"
PERMISSIONS = ["add_humanscore", "change_humanscore", "view_humanscore", "delete_humanscore"]


def grant(apps, schema_editor):
    app_config = apps.get_app_config("benchmark")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group, Permission = apps.get_model("auth", "Group"), apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label="benchmark", codename=codename))


def revoke(apps, schema_editor):
    Group, Permission = apps.get_model("auth", "Group"), apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group:
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="benchmark",
                                                            codename__in=PERMISSIONS))


class Migration(migrations.Migration):
    dependencies = [("benchmark", "0003_judging_records")]
    operations = [migrations.RunPython(grant, revoke)]
