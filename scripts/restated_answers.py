"""Score every case of a release with its reference answer restated as people write it (docs/metrics.md).

python manage.py shell < scripts/restated_answers.py          # RELEASE=helsinki-v2 by default
"""

import os
from collections import Counter

from benchmark.cases.document import CaseDocument
from benchmark.cases.models import ReleaseCase
from benchmark.runs.scoring.restated import restate
from benchmark.runs.scoring.services import answer_score

release = os.environ.get("RELEASE", "helsinki-v2")
counts = Counter()
failed = []
for entry in ReleaseCase.objects.filter(release__name=release).order_by("position"):
    doc = entry.snapshot
    results = answer_score(document=CaseDocument.model_validate(doc), answer=restate(doc), trajectory=None)
    ok = results["pass_rate"].value == 1.0
    counts[(doc["type"], ok)] += 1
    if not ok:
        failed.append((doc["case_id"], results["pass_rate"].explanation))
cells = sorted({cell for cell, _ in counts})
print(
    f"restated reference answers passing on {release}: {sum(counts[(c, True)] for c in cells)} of "
    f"{sum(counts.values())}"
)
for cell in cells:
    print(f"  {cell:12s} {counts[(cell, True)]:4d} / {counts[(cell, True)] + counts[(cell, False)]}")
for case_id, why in failed[:20]:
    print("  fails:", case_id, why)
