// Starts each Leaflet map of the page ([data-leaflet-map]: the id of its JSON options), as django-leaflet's
// inline script would (the Content-Security-Policy runs no inline script): on the page's load event, with
// django-leaflet's L.Map.djangoMap and options, then window[data-callback](map, options).
(function () {
  "use strict";

  function start(element) {
    if (element.dataset.mapStarted) { return; }
    element.dataset.mapStarted = "1";
    var source = document.getElementById(element.dataset.leafletMap);
    var djoptions = JSON.parse(source.textContent);
    var callback = element.dataset.callback ? window[element.dataset.callback] : null;
    function load() {
      L.Map.djangoMap(element.id, {
        djoptions: djoptions, initfunc: load, globals: false, callback: callback || function () {}
      });
    }
    load();
  }

  function startAll() { document.querySelectorAll("[data-leaflet-map]").forEach(start); }
  if (document.readyState === "complete") { startAll(); } else { window.addEventListener("load", startAll); }
})();
