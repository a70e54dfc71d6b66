/*
 * "More from this developer" from showcased's static export: no dependencies, no build step.
 *
 * Reads <section class="showcase" data-src data-host data-storefront [data-locale]>, fetches
 * DATA-SRC/HOST/STOREFRONT/PLATFORM.json (one document per host, storefront and platform; see README
 * "Static export"), keeps the apps that run on the visitor's device and OS version, and lists each with
 * icon, name, tagline, price and a store link. ?host= and ?storefront= on the page URL override the
 * attributes. The section gets data-state="ready", "empty" or "error" when done.
 *
 * Nothing in a document or the page URL is trusted: href and src are set only from https: URLs or paths inside
 * the tree (safeURL), an app without a usable store link is not listed, and host and storefront must look like a
 * bundle id and a two-letter code (validHost, validStorefront) or the block shows nothing and fetches nothing:
 * ?host=..%2F..%2Fevil would otherwise fetch a file outside the export and render its links.
 */
(function () {
  "use strict";

  // The visitor from the user agent: the store to show (ios | macos), the device family, and the OS version
  // when the user agent tells it.
  function visitor(userAgent, maxTouchPoints) {
    var ios = /\b(iPhone|iPad|iPod)\b[^)]*? OS (\d+(?:_\d+)*)/.exec(userAgent);
    if (ios) {
      return { platform: "ios", device: ios[1] === "iPad" ? "ipad" : "iphone", osVersion: ios[2].replace(/_/g, ".") };
    }
    if (/\bMacintosh\b/.test(userAgent)) {
      // iPadOS asks for desktop pages with a Mac user agent; only the touch screen gives it away.
      if (maxTouchPoints > 1) {
        var version = /\bVersion\/(\d+(?:\.\d+)*)/.exec(userAgent);
        return { platform: "ios", device: "ipad", osVersion: version ? version[1] : null };
      }
      // Safari reports macOS as 10_15_7 whatever the release: no OS floor can be checked on a Mac.
      return { platform: "macos", device: "mac", osVersion: null };
    }
    // Any other browser: the iOS store, every iPhone and iPad app.
    return { platform: "ios", device: null, osVersion: null };
  }

  // Compares dotted versions numerically per component ("9.0" < "18.0", "17" == "17.0").
  function compareVersions(a, b) {
    var x = String(a).split("."), y = String(b).split(".");
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      var d = (parseInt(x[i], 10) || 0) - (parseInt(y[i], 10) || 0);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    return 0;
  }

  function runsOn(app, who) {
    if (who.platform === "ios" && who.device) {
      // A document without device families (older exports) means iPhone and iPad, as the lookup API does.
      var devices = app.devices || ["iphone", "ipad"];
      if (devices.indexOf(who.device) < 0) return false;
    }
    return !who.osVersion || compareVersions(app.minimumOsVersion, who.osVersion) <= 0;
  }

  // The tagline for the page's locale when it names one (exact tag, then its language, then default),
  // else the one the export resolved for the storefront's own locale.
  function tagline(app, locale) {
    if (!locale || !app.taglines) return app.tagline || "";
    var map = {};
    Object.keys(app.taglines).forEach(function (key) { map[key.toLowerCase().replace(/_/g, "-")] = app.taglines[key]; });
    var tag = locale.toLowerCase().replace(/_/g, "-");
    return map[tag] || map[tag.split("-")[0]] || map["default"] || "";
  }

  // A URL the widget may put in href or src: an absolute https: URL without userinfo, or a relative path inside
  // the export tree (no scheme, no leading "/" so no "//host" either, no "." or ".." segment, %2e included),
  // resolved against base. Anything else (javascript:, data:, http:, ../) is null and never set. Whitespace,
  // controls and backslashes are refused outright: browsers strip or reinterpret them ("java\tscript:").
  function safeURL(value, base) {
    if (typeof value !== "string" || value === "" || /[\s\u0000-\u001f\u007f\\]/.test(value)) return null;
    if (/^https:\/\//i.test(value)) {
      var url;
      try { url = new URL(value); } catch (error) { return null; }
      return url.protocol === "https:" && !url.username && !url.password ? value : null;
    }
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || value.charAt(0) === "/") return null;
    var segments = value.split(/[?#]/)[0].split("/");
    for (var i = 0; i < segments.length; i++) {
      var segment = segments[i].replace(/%2e/gi, ".");
      if (segment === "." || segment === "..") return null;
    }
    return base + value;
  }

  // A host is a bundle id: letters, digits, dots and hyphens, starting with a letter or digit, no "..".
  function validHost(host) {
    return typeof host === "string" && /^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(host) && host.indexOf("..") < 0;
  }

  // A storefront is a two-letter code (lowercased first: ?storefront=DE is de).
  function validStorefront(storefront) {
    return /^[a-z]{2}$/.test(storefront);
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function item(app, locale, base) {
    var li = element("li", "showcase-app");
    li.setAttribute("data-app-id", String(app.id));
    var icon = element("div", "showcase-icon", app.name.charAt(0));
    var img = document.createElement("img");
    img.alt = "";
    img.loading = "lazy";
    img.onload = function () { icon.textContent = ""; icon.appendChild(img); };
    var src = safeURL(app.iconUrl, base);
    if (src) img.src = src;
    li.appendChild(icon);
    li.appendChild(element("span", "showcase-name", app.name));
    if (app.formattedPrice) li.appendChild(element("span", "showcase-price", app.formattedPrice));
    var text = tagline(app, locale);
    if (text) li.appendChild(element("span", "showcase-tagline", text));
    var badge = element("a", "showcase-badge", app.platform === "macos" ? "Mac App Store" : "App Store");
    badge.href = safeURL(app.storeUrl, base);
    badge.target = "_blank";
    badge.rel = "noopener";
    badge.setAttribute("aria-label", "Get " + app.name + " on the " + badge.textContent);
    li.appendChild(badge);
    return li;
  }

  function show(section) {
    var query = new URLSearchParams(window.location.search);
    var host = query.get("host") || section.getAttribute("data-host");
    var storefront = (query.get("storefront") || section.getAttribute("data-storefront") || "us").toLowerCase();
    var base = section.getAttribute("data-src") || "/showcase/v1/";
    var who = visitor(navigator.userAgent, navigator.maxTouchPoints || 0);
    var list = section.querySelector(".showcase-apps");
    section.setAttribute("data-platform", who.platform);
    if (!validHost(host) || !validStorefront(storefront)) {
      // Shown as nothing, and nothing fetched: the path is built from these two.
      section.hidden = true;
      section.setAttribute("data-state", "error");
      if (window.console) console.warn("showcase widget: refusing host", host, "storefront", storefront);
      return Promise.resolve();
    }
    var url = base + encodeURIComponent(host) + "/" + encodeURIComponent(storefront) + "/" + who.platform + ".json";
    return fetch(url, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(url + " answered " + response.status);
        return response.json();
      })
      .then(function (documentJSON) {
        var apps = (documentJSON.apps || []).filter(function (app) {
          // An app whose store link is not safe to set is not listed: the row is its link.
          return runsOn(app, who) && safeURL(app.storeUrl, base) !== null;
        });
        apps.forEach(function (app) { list.appendChild(item(app, section.getAttribute("data-locale"), base)); });
        if (apps.length === 0) list.appendChild(element("li", "showcase-empty", "No other apps for this device yet."));
        section.setAttribute("data-state", apps.length ? "ready" : "empty");
      })
      .catch(function (error) {
        // The page stays usable without the block: hide it and say why in the console.
        section.hidden = true;
        section.setAttribute("data-state", "error");
        if (window.console) console.warn("showcase widget:", error);
      });
  }

  Array.prototype.forEach.call(document.querySelectorAll("section.showcase"), show);
})();
