"""The one error type of the core, and the record it becomes in the JSON contract."""
from __future__ import annotations

from dataclasses import field

from .i18n import Text
from explainer.lifecycle.records import record


@record
class ErrorRecord:
    """One problem with the input: what, where (1-based line and column) and which field.

    ``kind`` says who would object: ``syntax`` (the YAML/JSON reader), ``structure``
    (the shape of the manifest), ``validation`` (the API server would reject the Pod),
    ``schema`` (the OpenAPI schema of the target version), ``limit`` (our own bounds),
    ``scenario`` (the what-if document).  ``reason`` is the API server's word for it
    ("Forbidden", "Unsupported value", "Duplicate value", ...) where there is one.

    ``message`` is English (the JSON contract); ``text`` is the same message as a translatable
    `Text` where the core wrote it.  Pass a `Text` as ``message`` to set both.
    """

    message: str | Text               # a Text is rendered to its English string (__post_init__), kept as ``text``
    line: int | None = None
    column: int | None = None
    path: str | None = None
    kind: str = "structure"
    reason: str | None = None
    document: int | None = None
    pod: str | None = None
    text: Text | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.message, Text):
            if self.text is None:
                object.__setattr__(self, "text", self.message)
            object.__setattr__(self, "message", self.message.render())

    def one_line(self) -> str:
        where = f"line {self.line}" if self.line else "input"
        if self.line and self.column:
            where += f", column {self.column}"
        field = f" ({self.path})" if self.path else ""
        return f"{where}{field}: {self.message}"

    @property
    def translatable(self) -> Text | str:
        """The message to show a reader: the `Text` when there is one, else the English string."""
        return self.text if self.text is not None else self.message


class ManifestError(Exception):
    """Bad input.  Carries one or more ``ErrorRecord``; ``str()`` is a one-line summary.

    ``message`` may be a `Text` (its English rendering becomes the record's message).
    """

    def __init__(self, message: str | Text, *, line: int | None = None, column: int | None = None,
                 path: str | None = None, kind: str = "structure", reason: str | None = None,
                 records: list[ErrorRecord] | None = None) -> None:
        if records is None:
            records = [ErrorRecord(message, line, column, path, kind, reason)]
        self.records = records
        super().__init__(records[0].one_line() if records else str(message))

    @property
    def message(self) -> str:
        return str(self.records[0].message)   # rendered by ErrorRecord.__post_init__

    @property
    def line(self) -> int | None:
        return self.records[0].line

    @property
    def path(self) -> str | None:
        return self.records[0].path
