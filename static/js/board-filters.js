// The leaderboard's search and filters (templates/web/leaderboard.html) are open in the page, so that they
// work without scripts and stay in view on a desktop. On a phone, when nothing is filtered, they are folded
// behind their summary, so that the first screen shows the ranking itself: rank, model and overall PR.
(function () {
  "use strict";
  var fold = document.getElementById("board-filters");
  if (fold && fold.dataset.filtered !== "1" && window.matchMedia("(max-width: 40rem)").matches) {
    fold.open = false;
  }
})();
