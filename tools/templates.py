"""The loop the template tools share (`tools/one_texts.py`, `tools/form_texts.py`): read each
gettext template, let the tool add its entries, write it back in `make messages`' own order
(sorted, without locations), so that the tools may run in any order and leave the same file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po


def edit_templates(paths: Iterable[str], add: Callable[[Catalog], None]) -> None:
    """Read each template at `paths`, `add` to it, and write it back in place."""
    for path in map(Path, paths):
        with path.open("rb") as fh:
            catalog = read_po(fh)
        add(catalog)
        with path.open("wb") as fh:
            write_po(fh, catalog, sort_output=True, no_location=True)
