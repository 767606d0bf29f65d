"""Page URLs (namespace "web")."""
from __future__ import annotations

from django.urls import path

from explainer.web import permalinks, views
from explainer.web import compare as compare_views
from explainer.web import fixes as fix_views

app_name = "web"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("fix/", fix_views.apply_fix, name="fix"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("diagram/<str:digest>.svg", views.diagram, name="diagram"),
    path("share/", permalinks.share, name="share"),
    path("p/<str:pid>/", permalinks.permalink, name="permalink"),
    path("p/<str:pid>.json", permalinks.export_json, name="permalink-json"),
    path("p/<str:pid>.md", permalinks.export_markdown, name="permalink-md"),
    path("p/<str:pid>/timeline.svg", permalinks.picture, {"which": "timeline", "fmt": "svg"},
         name="timeline-svg"),
    path("p/<str:pid>/timeline.png", permalinks.picture, {"which": "timeline", "fmt": "png"},
         name="timeline-png"),
    path("p/<str:pid>/rollout.svg", permalinks.picture, {"which": "rollout", "fmt": "svg"},
         name="rollout-svg"),
    path("p/<str:pid>/rollout.png", permalinks.picture, {"which": "rollout", "fmt": "png"},
         name="rollout-png"),
    path("p/<str:pid>/sharing.svg", permalinks.picture, {"which": "sharing", "fmt": "svg"},
         name="sharing-svg"),
    path("p/<str:pid>/sharing.png", permalinks.picture, {"which": "sharing", "fmt": "png"},
         name="sharing-png"),
    path("p/<str:pid>/sharing.dot", permalinks.picture, {"which": "sharing", "fmt": "dot"},
         name="sharing-dot"),
    path("p/<str:pid>/delete/", permalinks.delete, name="permalink-delete"),
    path("embed/<str:pid>/", permalinks.embed, name="embed"),
    path("compare/", compare_views.compare_view, name="compare"),
    path("compare/share/", compare_views.share, name="compare-share"),
    path("c/<str:pid>/", compare_views.compare_permalink, name="compare-permalink"),
]
