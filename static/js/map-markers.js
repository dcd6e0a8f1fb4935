/* Marker names and decluttering for every map (the replay, the comparison, the case page, the admin's case map).
 *
 * lpMarkers.name(marker, text): the marker's hover text (title), its accessible name (aria-label on the icon, which
 * Leaflet makes focusable with keyboard: true) and a tooltip, all from one untrusted string set as text, never HTML.
 *
 * lpMarkers.Declutter(map): numbered markers whose icons would overlap at the current zoom are shown as one count
 * badge, re-grouped on every zoom. Grouping is greedy in the order given (search rank, stop number): a marker joins
 * the first group whose first marker lies closer than SPACING pixels on both axes, else it starts a group at its own
 * position. A group is drawn at its first marker's position, so two drawn icons are always at least SPACING apart
 * on one axis, and every icon is at most SPACING - 4 pixels wide: they never overlap, and the best-ranked marker
 * keeps its place. Clicking a badge (or Enter on it) zooms in until its markers separate; where the map cannot zoom
 * further (places at one spot) it opens a list that names each of them.
 */
(function () {
  "use strict";

  var SPACING = 34;  // px; the widest icon drawn is 30 px (a 26 px badge with a 2 px border), its pile shadow 3 px
  var BADGE = 26;
  var LIST_IN_TOOLTIP = 6;

  function name(marker, text, tooltip) {
    text = String(text);
    marker.options.title = text;  // Leaflet writes it as the icon's title attribute
    marker.on("add", function () {
      var icon = marker.getElement();
      if (icon) { icon.setAttribute("aria-label", text); }
    });
    var tip = document.createElement("span");
    tip.textContent = tooltip === undefined ? text : String(tooltip);
    marker.bindTooltip(tip, {direction: "top", offset: [0, -12]});
    return marker;
  }

  function Declutter(map) {
    var self = this;
    this.map = map;
    this.owners = {};
    this.order = [];
    this.layer = L.layerGroup().addTo(map);
    this.focusAfter = null;
    map.on("zoomend", function () { self.refresh(); });
  }

  /* items: [{marker: L.Marker (not on the map), text: its name}] for owner (a track, the case map). */
  Declutter.prototype.set = function (owner, items) {
    if (!(owner in this.owners)) { this.order.push(owner); }
    this.owners[owner] = items;
  };

  Declutter.prototype.items = function (owner) {
    var self = this;
    if (owner !== undefined) { return this.owners[owner] || []; }
    return this.order.reduce(function (all, key) { return all.concat(self.owners[key]); }, []);
  };

  Declutter.prototype.groups = function () {
    var map = this.map, groups = [];
    this.items().forEach(function (item) {
      var at = map.latLngToLayerPoint(item.marker.getLatLng());
      var group = null;
      for (var i = 0; i < groups.length && !group; i += 1) {
        if (Math.abs(groups[i].at.x - at.x) < SPACING && Math.abs(groups[i].at.y - at.y) < SPACING) { group = groups[i]; }
      }
      if (group) { group.items.push(item); } else { groups.push({at: at, items: [item]}); }
    });
    return groups;
  };

  Declutter.prototype.refresh = function () {
    var self = this, focus = this.focusAfter;
    this.focusAfter = null;
    this.layer.clearLayers();
    this.groups().forEach(function (group) {
      var shown = group.items.length === 1 ? group.items[0].marker : self.badge(group.items);
      self.layer.addLayer(shown);
      if (focus && group.items.indexOf(focus) >= 0 && shown.getElement()) { shown.getElement().focus(); }
    });
    this.map.getContainer().setAttribute("data-grouped-at-zoom", String(this.map.getZoom()));  // for tests
  };

  Declutter.prototype.badge = function (items) {
    var self = this, count = items.length;
    var texts = items.map(function (item) { return item.text; });
    var label = document.createElement("span");
    label.className = "lp-marker-fill";
    label.textContent = String(count);
    var marker = L.marker(items[0].marker.getLatLng(), {
      icon: L.divIcon({className: "lp-marker lp-cluster", iconSize: [BADGE, BADGE], iconAnchor: [BADGE / 2, BADGE / 2],
                       html: label}),
      keyboard: true, riseOnHover: true
    });
    var shortList = texts.slice(0, LIST_IN_TOOLTIP).join("; ") + (count > LIST_IN_TOOLTIP ? "; ..." : "");
    name(marker, count + " places here: " + texts.join("; ") + ". Click or press Enter to zoom in.",
         count + " places here: " + shortList);
    marker.on("add", function () { marker.getElement().setAttribute("data-count", String(count)); });
    marker.on("click", function () { self.expand(items, marker, false); });
    marker.on("keypress", function (event) {  // Enter on the focused badge (Leaflet sends keypress, not click)
      if (event.originalEvent.key === "Enter") { self.expand(items, marker, true); }
    });
    return marker;
  };

  Declutter.prototype.expand = function (items, marker, byKeyboard) {  // zoom in, or list them where zoom cannot
    var map = this.map;
    var bounds = L.latLngBounds(items.map(function (item) { return item.marker.getLatLng(); }));
    var zoom = Math.min(map.getMaxZoom(), map.getBoundsZoom(bounds.pad(0.5)));
    if (zoom > map.getZoom()) {
      this.focusAfter = byKeyboard ? items[0] : null;
      map.setView(bounds.getCenter(), zoom, {animate: false});  // regrouped at once: a second click meets the new groups
      return;
    }
    var list = document.createElement("ul");
    list.className = "lp-cluster-list";
    items.forEach(function (item) {
      var entry = document.createElement("li");
      entry.textContent = item.text;
      list.appendChild(entry);
    });
    marker.closeTooltip();  // the popup's list says the same, in full
    L.popup({offset: [0, -8]}).setLatLng(marker.getLatLng()).setContent(list).openOn(map);
  };

  window.lpMarkers = {name: name, Declutter: Declutter, SPACING: SPACING};
}());
