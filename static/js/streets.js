/* The offline base layer every map draws: the city's streets from our own road data
 * (/city/<name>/streets.geojson, benchmark/web/replay/streets.py), on a canvas in its own pane between
 * the tiles (when MAP_TILE_URL sets any) and our layers. Sets data-streets="loaded" or "failed"
 * on the map's container. With no tile layer configured, django-leaflet still adds an empty
 * layers control; it is removed here, since there is nothing to choose.
 */
(function () {
  "use strict";

  var STREET_STYLE = {
    major: {color: "#9aa5ad", weight: 3, opacity: 0.8},
    street: {color: "#b4bdc3", weight: 2, opacity: 0.8},
    path: {color: "#c9d0d4", weight: 1, opacity: 0.8, dashArray: "3 3"}
  };

  window.lpLoadStreets = function (map, url) {
    if (map.layerscontrol && !map.layerscontrol._layers.length) {
      map.removeControl(map.layerscontrol);
      map.layerscontrol = null;
    }
    if (!url || !window.fetch) { return; }
    var pane = map.createPane("lp-streets");
    pane.style.zIndex = 250;  // above tiles (200), below our layers (400)
    pane.style.pointerEvents = "none";
    window.fetch(url, {credentials: "same-origin"}).then(function (response) {
      if (!response.ok) { throw new Error("streets: HTTP " + response.status); }
      return response.json();
    }).then(function (streets) {
      L.geoJSON(streets, {pane: "lp-streets", interactive: false, renderer: L.canvas({pane: "lp-streets"}),
                          style: function (f) { return STREET_STYLE[f.properties["class"]] || STREET_STYLE.path; }})
        .addTo(map);
      map.getContainer().setAttribute("data-streets", "loaded");
    }).catch(function () { map.getContainer().setAttribute("data-streets", "failed"); });
  };
}());
