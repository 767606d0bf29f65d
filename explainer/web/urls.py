"""Page URLs (namespace "web")."""
from __future__ import annotations

from django.urls import path

from explainer.web import views

app_name = "web"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
]
