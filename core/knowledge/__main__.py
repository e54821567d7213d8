"""``python -m dumpscope.core.knowledge``: rebuild ``kb_index.json`` and ``kb_forms.bin`` after editing
``kb.jsonl``."""

from pathlib import Path

from dumpscope.core.knowledge.codes import extractor_patterns
from dumpscope.core.knowledge.forms import write_forms
from dumpscope.core.knowledge.index import write_index

if __name__ == "__main__":  # pragma: no cover - the build step
    print(write_index(Path(__file__).resolve().parent))
    print(write_forms(Path(__file__).resolve().parent, extractor_patterns()))
