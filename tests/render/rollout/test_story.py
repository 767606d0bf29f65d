"""A rollout in words and numbers (render/rollout/story.py): the story with its ending, the summary a
review compares, the two tables, and the cursor's frames in the Pod timeline's shape."""
from __future__ import annotations

import dataclasses
import json

from explainer.render.rollout.layout import layout_rollout
from explainer.render.rollout.story import count_rows, pod_rows, rollout_frames, story, summary
from tests.render.rollout.cases import rolling, stalled


def test_the_story_is_the_controllers_steps() -> None:
    r = rolling()
    steps = story(r)
    assert [t for t, _x, _p in steps] == [0, 5, 10, 15]          # the core's steps end as it ends: nothing added
    assert str(steps[0][1]) == "The controller creates web-new-0 and deletes web-old-0."


def test_without_steps_the_story_still_says_how_it_ends() -> None:
    (t, end, _p), = story(dataclasses.replace(rolling(), steps=()))
    assert (t, str(end)) == (20, "At 20 s the rollout is complete: all 4 Pods are of the new revision and available.")
    (t, end, _p), = story(dataclasses.replace(rolling(), steps=(), complete_at=None))
    assert (t, str(end)) == (600, "The rollout is not complete by 600 s, where the simulation stops.")


def test_a_stall_ends_the_story_where_it_happens_with_the_capacity_left() -> None:
    (t, end, _p), = story(dataclasses.replace(stalled(), steps=()))
    assert t == 60
    assert str(end) == ("At 60 s the rollout stalls (ProgressDeadlineExceeded); 3 Pods are available then. Nothing "
                        "rolls back by itself. Progressing=False")


def test_the_summary_has_the_numbers_a_review_compares() -> None:
    facts = dict(summary(rolling(), lambda s: s))
    assert facts == {"Strategy": "RollingUpdate", "Replicas": "4", "maxSurge": "1", "maxUnavailable": "1",
                     "Capacity floor": "3", "Surge ceiling": "5", "Fewest available": "3",
                     "Most Pods": "4 (5 with the terminating ones)", "Complete at": "20 s"}
    assert dict(summary(stalled(), lambda s: s))["Stalled at"] == "60 s (ProgressDeadlineExceeded)"


def test_the_tables_have_every_pod_and_one_count_row_per_moment() -> None:
    r = rolling()
    rows = pod_rows(r, lambda s: s)
    assert [p["name"] for p in rows][:2] == ["web-old-0", "web-old-1"] and len(rows) == 8
    assert rows[4] == {"name": "web-new-0", "revision": "new", "revision_label": "new revision", "created": 0.0,
                       "ready": 5.0, "available": 5.0, "deleted": None, "gone": None, "node": None}
    counts = count_rows(r)
    assert [c["t"] for c in counts] == [0, 2, 5, 7, 10, 12, 15, 17, 20]
    assert counts[0] == {"t": 0.0, "desired": 4, "old": 3, "new": 1, "ready": 3, "available": 3, "terminating": 1,
                         "total": 5}


def test_frames_have_the_pod_timelines_shape_and_follow_the_pods() -> None:
    r = rolling()
    lay = layout_rollout(r, "web")
    data = rollout_frames(r, lay)
    json.dumps(data)                                   # travels as JSON in a data attribute
    assert set(data) >= {"end", "events", "knots", "plotX", "plotWidth", "lanes", "frames", "text"}
    assert data["end"] == lay.chart.view_end and data["events"][0] == 0 and data["events"][-1] == data["end"]
    assert [lane["role"] for lane in data["lanes"]] == ["old"] * 4 + ["new"] * 4
    at = {f["t"]: f for f in data["frames"]}
    first = at[0]
    assert [(c["name"], c["state"], c["restarts"]) for c in first["containers"]] == [
        ("web-old-0", "terminating", "old revision"), ("web-old-1", "available", "old revision"),
        ("web-old-2", "available", "old revision"), ("web-old-3", "available", "old revision"),
        ("web-new-0", "starting", "new revision")]
    assert dict(first["facts"])["available"] == "3" and dict(first["facts"])["terminating"] == "1"
    assert first["doing"] == [{"text": "The controller creates web-new-0 and deletes web-old-0."}]
    assert at[7]["doing"] == [{"text": "The controller creates web-new-1 and deletes web-old-1."}]   # the last one
    assert [c["name"] for c in at[2]["containers"]][0] == "web-old-1"     # web-old-0 is gone at 2 s
    last = at[data["end"]]
    assert [c["state"] for c in last["containers"]] == ["available"] * 4
    assert data["text"]["container"] == "Pod" and data["text"]["kubelet"] == "The controller"
    assert data["text"]["group_old"] == "Old revision"


def test_a_large_rollouts_frames_list_the_pods_on_the_move() -> None:
    from explainer.render.rollout.story import FRAME_PODS
    from tests.render.rollout.cases import many
    r = many(100)
    data = rollout_frames(r, layout_rollout(r, "web"))
    assert all(len(f["containers"]) <= FRAME_PODS for f in data["frames"])
    assert all(c["state"] != "available" for f in data["frames"] for c in f["containers"])
    at_3 = next(f for f in data["frames"] if f["t"] == 3)
    # web-new-0 is available by then: the one going and the one coming are listed
    assert [c["name"] for c in at_3["containers"]] == ["web-old-1", "web-new-1"]
    assert len(json.dumps(data)) < 200_000


def test_the_cursor_tells_all_the_controller_did_at_its_latest_moment() -> None:
    from explainer.examples import BY_SLUG
    from explainer.explain import explain
    r = explain(BY_SLUG["rollout-surge-vs-unavailable"].manifest()).pods[0].rollout
    data = rollout_frames(r, layout_rollout(r, "api-surge"))
    at_5 = next(f for f in data["frames"] if f["t"] == 5)
    said = [d["text"] for d in at_5["doing"]]
    assert [str(s.text) for s in r.steps if s.t == 5] == said and len(said) >= 2
    # a moment at which the controller does nothing (a Pod's containers stop): what it did last still shows
    quiet = next(f for f in data["frames"] if f["t"] > 0 and all(s.t != f["t"] for s in r.steps))
    last = max(s.t for s in r.steps if s.t < quiet["t"])
    assert [d["text"] for d in quiet["doing"]] == [str(s.text) for s in r.steps if s.t == last]
