"""The what-if panel's traffic and rollout controls become the scenario a CLI user writes (web/whatif.py;
issue 22): trafficPropagationSeconds, rollout.replicas / otherReadyReplicas / nodes, and the new
revision's behaviour under rollout.newRevision.containers.<name>, with the same keys as ``containers``."""
from __future__ import annotations

import pytest

from explainer.lifecycle.scenario.document import scenario_from_data
from explainer.web.whatif import scenario_from_post


@pytest.mark.parametrize("post,expected", [
    ({"traffic_propagation": "12"}, {"trafficPropagationSeconds": 12}),
    ({"traffic_propagation": "2.5"}, {"trafficPropagationSeconds": 2.5}),
    ({"traffic_propagation": ""}, {}),
    ({"traffic_propagation": "abc"}, {}),
    ({"rollout_replicas": "10"}, {"rollout": {"replicas": 10}}),
    ({"rollout_replicas": "10", "other_ready": "0", "rollout_nodes": "5"},
     {"rollout": {"replicas": 10, "otherReadyReplicas": 0, "nodes": 5}}),
    ({"n.web.never_ready": "on"}, {"rollout": {"newRevision": {"containers": {"web": {"failingProbes": ["readiness"]}}}}}),
    ({"n.web.crashes": "on"}, {"rollout": {"newRevision": {"containers": {"web": {"runs": [{"runSeconds": 1,
                                                                                         "exitCode": 1}]}}}}}),
    ({"n.web.startup": "30"}, {"rollout": {"newRevision": {"containers": {"web": {"startupSeconds": 30}}}}}),
    ({"n.web.startup": "", "n.web.never_ready": ""}, {}),
    ({"n.web.unknown": "on", "n..crashes": "on"}, {}),
    # a dotted container name: the control is the last part
    ({"n.my.app.startup": "4"}, {"rollout": {"newRevision": {"containers": {"my.app": {"startupSeconds": 4}}}}}),
])
def test_controls_become_scenario_keys(post: dict, expected: dict) -> None:
    assert scenario_from_post(post) == expected


def test_controls_go_on_top_of_the_yaml_and_keep_what_it_says() -> None:
    yaml = ("trafficPropagationSeconds: 30\nrollout:\n  syncDelaySeconds: 1\n  newRevision:\n    containers:\n"
            "      web: {exitCode: 3}\n")
    got = scenario_from_post({"scenario": yaml, "traffic_propagation": "8", "rollout_replicas": "6",
                              "n.web.startup": "12"})
    assert got == {"trafficPropagationSeconds": 8,
                   "rollout": {"syncDelaySeconds": 1, "replicas": 6,
                               "newRevision": {"containers": {"web": {"exitCode": 3, "startupSeconds": 12}}}}}


def test_a_rollout_the_yaml_writes_wrongly_is_left_for_the_engine_to_report() -> None:
    got = scenario_from_post({"scenario": "rollout: 3\n", "rollout_replicas": "6", "n.web.crashes": "on"})
    assert got == {"rollout": 3}


def test_what_the_controls_write_is_a_valid_scenario() -> None:
    got = scenario_from_post({"traffic_propagation": "8", "rollout_replicas": "6", "other_ready": "2",
                              "rollout_nodes": "4", "n.web.never_ready": "on", "n.web.crashes": "on",
                              "n.web.startup": "5"})
    sc = scenario_from_data(got)
    assert sc.traffic_propagation == 8 and sc.rollout is not None
    assert (sc.rollout.replicas, sc.rollout.other_ready_replicas, sc.rollout.nodes) == (6, 2, 4)
    assert sc.rollout.new_revision == {"web": {"failingProbes": ["readiness"], "runs": [{"runSeconds": 1,
                                                                                         "exitCode": 1}],
                                               "startupSeconds": 5}}
