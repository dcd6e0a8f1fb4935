/* A case's map (the case page and the admin): numbered reference places and the routed legs (django-leaflet calls
   window.caseMapInit when the map is ready). Text goes in with textContent, never as HTML. */
(function () {
  "use strict";
  window.caseMapInit = function (map) {
    var holder = document.getElementById("case-map-data");
    if (!holder) { return; }
    var data = JSON.parse(holder.textContent);
    var streets = document.getElementById("case-map-streets");  // its data-url: the city's streets
    window.lpLoadStreets(map, streets ? streets.getAttribute("data-url") : null);
    var layer = L.geoJSON(data, {
      style: function () { return {color: "#c0392b", weight: 4, opacity: 0.8}; },
      pointToLayer: function (feature, latlng) {
        return L.marker(latlng, {icon: L.divIcon({className: "case-map-number", iconSize: [22, 22],
                                                  html: String(Number(feature.properties.number))})});
      },
      onEachFeature: function (feature, item) {
        var p = feature.properties, popup = document.createElement("span");
        popup.textContent = p.kind === "place"
          ? p.number + ". " + p.name + " (" + p.place_id + ")"
          : "leg " + p.leg + ": " + p.from + " to " + p.to + " (" + p.total_distance_m + " m, " + p.total_time_s + " s)";
        item.bindPopup(popup);
      }
    }).addTo(map);
    if (layer.getLayers().length) { map.fitBounds(layer.getBounds(), {padding: [24, 24]}); }
    window.caseMapLayer = layer;
  };
})();
