"""Optional paraphrasing of generated questions by a model (temperature 0.7, appendix B.3).

The model is asked through the platform's model client, which the runs app registers in
``PARAPHRASE_CLIENTS`` (``benchmark.runs.scoring.model_clients``: the egress checks and retries every model
request gets; the cases app cannot import the endpoints app). Without one, asking is an error: litellm
is called by the endpoints package only.

A paraphrase is kept only when it still asks the same thing: every place name and every
number of the original is still there verbatim, no number is added, and (at L2) it does
not name the hidden criterion. Otherwise the original question stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kernel.registry import Registry

NUMBER = re.compile(r"\d+(?:[.:]\d+)?")
SYSTEM_PROMPT = (
    "You rewrite questions that users ask a city travel assistant. Keep the meaning exactly: keep every place "
    "name verbatim, keep every number, time and date, keep the travel mode and what is being optimised, and do "
    "not add requirements. Vary the wording and tone naturally. Reply with the rewritten question only."
)


# ask(model=, api_base=, api_key=, messages=, temperature=, timeout_s=) -> the reply's text
ParaphraseAsk = Callable[..., str]
PARAPHRASE_CLIENTS: Registry[ParaphraseAsk] = Registry("paraphrase model client")
NO_CLIENT = "no paraphrase model client is registered (the runs app registers the platform's when Django starts)"


@dataclass(frozen=True)
class Paraphraser:
    model: str
    api_base: str | None = None
    api_key: str | None = None
    temperature: float = 0.7
    timeout_s: float = 60.0

    def __call__(self, question: str) -> str:
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": question}]
        for name in PARAPHRASE_CLIENTS.names():  # the platform's model client
            ask = PARAPHRASE_CLIENTS.get(name)
            reply = ask(
                model=self.model,
                api_base=self.api_base,
                api_key=self.api_key,
                messages=messages,
                temperature=self.temperature,
                timeout_s=self.timeout_s,
            )
            return reply.strip()
        raise RuntimeError(NO_CLIENT)


def keeps_meaning(original: str, paraphrase: str, *, names: list[str], forbidden: Sequence[str] = ()) -> str:
    """'' when ``paraphrase`` asks what ``original`` asks; otherwise the reason it does not."""
    if not paraphrase or not 0.5 <= len(paraphrase) / max(len(original), 1) <= 2.0:
        return "empty or of a very different length"
    for name in names:
        if name in original and name not in paraphrase:
            return f"drops the place name {name!r}"
    if sorted(NUMBER.findall(original)) != sorted(NUMBER.findall(paraphrase)):
        return "changes the numbers, times or dates"
    lowered = paraphrase.lower()
    for word in forbidden:
        if word.lower() in lowered and word.lower() not in original.lower():
            return f"names the hidden criterion ({word!r})"
    return ""
