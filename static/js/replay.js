/* Trajectory replay: a timeline of tool calls drawn on a Leaflet map (django-leaflet).
 *
 * Data comes from the json_script element "replay-data": {tracks: [{key, label, color, steps:
 * [{tool, features}], answer: [features]}], reference: [features] | null, streets_url}. Each
 * track has server-rendered panels (.step-panel[data-position]) inside [data-track=KEY]; the
 * timeline shows one at a time. Every text from the data (names, instructions, notes) is
 * untrusted and is written with textContent only, never as HTML.
 *
 * Every layer is named ("result 3: Kamppi Chapel (N123) 120 m", "gold stop 2: ...", on the comparison prefixed with
 * the run's label): tooltip, popup, and on the element title and aria-label (static/js/map-markers.js). Numbered
 * markers go through the map's declutter, which groups those that would overlap into count badges.
 */
(function () {
  "use strict";

  var REFERENCE_COLOR = "#2e7d32";
  var PLAY_MS = 1600;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function labelIcon(text, className, color, size) {
    var label = el("span", "lp-marker-fill", text);
    size = size || 22;
    if (color) { label.style.backgroundColor = color; }  // the track's colour, from our own constants
    return L.divIcon({className: "lp-marker " + className, iconSize: [size, size], iconAnchor: [size / 2, size / 2],
                      html: label});
  }

  function placeName(p) {  // "Kamppi Chapel (N123)"; the id alone when the city has no name for it
    if (!p.place_id) { return p.name || ""; }
    return (p.name ? p.name + " " : "") + "(" + p.place_id + ")";
  }

  function what(p, role) {  // what a feature is, in words: "result 3", "start A", "gold stop 2"
    var gold = role === "reference" ? "gold " : "";
    switch (p.kind) {
      case "result": return "result " + p.rank;
      case "endpoint": return (p.label === "A" ? "start " : "end ") + p.label;
      case "stop": return (gold || "answer ") + "stop " + p.number;
      case "leg": return gold + "leg " + p.leg;
      case "turn": return "turn " + p.number;
      case "center": return "search centre";
      case "circle": return "search radius " + p.radius_m + " m";
      case "buffer": return "search buffer " + p.radius_m + " m";
      case "route": return "route";
      default: return String(p.kind);
    }
  }

  function describe(p, role) {
    var parts = [what(p, role) + ":"];
    if (placeName(p)) { parts.push(placeName(p)); }
    if (p.from && p.to) {  // a leg: the places it joins
      parts.push(placeName({name: p.from_name, place_id: p.from}) + " to " + placeName({name: p.to_name, place_id: p.to}));
    }
    if (p.instruction) { parts.push(p.instruction); }
    if (p.distance_m !== undefined && p.distance_m !== null) { parts.push(p.distance_m + " m"); }
    if (p.total_distance_m !== undefined) { parts.push(p.total_distance_m + " m, " + p.total_time_s + " s"); }
    if (p.flagged) { parts.push("— cited but never fetched"); }
    return parts.join(" ");
  }

  function pointLayer(feature, latlng, color, role) {
    var p = feature.properties, kind = p.kind;
    if (role === "reference") {  // a ring under the agent's marker: where both name a place, both show
      return L.marker(latlng, {icon: labelIcon(p.number, "lp-reference-stop", null, 38), pane: "lp-reference-markers"});
    }
    if (kind === "result") { return L.marker(latlng, {icon: labelIcon(p.rank, "lp-result", color)}); }
    if (kind === "endpoint") { return L.marker(latlng, {icon: labelIcon(p.label, "lp-endpoint")}); }
    if (kind === "stop") {
      return L.marker(latlng, {icon: labelIcon(p.number, "lp-stop" + (p.flagged ? " lp-flagged" : ""),
                                               p.flagged ? null : color)});
    }
    if (kind === "circle") {
      return L.circle(latlng, {radius: Number(p.radius_m) || 0, color: color, weight: 2, fillOpacity: 0.06,
                               className: "lp-step lp-circle"});
    }
    if (kind === "turn") {
      return L.circleMarker(latlng, {radius: 4, color: color, weight: 2, fillColor: "#fff", fillOpacity: 1,
                                     className: "lp-step lp-turn"});
    }
    return L.circleMarker(latlng, {radius: 8, color: color, weight: 3, fillOpacity: 0.3,
                                   className: "lp-step lp-" + kind});
  }

  function pathStyle(feature, color, role) {
    var kind = feature.properties.kind;
    if (kind === "buffer") { return {color: color, weight: 1, fillOpacity: 0.12, className: "lp-step lp-buffer"}; }
    if (role === "reference") {
      return {color: REFERENCE_COLOR, weight: 6, opacity: 0.6, dashArray: "8 6", className: "lp-step lp-reference",
              pane: "lp-reference"};
    }
    return {color: color, weight: 4, opacity: 0.85, className: "lp-step lp-" + kind};
  }

  /* A path's name; a point drawn as a path (a search centre, a place, a turn) is focusable like a marker, and
     Enter opens its popup as it does a marker's. */
  function namePath(layer, text) {
    var path = layer.getElement();
    if (!path) { return; }
    path.setAttribute("aria-label", text);
    if (layer instanceof L.CircleMarker && !(layer instanceof L.Circle)) {
      path.setAttribute("tabindex", "0");
      path.setAttribute("role", "button");
    }
  }

  /* Draws features into group; returns the numbered markers (results, endpoints, stops) for the declutter instead
     of adding them, except the reference's rings, which sit under the agent's stops on purpose. Every layer is
     named: icons by lpMarkers.name (title, aria-label, tooltip), paths by a tooltip and an aria-label. */
  function drawFeatures(group, features, color, role, prefix) {
    var markers = [];
    if (!features || !features.length) { return markers; }
    L.geoJSON({type: "FeatureCollection", features: features}, {
      pointToLayer: function (feature, latlng) { return pointLayer(feature, latlng, color, role); },
      style: function (feature) { return pathStyle(feature, color, role); },
      onEachFeature: function (feature, layer) {
        var text = (prefix || "") + describe(feature.properties, role);
        layer.bindPopup(el("span", "", text));
        if (layer instanceof L.Marker) {
          window.lpMarkers.name(layer, text);
          if (role !== "reference") { markers.push({marker: layer, text: text}); return; }
        } else {
          layer.bindTooltip(el("span", "", text));
          layer.on("add", function () { namePath(layer, text); });
        }
        group.addLayer(layer);
      }
    });
    return markers;
  }

  function Track(replay, data, root) {
    this.replay = replay;
    this.data = data;
    this.root = root;
    this.count = data.steps.length;  // positions 0..count-1 are steps, count is the final answer
    this.position = 0;
    this.timer = null;
    this.group = L.featureGroup().addTo(replay.map);  // paths; numbered markers go to replay.declutter
    this.markers = [];
    this.panels = root.querySelectorAll(".step-panel");
    this.links = root.querySelectorAll(".step-list a[data-position]");
    this.label = root.querySelector(".timeline .position");
    this.mapFrom = root.querySelector(".timeline .map-from");
    this.drawnFrom = 0;
    this.bind();
  }

  Track.prototype.bind = function () {
    var self = this, timeline = this.root.querySelector(".timeline");
    timeline.hidden = false;
    timeline.addEventListener("click", function (event) {
      var action = event.target.getAttribute("data-action");
      self.replay.active = self;
      if (action === "prev") { self.stop(); self.show(self.position - 1); }
      if (action === "next") { self.stop(); self.show(self.position + 1); }
      if (action === "play") { self.toggle(); }
    });
    Array.prototype.forEach.call(this.links, function (link) {
      link.addEventListener("click", function (event) {
        event.preventDefault();
        self.replay.active = self;
        self.stop();
        self.show(Number(link.getAttribute("data-position")));
      });
    });
    this.root.addEventListener("mousedown", function () { self.replay.active = self; });
  };

  /* The features the map shows at a position: the step's own, or, for a step that draws nothing (reading a
     note, a failed call), the last earlier step's that drew something, so the map keeps its place. */
  Track.prototype.features = function (position) {
    this.drawnFrom = position;
    if (position >= this.count) { return this.data.answer; }
    for (var p = position; p >= 0; p--) {
      var features = this.data.steps[p].features;
      if (features && features.length) { this.drawnFrom = p; return features; }
    }
    return [];
  };

  Track.prototype.show = function (position) {
    position = Math.max(0, Math.min(this.count, position));
    this.position = position;
    this.group.clearLayers();
    this.markers = drawFeatures(this.group, this.features(position), this.data.color, "agent", this.replay.prefix(this));
    this.replay.declutter.set(this.data.key, this.markers);
    Array.prototype.forEach.call(this.panels, function (panel) {
      panel.hidden = Number(panel.getAttribute("data-position")) !== position;
    });
    Array.prototype.forEach.call(this.links, function (link) {
      if (Number(link.getAttribute("data-position")) === position) { link.setAttribute("aria-current", "step"); }
      else { link.removeAttribute("aria-current"); }
    });
    this.label.textContent = position < this.count
      ? "Step " + (position + 1) + " of " + this.count + ": " + this.data.steps[position].tool
      : "Final answer";
    if (this.mapFrom) {
      var carried = this.drawnFrom !== position;
      this.mapFrom.hidden = !carried;
      this.mapFrom.textContent = carried ? "(the map of step " + (this.drawnFrom + 1) + ": this step draws nothing)" : "";
      this.root.setAttribute("data-map-from", String(this.drawnFrom));
    }
    this.root.querySelector("[data-action=prev]").disabled = position === 0;
    this.root.querySelector("[data-action=next]").disabled = position === this.count;
    this.root.setAttribute("data-position", String(position));
    this.replay.changed();
    if (this.replay.data.step_urls) { this.replay.remember(position === this.count ? "answer" : position + 1); }
  };

  Track.prototype.toggle = function () {
    var self = this;
    if (this.timer) { this.stop(); return; }
    if (this.position === this.count) { this.show(0); }
    this.root.querySelector("[data-action=play]").textContent = "Pause";
    this.timer = window.setInterval(function () {
      if (self.position >= self.count) { self.stop(); return; }
      self.show(self.position + 1);
    }, PLAY_MS);
  };

  Track.prototype.stop = function () {
    if (this.timer) { window.clearInterval(this.timer); }
    this.timer = null;
    this.root.querySelector("[data-action=play]").textContent = "Play";
  };

  function makePane(map, name, zIndex) {
    map.createPane(name).style.zIndex = zIndex;
  }

  function Replay(map, data) {
    var self = this;
    makePane(map, "lp-reference", 390);  // below the overlay pane (400) with the agent's lines
    makePane(map, "lp-reference-markers", 590);  // below the marker pane (600)
    this.map = map;
    this.data = data;
    this.declutter = new window.lpMarkers.Declutter(map);
    this.reference = L.featureGroup();
    drawFeatures(this.reference, data.reference, REFERENCE_COLOR, "reference");
    this.tracks = data.tracks.map(function (trackData) {
      var root = document.querySelector("[data-track=\"" + trackData.key + "\"]");
      return new Track(self, trackData, root);
    });
    this.active = this.tracks[0];
  }

  Replay.prototype.prefix = function (track) {  // on the comparison, a marker's name says whose it is
    return this.data.tracks.length > 1 ? track.data.label + ", " : "";
  };

  Replay.prototype.changed = function () {
    var atAnswer = this.tracks.some(function (t) { return t.position === t.count; });
    if (atAnswer && !this.map.hasLayer(this.reference)) { this.reference.addTo(this.map); }
    if (!atAnswer && this.map.hasLayer(this.reference)) { this.map.removeLayer(this.reference); }
    this.fit();
    this.declutter.refresh();
  };

  Replay.prototype.fit = function () {
    var bounds = L.latLngBounds([]);
    this.tracks.forEach(function (t) {
      if (t.group.getLayers().length) { bounds.extend(t.group.getBounds()); }
      t.markers.forEach(function (item) { bounds.extend(item.marker.getLatLng()); });
    });
    if (this.map.hasLayer(this.reference) && this.reference.getLayers().length) {
      bounds.extend(this.reference.getBounds());
    }
    if (bounds.isValid()) { this.map.fitBounds(bounds.pad(0.15), {maxZoom: 17, animate: false}); }
  };

  Replay.prototype.remember = function (step) {  // ?step=N (or answer) names the step shown: a permalink
    if (!window.history || !window.history.replaceState || !window.URLSearchParams) { return; }
    var params = new URLSearchParams(window.location.search);
    if (params.get("step") === String(step)) { return; }
    params.set("step", String(step));
    window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
  };

  function hashPosition(count) {  // #A-step-N or #A-answer, the step list's anchors
    var match = /^#[A-Z]-(?:step-(\d+)|(answer))$/.exec(window.location.hash);
    if (!match) { return null; }
    return match[2] ? count : Math.max(0, Math.min(count, Number(match[1]) - 1));
  }

  Replay.prototype.start = function () {
    var data = this.data;
    this.tracks.forEach(function (t) {
      var fromHash = data.step_urls ? hashPosition(t.count) : null;
      t.show(fromHash !== null ? fromHash : (data.start || 0));
    });
  };

  function onKey(replay, event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable) { return; }
    if (replay.map.getContainer().contains(event.target)) { return; }  // the focused map pans with the arrows
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var track = replay.active;
    if (event.key === "ArrowRight") { track.stop(); track.show(track.position + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { track.stop(); track.show(track.position - 1); event.preventDefault(); }
  }

  window.lpReplayInit = function (map) {
    var node = document.getElementById("replay-data");
    if (!node) { return; }
    var data = JSON.parse(node.textContent);
    window.lpLoadStreets(map, data.streets_url);
    var replay = new Replay(map, data);
    document.addEventListener("keydown", function (event) { onKey(replay, event); });
    replay.start();
    window.lpReplay = replay;
    map.getContainer().setAttribute("data-ready", "true");
  };
}());
