"""The timeline SVG's stylesheet: light colours, and dark ones under prefers-color-scheme."""
from __future__ import annotations

STYLE = """
.tl-root{font-size:12px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",
 "Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif}
.tl-bg{fill:#ffffff}
.tl-text{fill:#1f2937}
.tl-head{fill:#111827;font-size:14px;font-weight:600}
.tl-small{font-size:10.5px}
.tl-muted{fill:#6b7280}
.tl-zebra{fill:#f5f6f8}
.tl-sep{stroke:#d1d5db;stroke-width:1}
.tl-grid{stroke:#e5e7eb;stroke-width:1}
.tl-axis{stroke:#9ca3af;stroke-width:1}
.tl-bar{stroke:none}
.tl-waiting{fill:#e8edf2}
.tl-starting{fill:#edcc8d}
.tl-running{fill:#85b3d7}
.tl-ready{fill:#40734e}
.tl-terminating{fill:#b48260}
.tl-backoff{fill:#6f3852}
.tl-exited{fill:#c8d0d6}
.tl-exited.tl-error{fill:#db9a9c}
.tl-assumed{stroke:#4b5563;stroke-width:1;stroke-dasharray:3 2}
.tl-hatch{stroke:#1f2937;stroke-opacity:.55;stroke-width:1.3}
.tl-hatch-dot{fill:#1f2937;fill-opacity:.45}
.tl-stripe{stroke:#ffffff;stroke-opacity:.75;stroke-width:1.4}
.tl-pattern{stroke:none}
.tl-m-cross{stroke:#b42318;stroke-width:1.8;fill:none}
.tl-break-gap{fill:#ffffff}
.tl-break-line{stroke:#6b7280;stroke-width:1.2;fill:none}
.tl-role-init{fill:#8d84cc}
.tl-role-sidecar{fill:#3ea69d}
.tl-role-app{fill:#4f80cf}
.tl-role-ephemeral{fill:#c98a3e}
.tl-seg{stroke:#ffffff;stroke-width:1}
.tl-seg-text{fill:#1f2937;font-size:10.5px}
.tl-phase-pending,.tl-status-wait{fill:#ede3c6}
.tl-phase-running,.tl-status-run{fill:#c6daf2}
.tl-phase-succeeded,.tl-status-done{fill:#c4e5d1}
.tl-phase-failed,.tl-status-bad{fill:#f2c6c6}
.tl-status-term{fill:#f6d5b8}
.tl-phase-unknown,.tl-status-other,.tl-ready-false{fill:#e5e7eb}
.tl-ready-true{fill:#8fcaa5}
.tl-blip{stroke:none;fill:#6b7280}
.tl-blip.tl-status-bad,.tl-blip.tl-phase-failed{fill:#c0392b}
.tl-m-poststart{fill:#0f766e}
.tl-m-startup-ok{fill:#2f8f57}
.tl-m-probe-failed{stroke:#c0392b;stroke-width:2;fill:none}
.tl-m-sigterm{fill:#d97a1e}
.tl-m-sigkill{fill:#9f1239}
.tl-m-restart{stroke:#6d4fc2;stroke-width:1.8;fill:none}
.tl-m-image-pull-failed{stroke:#c0392b;stroke-width:1.5;fill:#ffffff}
.tl-m-image-updated{stroke:#1d4ed8;stroke-width:1.5;fill:#ffffff}
.tl-m-exit{stroke:#374151;stroke-width:1.5}
.tl-m-exit-error{stroke:#b42318}
.tl-m-assumed{stroke-dasharray:2 1.5}
.tl-exit-text{fill:#374151;font-size:10px;font-weight:600}
.tl-exit-text.tl-error{fill:#b42318}
.tl-arrow{stroke:#334155;stroke-width:1.3;fill:none;opacity:.8}
.tl-dashed{stroke-dasharray:4 3}
.tl-arrow-head{fill:#334155;opacity:.8}
.tl-guide{stroke:#b42318;stroke-width:1.2;stroke-dasharray:5 4;opacity:.75}
.tl-guide-debug{stroke:#a16207}
.tl-guide-text{fill:#b42318;font-size:10.5px;font-weight:600}
.tl-guide-text.tl-guide-debug{fill:#a16207;stroke:none}
.tl-note{fill:#6b7280;font-size:11px;font-style:italic}
@media (prefers-color-scheme: dark){
.tl-bg{fill:#111827}
.tl-text,.tl-seg-text{fill:#e5e7eb}
.tl-head{fill:#f9fafb}
.tl-muted,.tl-note{fill:#9ca3af}
.tl-zebra{fill:#172033}
.tl-sep{stroke:#374151}
.tl-grid{stroke:#1f2937}
.tl-axis{stroke:#6b7280}
.tl-waiting{fill:#282f37}
.tl-starting{fill:#a68e60}
.tl-running{fill:#425b71}
.tl-ready{fill:#a1dcb0}
.tl-terminating{fill:#d8a285}
.tl-backoff{fill:#97687d}
.tl-exited{fill:#3c4044}
.tl-exited.tl-error{fill:#926365}
.tl-assumed{stroke:#d1d5db}
.tl-hatch{stroke:#0b0f17;stroke-opacity:.6}
.tl-hatch-dot{fill:#f9fafb;fill-opacity:.5}
.tl-stripe{stroke:#0b0f17;stroke-opacity:.6}
.tl-m-cross{stroke:#fca5a5}
.tl-break-gap{fill:#111827}
.tl-break-line{stroke:#9ca3af}
.tl-seg{stroke:#111827}
.tl-phase-pending,.tl-status-wait{fill:#5b4e26}
.tl-phase-running,.tl-status-run{fill:#27466e}
.tl-phase-succeeded,.tl-status-done{fill:#25563b}
.tl-phase-failed,.tl-status-bad{fill:#6b2c2c}
.tl-status-term{fill:#7a4420}
.tl-phase-unknown,.tl-status-other,.tl-ready-false{fill:#374151}
.tl-ready-true{fill:#2e7a52}
.tl-blip{fill:#9ca3af}
.tl-blip.tl-status-bad,.tl-blip.tl-phase-failed{fill:#f87171}
.tl-m-poststart{fill:#5eead4}
.tl-m-startup-ok{fill:#86efac}
.tl-m-probe-failed{stroke:#f87171}
.tl-m-sigterm{fill:#fbbf24}
.tl-m-sigkill{fill:#fb7185}
.tl-m-restart{stroke:#c4b5fd}
.tl-m-image-pull-failed{stroke:#f87171;fill:#111827}
.tl-m-image-updated{stroke:#93c5fd;fill:#111827}
.tl-m-exit{stroke:#d1d5db}
.tl-m-exit-error{stroke:#f87171}
.tl-exit-text{fill:#e5e7eb}
.tl-exit-text.tl-error{fill:#fca5a5}
.tl-arrow{stroke:#cbd5e1}
.tl-arrow-head{fill:#cbd5e1}
.tl-guide{stroke:#f87171}
.tl-guide-debug{stroke:#fbbf24}
.tl-guide-text{fill:#fca5a5}
.tl-guide-text.tl-guide-debug{fill:#fbbf24}
}
"""

