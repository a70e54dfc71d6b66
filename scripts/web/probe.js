// Test instrumentation for scripts/check-export-html.sh (never shipped): once every widget block has settled
// (data-state set), writes what the page shows into <pre id="probe" hidden> as JSON, for chromium --dump-dom.
(function () {
  "use strict";
  var HOST = ["body", "main", "h1", "p", "#host-link", "#host-list", "#host-list li"];
  var PROPS = ["margin-top", "margin-left", "padding-left", "font-family", "font-size", "line-height", "color",
    "background-color", "list-style-type", "display", "max-width", "text-decoration-line", "border-top-width"];
  function settled() {
    return Array.prototype.every.call(document.querySelectorAll("section.showcase[data-src]"), function (s) {
      return s.hasAttribute("data-state");
    });
  }
  function rect(node) { return node ? node.getBoundingClientRect() : null; }
  function report() {
    var out = { dark: matchMedia("(prefers-color-scheme: dark)").matches, host: {} };
    HOST.forEach(function (selector) {
      var node = document.querySelector(selector);
      if (!node) return;
      var style = getComputedStyle(node), values = {};
      PROPS.forEach(function (prop) { values[prop] = style.getPropertyValue(prop); });
      out.host[selector] = values;
    });
    var section = document.querySelector("section.showcase");
    out.present = !!section;
    if (section) {
      out.lang = section.getAttribute("lang");
      out.dir = getComputedStyle(section).direction;
      // SPEC §19: every name, tagline and price is a bidi isolate.
      out.isolated = Array.prototype.every.call(
        section.querySelectorAll(".showcase-name, .showcase-tagline, .showcase-price"),
        function (node) {
          return node.children.length === 1 && node.firstElementChild.tagName === "BDI" &&
            getComputedStyle(node.firstElementChild).unicodeBidi === "isolate";
        });
      out.state = section.getAttribute("data-state");
      out.visible = getComputedStyle(section).display !== "none" && section.getBoundingClientRect().height > 0;
      var rows = section.querySelectorAll("li.showcase-app");
      out.ids = Array.prototype.map.call(rows, function (li) { return li.getAttribute("data-app-id"); });
      out.names = Array.prototype.map.call(rows, function (li) {
        var name = li.querySelector(".showcase-name");
        return name ? name.textContent : null;
      });
      var counts = {};
      Array.prototype.forEach.call(rows, function (li) { counts[li.querySelectorAll("a").length] = true; });
      out.linksPerRow = Object.keys(counts).map(Number);
      out.minRowHeight = Math.min.apply(null, Array.prototype.map.call(section.querySelectorAll(".showcase-link"),
        function (a) { return Math.round(a.getBoundingClientRect().height); }));
      var first = rows[0];
      if (first) {
        var icon = rect(first.querySelector(".showcase-icon")), badge = rect(first.querySelector(".showcase-badge"));
        // Beside the icon on the text's side: right of it, or left of it in a right-to-left block.
        var gap = !icon || !badge ? -1 : out.dir === "rtl" ? icon.left - badge.right : badge.left - icon.right;
        out.badgeBesideIcon = gap >= 0 && gap < 200 && badge.top < icon.bottom + 8;
        out.textColor = getComputedStyle(first.querySelector(".showcase-name")).color;
        var link = first.querySelector("a");
        link.focus();
        var focused = getComputedStyle(link);
        out.focusOutline = focused.outlineStyle === "none" ? "none" : focused.outlineStyle + " " + focused.outlineWidth;
        link.blur();
      }
    }
    var pre = document.createElement("pre");
    pre.id = "probe";
    pre.hidden = true;
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  var tries = 0;
  (function wait() {
    if (settled() || ++tries > 200) report(); else setTimeout(wait, 25);
  })();
})();
