"""What the tensor pane shows under a root-cause row, from a diagnosis: cause, evidence, replay, advice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dumpscope.core.diagnosis.engine import Diagnosis


def findings_by_row(diagnosis: Diagnosis, messages: list[str | None]) -> dict[int, tuple[str, ...]]:
    """What the tensor pane shows under a root-cause row: the cause, its evidence (minus what the
    row's message already says), a replay's verdict when the diagnosis ran one, the advice, commands."""
    findings: dict[int, tuple[str, ...]] = {}
    for rank, c in enumerate(diagnosis.root_causes, 1):
        said = messages[c.row] if 0 <= c.row < len(messages) else None
        findings[c.row] = (
            f"root cause #{rank}: {c.cause}",
            *(e for e in c.evidence if not (said and said in e)),
            *_replay_line(getattr(c, "replay", None), c.evidence),
            f"advice: {c.advice}",
            *c.commands,
        )
    return findings


def _replay_line(replay: object, evidence: Sequence[str] = ()) -> tuple[str, ...]:
    """``replay: <its sentence>`` for a :class:`~dumpscope.core.diagnosis.replay.Replay` (none when not
    replayed, or when the evidence already states the replay: the engine words it in its cause's terms,
    so the pane's plain wording would say it twice)."""
    if replay is None or any(e.startswith("replay") for e in evidence):
        return ()
    sentence = getattr(replay, "sentence", None)
    return (f"replay: {sentence() if callable(sentence) else replay}",)