# The traffic row (timeline.traffic; docs/lifecycle-model.md §27), written only into charts that have
# one, so the charts of Pods that no Service selects stay as they were.  States that meet on the row
# differ by 8 L* or more, also as people with deuteranopia or protanopia see them
# (tests/render/test_timeline_traffic.py); draining is hatched as well, a failure window cross-hatched
# and labelled.
TRAFFIC_STYLE = """
.tl-traffic-not-ready,.tl-traffic-other{fill:#e5e7eb}
.tl-traffic-serving{fill:#7cc196}
.tl-traffic-draining{fill:#b7832a}
.tl-traffic-gone{fill:#ffffff;stroke:#9ca3af}
.tl-fail{fill:#8f1d14}
.tl-fail-x{stroke:none}
.tl-cross{stroke:#ffffff;stroke-width:1.2;stroke-opacity:.7}
.tl-fail-band{fill:#b42318;fill-opacity:.12}
.tl-fail-band-x{stroke:none;opacity:.35}
.tl-fail-text{fill:#ffffff;font-size:10.5px;font-weight:700;paint-order:stroke;stroke:#7a1610;stroke-width:2px}
.tl-m-reach{stroke:#1d4ed8;stroke-width:1.6;fill:#ffffff}
.tl-t-deleted{stroke:#b42318;stroke-width:2;stroke-dasharray:3 2}
@media (prefers-color-scheme: dark){
.tl-traffic-not-ready,.tl-traffic-other{fill:#374151}
.tl-traffic-serving{fill:#3f8f63}
.tl-traffic-draining{fill:#d9ad5b}
.tl-traffic-gone{fill:#111827;stroke:#6b7280}
.tl-fail{fill:#a31b1b}
.tl-cross{stroke:#111827}
.tl-fail-band{fill:#f87171;fill-opacity:.16}
.tl-fail-text{stroke:#7f1d1d}
.tl-m-reach{stroke:#93c5fd;fill:#111827}
.tl-t-deleted{stroke:#f87171}
}
"""

# A chart whose names stand on rows above the lanes (a phone's, issue 25): an axis break's zig-zag or a guide
# may cross a name; the name keeps a rim of the background round its letters.
STACKED_STYLE = """
.tl-stacked .tl-lane-label text,.tl-stacked .tl-strip-name{paint-order:stroke;stroke:#ffffff;stroke-width:3px;
 stroke-linejoin:round}
@media (prefers-color-scheme: dark){
.tl-stacked .tl-lane-label text,.tl-stacked .tl-strip-name{stroke:#111827}
}
"""
