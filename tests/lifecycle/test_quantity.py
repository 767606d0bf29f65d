"""Resource quantities compare exactly, and a request above its limit is refused as the API server does
(`ValidateResourceRequirements`, docs/lifecycle-model.md §5.1)."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.quantity import parse_quantity
from tests.conftest import load_manifest


@pytest.mark.parametrize("small,large", [
    ("500m", "1"), ("1000Mi", "1Gi"), ("999", "1k"), ("1e3", "1.5k"), ("0.5", "600m"), (1, "1001m"),
    ("128974848", "129e6"), ("1Ki", "1025"),
])
def test_quantities_compare_by_value(small: object, large: object) -> None:
    a, b = parse_quantity(small), parse_quantity(large)
    assert a is not None and b is not None and a.value < b.value


@pytest.mark.parametrize("raw,canonical", [
    ("2000m", "2"), ("1500m", "1500m"), ("1024Mi", "1Gi"), ("1000Mi", "1000Mi"), ("0.5", "500m"),
    (2, "2"), ("2000", "2k"), ("512Ki", "512Ki"), ("1e3", "1k"), ("100m", "100m"),
])
def test_quantities_print_as_the_api_server_does(raw: object, canonical: str) -> None:
    q = parse_quantity(raw)
    assert q is not None and str(q) == canonical


@pytest.mark.parametrize("raw", ["", "1.2.3", "ten", "1Gb", None, True, [1]])
def test_what_is_not_a_quantity_is_none(raw: object) -> None:
    assert parse_quantity(raw) is None


def test_a_request_above_its_limit_is_refused_with_the_line() -> None:
    expl = explain(load_manifest("validation/requests_over_limits"))
    [pod] = expl.pods
    assert not pod.admitted and pod.simulation is None
    [error] = pod.errors
    assert error.message == ("spec.template.spec.containers[0].resources.requests: Invalid value: \"1Gi\": "
                             "must be less than or equal to memory limit of 800Mi")
    assert error.line == 32 and error.path == "spec.template.spec.containers[0].resources.requests"


POD = """apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  containers:
  - name: a
    image: b
    resources:
      requests: {{{requests}}}
      limits: {{{limits}}}
"""


@pytest.mark.parametrize("requests,limits,message", [
    ('cpu: "2"', "cpu: 1", 'Invalid value: "2": must be less than or equal to cpu limit of 1'),
    ("cpu: 1500m", "cpu: 1", 'Invalid value: "1500m": must be less than or equal to cpu limit of 1'),
    ("ephemeral-storage: 2Gi", "ephemeral-storage: 1Gi",
     'Invalid value: "2Gi": must be less than or equal to ephemeral-storage limit of 1Gi'),
    ("hugepages-2Mi: 2Mi", "hugepages-2Mi: 4Mi", 'Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi'),
    ("nvidia.com/gpu: 1", "nvidia.com/gpu: 2", 'Invalid value: "1": must be equal to nvidia.com/gpu limit of 2'),
    ("cpu: 500m, memory: 1Gi", "cpu: 1, memory: 1024Mi", None),
    ("memory: 1Gi", "cpu: 100m", None),                       # no memory limit: nothing to compare
])
def test_requests_against_limits(requests: str, limits: str, message: str | None) -> None:
    expl = explain(POD.format(requests=requests, limits=limits), None, "1.37")
    found = [e.message for e in expl.errors]
    assert found == ([f"spec.containers[0].resources.requests: {message}"] if message else [])
    if message:
        assert expl.errors[0].line == 9


# The inputs the three parsers of earlier releases disagreed on, with what the API server answers
# (k8s.io/apimachinery pkg/api/resource/quantity.go `ParseQuantity` / `parseQuantityString`, read at
# kubernetes/apimachinery eed236ce): None is its ErrFormatWrong / ErrSuffix; a value is its canonical String().
@pytest.mark.parametrize("raw,answer", [
    ("512 Mi", None),         # a space is no part of a suffix: ErrFormatWrong
    ("+1Gi", "1Gi"),          # a leading sign is read, + or -
    ("-1Gi", "-1Gi"),
    (".5Gi", "512Mi"),        # no digit before the point: the numerator is 0
    ("1E-2", "10m"),          # an exponent suffix may be negative
    ("1e+3", "1k"),
    ("100n", "100n"),         # nano units
    ("0.1n", "1n"),           # below 1n rounds up to 1n (inf.RoundUp), "if you want some, you should get some"
    ("1.", "1"), ("1.G", "1G"),   # "we currently allow 1.G"
    ("007", "7"),             # leading zeros are stripped
    (" 2Gi ", "2Gi"),         # UnmarshalJSON trims the text first
    ("1KiB", None), ("1K", None), ("1e", None), ("1Mb", None),   # not a suffix the table or an exponent knows
    ("1e99999999", None),     # accepted by the API server, but past MAX_EXPONENT: not read here (bounded work)
])
def test_quantities_parse_as_the_api_server_parses_them(raw: object, answer: str | None) -> None:
    q = parse_quantity(raw)
    assert (str(q) if q is not None else None) == answer


def test_a_heap_check_reads_limits_with_the_same_parser() -> None:
    """heap-exceeds-memory-limit compares against the API server's reading of the limit: an invalid one
    ("512 Mi") is no limit, a valid one written as ".5Gi" is 512 MiB."""
    from explainer.lifecycle.commands.evidence import memory_limit
    from explainer.lifecycle.manifest.parse import parse_pod
    for limit, expected in (("512 Mi", None), (".5Gi", 512 * 2 ** 20), ("+1Gi", 2 ** 30)):
        pod = parse_pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                        f"  - {{name: a, image: x, resources: {{limits: {{memory: '{limit}'}}}}}}\n")
        found = memory_limit(pod, pod.containers[0])
        assert (found[0] if found else None) == expected
