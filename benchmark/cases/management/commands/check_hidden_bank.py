"""Check a hidden wording bank file and say what hidden releases would write from."""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand

from benchmark.cases.hidden_bank import EXAMPLE, HiddenBankError, hidden_bank, load_bank, wording_banks
from benchmark.cases.needs import HIDDEN, needs_in
from benchmark.cases.phrasings import PHRASINGS, checked_bank


class Command(BaseCommand):
    help = (
        "Load a hidden wording bank (PATH, default: the setting HIDDEN_BANK_PATH) and check it against the rules "
        "of benchmark/cases/hidden_bank.py; print, per need and per wording bank, where hidden releases take "
        "their sentences from. Exit 1 with the broken rule when the file is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="the bank file (default: HIDDEN_BANK_PATH)")

    def handle(self, *args, path=None, **options):
        try:
            bank = checked_bank(load_bank(path) if path else hidden_bank())
        except HiddenBankError as exc:
            self.stderr.write(str(exc))
            sys.exit(1)
        self.stdout.write(f"hidden bank: {bank.source}")
        for key in needs_in(HIDDEN):
            own = bank.phrasings.get(key)
            found, where = (own, "the file") if own is not None else (PHRASINGS[key], EXAMPLE)
            self.stdout.write(f"  {key:<28} {len(found):>3} phrasings from {where}")
        own_wordings = sorted(bank.wordings)
        self.stdout.write(
            f"  wording banks from the file: {len(own_wordings)} of {len(wording_banks())}"
            + (f" ({', '.join(own_wordings)})" if own_wordings else "")
        )
        if path and path != settings.HIDDEN_BANK_PATH:
            self.stdout.write("  (not in use: set HIDDEN_BANK_PATH to this file for hidden releases to write from it)")
