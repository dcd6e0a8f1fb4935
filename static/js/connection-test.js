// The submit form's connection test: a worker makes the call, so the page polls the test's JSON
// ([data-connection-test-url]) every second, showing its state and the seconds spent, until it has
// finished, then shows the result in place
// (built as text nodes, never HTML: the message quotes the endpoint's own words).
(function () {
  "use strict";
  var INTERVAL_MS = 1000;

  function strong(text) {
    var element = document.createElement("strong");
    element.textContent = text;
    return element;
  }

  function showResult(block, data) {
    block.replaceChildren();
    block.className = "connection-test connection-" + (data.ok ? "ok" : "failed");
    block.append("Connection test: ");
    if (data.ok) {
      block.append(strong("ok"), ", " + data.message + " in " + data.latency_ms + " ms. ");
      block.append("Submit now: a key you typed is kept for it (it is never sent back to the page).");
    } else {
      block.append(strong("failed"), ": " + data.message);
    }
  }

  function follow(block) {
    var url = block.dataset.connectionTestUrl;
    var state = block.querySelector('[data-field="state"]');
    var elapsed = block.querySelector('[data-field="elapsed"]');
    var started = Date.now();
    function poll() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          return response.json();
        })
        .then(function (data) {
          if (data.finished) { showResult(block, data); return; }
          if (state) { state.textContent = data.state; }
          if (elapsed) { elapsed.textContent = ", " + Math.round((Date.now() - started) / 1000) + " s"; }
          window.setTimeout(poll, INTERVAL_MS);
        })
        .catch(function (error) {
          if (state) { state.textContent = "unknown (" + error.message + "), retrying"; }
          window.setTimeout(poll, INTERVAL_MS * 3);
        });
    }
    window.setTimeout(poll, INTERVAL_MS);
  }

  function start() { document.querySelectorAll("[data-connection-test-url]").forEach(follow); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
