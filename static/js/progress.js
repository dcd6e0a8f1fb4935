// Live progress of a run: polls the JSON of every [data-progress-url] block while the run is queued
// or running, updates the counts (as text, never HTML), and reloads the page once it has finished
// so the page shows the results. Without JavaScript the block keeps the counts of page load.
(function () {
  "use strict";
  var ACTIVE = ["queued", "running"];
  var INTERVAL_MS = 3000;

  function setText(block, name, value) {
    var element = block.querySelector('[data-field="' + name + '"]');
    if (element) { element.textContent = String(value); }
  }

  function show(block, data) {
    var progress = data.progress || {};
    Object.keys(progress).forEach(function (name) { setText(block, name, progress[name]); });
    setText(block, "status", data.status);
    var bar = block.querySelector('[data-field="bar"]');
    if (bar) { bar.max = progress.total || 0; bar.value = progress.done || 0; }
    setText(block, "note", "Updated " + new Date().toLocaleTimeString() + ".");
    block.dataset.status = data.status;
  }

  function follow(block) {
    if (ACTIVE.indexOf(block.dataset.status) < 0 || block.dataset.following) { return; }
    block.dataset.following = "1";
    var url = block.dataset.progressUrl;
    function poll() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          return response.json();
        })
        .then(function (data) {
          show(block, data);
          if (data.finished) { window.location.reload(); } else { window.setTimeout(poll, INTERVAL_MS); }
        })
        .catch(function (error) {
          setText(block, "note", "Could not update (" + error.message + "); retrying.");
          window.setTimeout(poll, INTERVAL_MS * 2);
        });
    }
    window.setTimeout(poll, INTERVAL_MS);
  }

  function start() { document.querySelectorAll("[data-progress-url]").forEach(follow); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
