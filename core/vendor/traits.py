"""What a dump format's vendor adds beyond tensors: one hook per format.

The pipeline, the row facts and the diagnosis ask these traits instead of testing
``dump.format == "ascend-dump"`` each in their own way.  A new vendor format that
has side files declares them here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VendorTraits:
    """The vendor-specific facts a dump format can carry."""

    opdebug: bool = False
    """The dump folder may hold hardware overflow (Opdebug) records."""
    device_layouts: bool = False
    """Tensors are stored in device formats; an ATC graph tells their framework layouts."""
    fusion_switch: bool = False
    """Fusion passes are switched off in the toolchain's ``fusion_switch.cfg`` (Ascend ATC/CANN)."""


#: Format name (``Dump.format``) -> its traits; formats not listed have none.
TRAITS: dict[str, VendorTraits] = {
    "ascend-dump": VendorTraits(opdebug=True, device_layouts=True, fusion_switch=True),
}
NO_TRAITS = VendorTraits()


def traits_of(dump: object) -> VendorTraits:
    """The traits of a dump (anything with a ``format``; ``None`` has none)."""
    return TRAITS.get(str(getattr(dump, "format", "")), NO_TRAITS)
