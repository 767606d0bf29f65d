"""kubectl's times: HumanDuration exactly (apimachinery's boundaries), its outputs read back, and stamps."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from explainer.lifecycle.observed.times import human_duration, parse_age, parse_date, parse_stamp

# apimachinery pkg/util/duration/duration_test.go TestHumanDuration's boundaries, and the -1 s tolerance
HUMAN = [(-2, "<invalid>"), (-1.5, "0s"), (-1, "0s"), (0, "0s"), (1, "1s"), (119, "119s"), (120, "2m"),
         (121, "2m1s"), (599, "9m59s"), (600, "10m"), (601, "10m"), (179 * 60, "179m"), (3 * 3600, "3h"),
         (3 * 3600 + 60, "3h1m"), (8 * 3600 - 1, "7h59m"), (8 * 3600, "8h"), (47 * 3600 + 3599, "47h"),
         (48 * 3600, "2d"), (49 * 3600, "2d1h"), (8 * 86400 - 1, "7d23h"), (8 * 86400, "8d"),
         (2 * 365 * 86400 - 1, "729d"), (2 * 365 * 86400, "2y"), (2 * 365 * 86400 + 86400, "2y1d"),
         (8 * 365 * 86400, "8y"), (9 * 365 * 86400 + 5 * 86400, "9y")]


@pytest.mark.parametrize(("seconds", "text"), HUMAN)
def test_human_duration_is_apimachinerys(seconds: float, text: str) -> None:
    assert human_duration(seconds) == text


@given(st.integers(0, 10 * 365 * 86400))
def test_an_age_read_back_covers_the_duration_printed(seconds: int) -> None:
    least, width = parse_age(human_duration(seconds))
    assert least <= seconds < least + width


@pytest.mark.parametrize(("text", "expected"), [("10s", (10, 1)), ("3m12s", (192, 1)), ("15m", (900, 60)),
                                                ("5h3m", (18180, 60)), ("2d4h", (187200, 3600)), ("3y", (94608000,
                                                                                                    31536000)),
                                                ("<invalid>", (0, 1))])
def test_ages(text: str, expected: tuple) -> None:
    assert parse_age(text) == expected


@pytest.mark.parametrize("text", ["", "10", "s", "1x", "10s10", "<unknown>", "1m 2s", "9" * 30 + "s"])
def test_what_is_not_an_age(text: str) -> None:
    assert parse_age(text) is None


def test_stamps_and_describe_dates() -> None:
    assert parse_stamp("2022-02-17T21:51:05Z") == 1645134665
    assert parse_stamp("2022-02-17T21:51:05.250000Z") == 1645134665.25
    assert parse_stamp("2022-02-17T22:51:05+01:00") == 1645134665
    assert parse_date("Thu, 17 Feb 2022 16:51:05 -0500") == 1645134665
    assert parse_date("Thu, 04 Jan 2024 17:52:29 +0800") == parse_stamp("2024-01-04T09:52:29Z")
    for bad in (None, 7, "", "2022-13-45T99:00:00Z", "yesterday", "x" * 100):
        assert parse_stamp(bad) is None
    assert parse_date("...") is None and parse_date("Thu, 31 Feb 2022 10:00:00 +0000") is None
