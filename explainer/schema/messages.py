"""The words of a schema error: what the API server's strict decoder would say, made readable.

`validate.py` finds the errors; this module turns one jsonschema error into a sentence (a
misspelt field with its likely meaning, a wrong type in plain words, a missing field)."""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .formats import FORMAT_WORDS as _FORMAT_WORDS

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


def _did_you_mean(key: Any, schema: Any) -> str | None:
    """The field of this object (from its schema) that ``key`` most likely misspells."""
    known = (schema.get("properties") or {}) if isinstance(schema, dict) else {}
    if not isinstance(key, str) or not known:
        return None
    lowered = {name.lower(): name for name in known}
    if key.lower() in lowered:                  # restartpolicy -> restartPolicy
        return lowered[key.lower()]
    close = difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def _unexpected_keys(instance: Any, schema: Any) -> list[Any]:
    if not isinstance(instance, dict) or not isinstance(schema, dict):
        return []
    known = schema.get("properties") or {}
    patterns = [re.compile(p) for p in (schema.get("patternProperties") or {})]
    return [key for key in instance
            if key not in known
            and not (isinstance(key, str) and any(p.search(key) for p in patterns))]


_TYPE_WORDS = {"object": "mapping", "array": "list"}


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def _quote(value: Any, limit: int = 60) -> str:
    """A short JSON rendering of a scalar: "8080" (a string) or 8080 (a number)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…\""


def _shown(value: Any) -> str:
    """' ("8080")' after the type of a scalar; nothing for a mapping or a list."""
    return "" if isinstance(value, (dict, list)) else f" ({_quote(value)})"


def _types(expected: Any) -> list[str]:
    names = expected if isinstance(expected, list) else [expected]
    return [_TYPE_WORDS.get(n, n) for n in names if n != "null"] or ["null"]


def _or(words: Iterable[str]) -> str:
    words = list(dict.fromkeys(words))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _message(error: ValidationError) -> tuple[str, str | None]:
    """A short plain sentence for the validators the Kubernetes schemas use, and a reason."""
    v, value, arg = error.validator, error.instance, error.validator_value
    if v == "type":
        return f"must be {_or(_types(arg))}, not {_type_of(value)}{_shown(value)}", "Invalid value"
    if v == "required":
        missing = [k for k in arg if isinstance(value, dict) and k not in value] or list(arg)
        # jsonschema yields one error per missing property; its message names it first.
        name = next((k for k in missing if repr(k) in error.message), missing[0])
        return f"missing required field {_quote(name)}", "Required value"
    if v == "enum":
        allowed = ", ".join(_quote(a) for a in arg)
        return f"must be one of {allowed}, not {_quote(value)}", "Unsupported value"
    if v == "const":
        return f"must be {_quote(arg)}, not {_quote(value)}", "Unsupported value"
    if v in ("minimum", "exclusiveMinimum"):
        word = "at least" if v == "minimum" else "more than"
        return f"must be {word} {arg}, not {_quote(value)}", "Invalid value"
    if v in ("maximum", "exclusiveMaximum"):
        word = "at most" if v == "maximum" else "less than"
        return f"must be {word} {arg}, not {_quote(value)}", "Invalid value"
    if v == "format":
        wanted = _FORMAT_WORDS.get(arg, f"in the {arg!r} format")
        return f"must be {wanted}, not {_quote(value)}", "Invalid value"
    if v in ("oneOf", "anyOf") and isinstance(arg, list):
        kinds = [t for sub in arg if isinstance(sub, dict) and "type" in sub for t in _types(sub["type"])]
        if len(kinds) >= len(arg):
            return f"must be {_or(kinds)}, not {_type_of(value)}{_shown(value)}", "Invalid value"
    if v == "minItems":
        return f"must have at least {arg} item{'s' if arg != 1 else ''}", "Required value"
    if v == "maxItems":
        return f"must have at most {arg} item{'s' if arg != 1 else ''}", "Too many"
    if v == "minLength":
        return f"must be at least {arg} character{'s' if arg != 1 else ''} long", "Invalid value"
    if v == "maxLength":
        return f"must be at most {arg} character{'s' if arg != 1 else ''} long", "Too long"
    if v == "pattern":
        return f"must match the pattern {arg}, not {_quote(value)}", "Invalid value"
    return error.message, None
