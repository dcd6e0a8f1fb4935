from django.shortcuts import render

from .selectors import city_summaries


def home(request):
    return render(request, "benchmark/home.html", {"cities": city_summaries()})
