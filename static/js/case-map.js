/* A case's map (the case page and the admin): numbered reference places and the routed legs (django-leaflet calls
   window.caseMapInit when the map is ready). Every place marker is named ("gold stop 2: Kamppi Chapel (N123)") by
   lpMarkers.name (static/js/map-markers.js) and decluttered like the replay's; legs name the places they join.
   Text goes in with textContent, never as HTML. */
(function () {
  "use strict";

  function placeName(name, placeId) { return (name ? name + " " : "") + "(" + placeId + ")"; }

  function describe(p, names) {
    if (p.kind === "place") { return "gold stop " + p.number + ": " + placeName(p.name, p.place_id); }
    return "gold leg " + p.leg + ": " + placeName(names[p.from], p.from) + " to " + placeName(names[p.to], p.to) +
      " (" + p.total_distance_m + " m, " + p.total_time_s + " s)";
  }

  window.caseMapInit = function (map) {
    var holder = document.getElementById("case-map-data");
    if (!holder) { return; }
    var data = JSON.parse(holder.textContent);
    var streets = document.getElementById("case-map-streets");  // its data-url: the city's streets
    window.lpLoadStreets(map, streets ? streets.getAttribute("data-url") : null);
    var names = {}, markers = [];
    data.features.forEach(function (f) { if (f.properties.kind === "place") { names[f.properties.place_id] = f.properties.name; } });
    var layer = L.geoJSON(data, {
      style: function () { return {color: "#c0392b", weight: 4, opacity: 0.8}; },
      pointToLayer: function (feature, latlng) {
        var number = document.createElement("span");
        number.textContent = String(Number(feature.properties.number));
        return L.marker(latlng, {icon: L.divIcon({className: "case-map-number", iconSize: [22, 22], html: number})});
      },
      onEachFeature: function (feature, item) {
        var text = describe(feature.properties, names), popup = document.createElement("span");
        popup.textContent = text;
        item.bindPopup(popup);
        if (item instanceof L.Marker) {
          window.lpMarkers.name(item, text);
          markers.push({marker: item, text: text});
        } else {
          item.bindTooltip(popup.cloneNode(true));
        }
      }
    });
    markers.forEach(function (m) { layer.removeLayer(m.marker); });  // the declutter draws them
    layer.addTo(map);
    var declutter = new window.lpMarkers.Declutter(map);
    declutter.set("case", markers);
    var bounds = L.latLngBounds(markers.map(function (m) { return m.marker.getLatLng(); }));
    layer.eachLayer(function (item) { if (item.getBounds) { bounds.extend(item.getBounds()); } });
    if (bounds.isValid()) { map.fitBounds(bounds, {padding: [24, 24], maxZoom: 17}); }
    declutter.refresh();
    map.getContainer().setAttribute("data-ready", "true");
    window.caseMapLayer = layer;
  };
})();
