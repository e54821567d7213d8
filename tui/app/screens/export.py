"""Export modal: the table (CSV / Parquet / JSON) or a Markdown report, with the CLI's own writers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, RadioButton, RadioSet, Static

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison, ComparisonMeta

FORMATS: tuple[tuple[str, str, str], ...] = (
    ("csv", "CSV table", ".csv"),
    ("parquet", "Parquet table (reopen with dumpscope open)", ".parquet"),
    ("json", "JSON table", ".json"),
    ("markdown", "Markdown report", ".md"),
)


def default_stem(meta: ComparisonMeta | None) -> str:
    """``<golden>_vs_<target>`` from the comparison's inputs, safe as a file name."""
    golden, target = (meta.golden, meta.target) if meta is not None else (None, None)
    if not golden or not target:
        return "dumpscope_result"
    stem = f"{Path(str(golden)).name}_vs_{Path(str(target)).name}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem).strip("._") or "dumpscope_result"


class ExportScreen(ModalScreen[str | None]):
    """Pick a format and a path; enter saves (in a thread), esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="export.cancel"),
        Binding("ctrl+s", "save", "Save", id="export.save"),
    ]

    def __init__(self, comparison: Comparison, view: np.ndarray, filter_text: str = "") -> None:
        super().__init__()
        self._cmp = comparison
        self._view = view
        self._filter = filter_text

    def compose(self) -> ComposeResult:
        stem = default_stem(self._cmp.meta)
        with Vertical(id="export-box"):
            yield Static("[b]Export[/b]  [$text-muted](tab moves, enter saves, esc cancels)[/]")
            with RadioSet(id="export-format"):
                for i, (_key, label, _ext) in enumerate(FORMATS):
                    yield RadioButton(label, value=i == 0)
            yield Input(str(Path.cwd() / f"{stem}{FORMATS[0][2]}"), id="export-path")
            if self._filter:
                yield Checkbox(
                    Content(f"only the {self._view.size} rows shown (filter: {self._filter})"),
                    value=True,
                    id="export-subset",
                )
            yield Static("", id="export-status")

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @property
    def _format(self) -> tuple[str, str, str]:
        index = self.query_one(RadioSet).pressed_index
        return FORMATS[max(index, 0)]

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        box = self.query_one("#export-path", Input)
        box.value = str(Path(box.value).with_suffix(self._format[2]))

    @on(Input.Submitted, "#export-path")
    def action_save(self) -> None:
        path = Path(self.query_one("#export-path", Input).value).expanduser()
        if not path.name:
            self._status(Content.from_markup("[$error]give a file name[/]"))
            return
        if not path.parent.is_dir():
            self._status(Content.from_markup("[$error]no such directory: $dir[/]", dir=str(path.parent)))
            return
        subset = self.query("#export-subset")
        only_view = bool(subset) and subset.first(Checkbox).value
        self._status(Content("saving…"))
        self._write(self._format[0], path, only_view)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _status(self, message: Content) -> None:
        self.query_one("#export-status", Static).update(message)

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _write(self, fmt: str, path: Path, only_view: bool) -> None:
        from dumpscope.core.comparison.result import Comparison
        from dumpscope.core.report import writers as report

        cmp = self._cmp
        if only_view:
            cmp = Comparison.from_frame(cmp.frame[self._view], meta=cmp.meta, thresholds=cmp.thresholds)
        writer = {
            "csv": report.write_csv,
            "parquet": report.write_parquet,
            "json": report.write_json,
            "markdown": report.write_markdown,
        }[fmt]
        try:
            writer(cmp, path)
        except (OSError, ValueError) as exc:
            self.app.call_from_thread(
                self._status, Content.from_markup("[$error]$problem[/]", problem=str(exc))
            )
            return
        rows = cmp.frame.height
        self.app.call_from_thread(self.dismiss, f"saved {rows} rows to {path}")
