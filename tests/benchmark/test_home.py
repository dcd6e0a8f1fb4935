import pytest

pytestmark = pytest.mark.django_db


def test_home_lists_built_cities_with_their_counts(client, grid_city):
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    counts = grid_city.report["counts"]
    assert "<td>gridtown</td>" in html
    assert f"<td>{counts['notes']}</td><td>{counts['comments']}</td>" in html
