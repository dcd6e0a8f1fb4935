"""Social-media corpus: a deterministic synthetic writer and a JSONL importer/exporter."""

from .jsonl import read_corpus_jsonl, write_corpus_jsonl
from .memory import memories_from_facts
from .writer import generate_corpus

__all__ = ["generate_corpus", "memories_from_facts", "read_corpus_jsonl", "write_corpus_jsonl"]
