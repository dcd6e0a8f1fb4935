"""Every note and comment that touches a fact carries hidden evidence labels (expand only: a new table, and the
note kinds' help text)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('environment', '0002_bounded_tool_indexes'),
    ]

    operations = [
        migrations.AlterField(
            model_name='note',
            name='kind',
            field=models.CharField(help_text='Hidden noise label: about, multi, chatter, duplicate, outdated, promo, spam.', max_length=20),
        ),
        migrations.CreateModel(
            name='EvidenceLabel',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('static', 'static tag'), ('long_term', 'long-term impression'), ('short_term', 'short-term state')], max_length=12)),
                ('key', models.CharField(max_length=80)),
                ('label', models.CharField(max_length=200)),
                ('stance', models.CharField(choices=[('supports', 'supports'), ('negates', 'negates'), ('ended', 'ended'), ('credits', 'credits'), ('asks', 'asks'), ('hearsay', 'hearsay'), ('promo', 'promo'), ('spam', 'spam')], max_length=10)),
                ('valid_from', models.DateField(null=True)),
                ('valid_until', models.DateField(null=True)),
                ('text', models.TextField(help_text='The sentence that says it.')),
                ('comment', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='labels', to='environment.comment')),
                ('credited_place', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='credited_evidence', to='environment.place')),
                ('note', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='labels', to='environment.note')),
                ('place', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evidence', to='environment.place')),
            ],
            options={
                'indexes': [models.Index(fields=['place', 'key'], name='environment_place_i_ff7fc6_idx')],
            },
        ),
    ]
