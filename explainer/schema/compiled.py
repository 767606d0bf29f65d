"""A fast yes/no answer to "is this object valid?", compiled once from the Kubernetes schemas.

jsonschema is general: for every value it dispatches each keyword through its validator
table and resolves every ``$ref`` through the ``referencing`` registry, again for every
container of a Pod.  Almost every manifest people paste is valid, so `validate_document`
first asks the closures built here, which answer in plain dict and isinstance look-ups,
and runs jsonschema (whose errors become today's messages, lines and paths) only when they
do not say "valid".

The closures are *sound, not complete*: True means jsonschema would report no error; False
means "not proven", never more.  That makes every shortcut safe.  A schema keyword that
jsonschema would apply and this module does not know (``pattern``, ``minimum``, ...) makes
that sub-schema answer False for good, so jsonschema decides: a new keyword in a future
schema costs speed, never correctness.  ``$ref`` s are compiled lazily, on first use, so a
command-line run compiles only the definitions its Pod reaches.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

# The keywords Draft 2020-12 applies (jsonschema's Draft202012Validator.VALIDATORS); any other
# key (description, x-kubernetes-*, ...) is an annotation that validation ignores.
APPLIED = frozenset({
    "$dynamicRef", "$ref", "additionalProperties", "allOf", "anyOf", "const", "contains",
    "dependentRequired", "dependentSchemas", "enum", "exclusiveMaximum", "exclusiveMinimum", "format", "if",
    "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties",
    "minimum", "multipleOf", "not", "oneOf", "pattern", "patternProperties", "prefixItems", "properties",
    "propertyNames", "required", "type", "unevaluatedItems", "unevaluatedProperties", "uniqueItems"})
COMPILED = frozenset({"$ref", "additionalProperties", "allOf", "anyOf", "enum", "format", "items", "oneOf",
                      "properties", "required", "type"})
_LOCAL_REF = re.compile(r"^(?:(?:https://kubernetes\.io)?/api/_definitions\.json)?#/\$defs/([^/~%]+)$")


def _never(_: Any) -> bool:
    return False


def _is_integer(x: Any) -> bool:   # jsonschema: an int that is no bool, or a float such as 2.0
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


_TYPES: dict[str, Check] = {
    "string": lambda x: isinstance(x, str),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": _is_integer,
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
}


# Types that one isinstance decides exactly (bool is no int here: "integer" is not among them).
_PLAIN: dict[str, type] = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}


def _all(checks: list[Check]) -> Check:
    """The conjunction of ``checks``, without a generator per value for the usual one or two."""
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda x: first(x) and second(x)
    return lambda x: all(c(x) for c in checks)


class _Unsupported(Exception):
    """A sub-schema uses a keyword (or a $ref) this compiler does not know."""


class Compiler:
    """Closures for one version's ``$defs``, built on demand and kept."""

    def __init__(self, defs: Mapping[str, Any], formats: Mapping[str, Check]) -> None:
        self.defs, self.formats = defs, formats
        self.refs: dict[str, Check] = {}

    def check(self, schema: Any) -> Check:
        """The closure for ``schema``; one that always answers False if it cannot be compiled."""
        try:
            return self._compile(schema)
        except _Unsupported:
            return _never

    def _ref(self, ref: Any) -> Check:
        m = _LOCAL_REF.match(ref) if isinstance(ref, str) else None
        if m is None or m.group(1) not in self.defs:
            raise _Unsupported(ref)
        name, refs = m.group(1), self.refs

        def by_ref(x: Any) -> bool:
            fn = refs.get(name)
            if fn is None:   # first use; a placeholder first, for recursive definitions
                refs[name] = _never
                fn = refs[name] = self.check(self.defs[name])
            return fn(x)
        return by_ref

    def _compile(self, schema: Any) -> Check:
        if schema is True or schema == {}:
            return lambda x: True
        if schema is False or not isinstance(schema, dict):
            raise _Unsupported(schema)
        applied = APPLIED.intersection(schema)
        if applied - COMPILED:
            raise _Unsupported(sorted(applied - COMPILED))
        checks = [self._keyword(k, schema) for k in ("type", "enum", "format", "$ref", "required", "allOf",
                                                      "anyOf", "oneOf", "items") if k in schema]
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self._properties(schema.get("properties") or {}, schema.get("additionalProperties", True)))
        return _all(checks)

    def _keyword(self, key: str, schema: dict) -> Check:
        value = schema[key]
        if key == "type":
            names = value if isinstance(value, list) else [value]
            if not names or any(n not in _TYPES for n in names):
                raise _Unsupported(value)
            if all(n in _PLAIN for n in names):   # one isinstance: the common ["string", "null"]
                plain = tuple(_PLAIN[n] for n in names)
                return lambda x: isinstance(x, plain)
            preds = [_TYPES[n] for n in names]
            return preds[0] if len(preds) == 1 else (lambda x: any(p(x) for p in preds))
        if key == "enum":
            # Only strings: jsonschema's equality then is plain ==; anything else is not proven.
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _Unsupported(value)
            allowed = frozenset(value)
            return lambda x: isinstance(x, str) and x in allowed
        if key == "format":
            fmt = self.formats.get(value)
            return fmt if fmt is not None else (lambda x: True)   # jsonschema ignores unknown formats
        if key == "$ref":
            return self._ref(value)
        if key == "required":
            names = tuple(value)
            return lambda x: not isinstance(x, dict) or all(n in x for n in names)
        if key in ("allOf", "anyOf", "oneOf"):
            subs = [self._compile(s) for s in value]
            if key == "allOf":
                return lambda x: all(s(x) for s in subs)
            if key == "anyOf":
                return lambda x: any(s(x) for s in subs)
            # "exactly one" needs the others proven invalid: only for sub-schemas that are a bare
            # type, whose answer is exact both ways (IntOrString, Quantity).
            if not all(APPLIED.intersection(s) == {"type"} for s in value):
                raise _Unsupported(value)
            return lambda x: sum(1 for s in subs if s(x)) == 1
        item = self._compile(value)   # items: one schema for every element (2020-12)
        return lambda x: not isinstance(x, list) or all(item(v) for v in x)

    def _properties(self, props: dict, additional: Any) -> Check:
        known = {name: self._compile(sub) for name, sub in props.items()}
        extra = None if additional is False else self._compile(additional)

        def properties(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for key, value in x.items():
                fn = known.get(key) if isinstance(key, str) else None
                if fn is None:
                    fn = extra
                    if fn is None:
                        return False
                if not fn(value):
                    return False
            return True
        return properties
