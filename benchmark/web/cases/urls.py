"""Routes of the case browser (see benchmark/web/urls.py): a release's cases, a case, the note reader."""

from django.urls import path

from benchmark.web.cases import views

urlpatterns = [
    path("cases/", views.cases_page, name="cases"),
    path("cases/<slug:release_name>/<str:case_id>/", views.case_page, name="case"),
    path("cases/<str:case_id>/", views.case_latest, name="case_latest"),
    path("notes/<str:note_id>/", views.note_page, name="note"),
]
