/*
 * "More from this developer" from showcased's static export: no dependencies, no build step.
 *
 * Reads <section class="showcase" data-src data-host data-storefront [data-locale]> and fills it with the
 * markup showcased writes to <platform>.html (SPEC §14), so showcase-widget.css styles both alike:
 *
 *   <ul class="showcase-apps"><li class="showcase-app" data-app-id><a class="showcase-link" href aria-label>
 *     <img class="showcase-icon"><span class="showcase-text"><span class="showcase-name"><bdi>…</bdi></span>
 *     <span class="showcase-tagline"><bdi>…</bdi></span><span class="showcase-meta">
 *     <span class="showcase-price"><bdi>…</bdi></span><span class="showcase-badge">App Store</span></span></span>
 *   </a></li>…</ul>
 *
 * Language and direction (SPEC §19): the section takes the document's "locale" as its lang, and dir="rtl" when
 * that language is written right to left (ar, he, fa, ur); each text from the document (name, tagline, price) is
 * the only content of a <bdi>, a bidi isolate, so a control character in a name cannot reorder the price and
 * badge after it (the span around it keeps the block's direction and alignment). Each row's accessible name is the document's "labels".app_link ("{name}, {store}" in
 * its language, the overlay's labels applied), filled in one pass.
 *
 * Which document: DATA-SRC/index.json says which languages each storefront is exported in. When the page's
 * language (data-locale, else navigator.language) is one of them, the widget loads
 * HOST/STOREFRONT/LANGUAGE/PLATFORM.json (a French-Canadian visitor reads the French names and prices), else the
 * storefront's default HOST/STOREFRONT/PLATFORM.json. data-storefront="auto" takes the region of the first
 * navigator.languages entry (fr-CA → ca) that index.json lists for the host, and shows nothing if none is.
 * The platform, device and OS version come from the user agent; apps that do not run there are not listed.
 * ?host= and ?storefront= on the page URL override the attributes. The section gets data-state="ready",
 * "empty" or "error"; empty and error hide the whole section (no heading, no gap).
 *
 * Nothing in a document or the page URL is trusted: href and src are set only from https: URLs or paths inside
 * the tree (safeURL), an app without a usable store link is not listed, and host and storefront must look like a
 * bundle id and a two-letter code (validHost, validStorefront) or the block shows nothing and fetches nothing:
 * ?host=..%2F..%2Fevil would otherwise fetch a file outside the export and render its links.
 */
(function () {
  "use strict";

  var ICON_SIZE = 64; // CSS pixels; showcase-widget.css and the daemon's fragments use the same.

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

  // The languages written right to left: a document in one gets dir="rtl" (the fragment's rule).
  var RIGHT_TO_LEFT = ["ar", "he", "iw", "fa", "ur"];

  // A BCP 47 tag as a document's "locale" holds it: a 2-3 letter language, then subtags ("fr-CA", "zh-Hant-TW").
  function validLocale(tag) {
    return typeof tag === "string" && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag);
  }

  // The accessible name of a row: the document's app_link label with {name} and {store} filled in one pass (a
  // name reading "{store}" stays as it is), else "Name, App Store".
  function accessibleName(template, name, store) {
    if (typeof template !== "string" || template.indexOf("{name}") < 0) template = "{name}, {store}";
    return template.replace(/\{(name|store)\}/g, function (_, key) { return key === "name" ? name : store; });
  }

  // A BCP 47 tag lowercased with "-" ("pt_BR" → "pt-br"); "" when none.
  function normalizedTag(tag) {
    return typeof tag === "string" ? tag.toLowerCase().replace(/_/g, "-") : "";
  }

  // The tagline for the page's locale when it names one (exact tag, then its language, then default),
  // else the one the export resolved for the storefront's own locale.
  function tagline(app, locale) {
    if (!locale || !app.taglines) return app.tagline || "";
    var map = {};
    Object.keys(app.taglines).forEach(function (key) { map[normalizedTag(key)] = app.taglines[key]; });
    var tag = normalizedTag(locale);
    return map[tag] || map[tag.split("-")[0]] || map["default"] || app.tagline || "";
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
    return typeof storefront === "string" && /^[a-z]{2}$/.test(storefront);
  }

  // A language as index.json lists it: ISO 639-1, two lowercase letters.
  function validLanguage(language) {
    return typeof language === "string" && /^[a-z]{2}$/.test(language);
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // A line holding text from the document in its own bidi isolate: <span class><bdi>text</bdi></span>.
  function isolate(className, text) {
    var node = element("span", className);
    node.appendChild(element("bdi", null, text));
    return node;
  }

  // The icon's src and srcset: the document's mirrored icons (paths relative to v1/, resolved against data-src)
  // when it has them — the smallest size filling ICON_SIZE, and one filling twice that for 2× screens — else
  // Apple's iconUrl. Null when no URL is safe to set.
  function iconSources(app, base) {
    var sizes = Object.keys(app.icons || {}).map(Number).filter(function (size) {
      return size > 0 && safeURL(app.icons[String(size)], base);
    }).sort(function (a, b) { return a - b; });
    if (sizes.length) {
      var fill = function (pixels) { return sizes.filter(function (size) { return size >= pixels; })[0]; };
      var standard = fill(ICON_SIZE) || sizes[sizes.length - 1];
      var retina = fill(2 * ICON_SIZE);
      var src = safeURL(app.icons[String(standard)], base);
      if (!retina || retina === standard) return { src: src, srcset: null };
      var retinaSrc = safeURL(app.icons[String(retina)], base);
      var listable = !/[\s,]/.test(src + retinaSrc);
      return { src: src, srcset: listable ? src + " 1x, " + retinaSrc + " 2x" : null };
    }
    var icon = safeURL(app.iconUrl, base);
    return icon ? { src: icon, srcset: null } : null;
  }

  // One row, exactly as the daemon's fragment writes it: one link wrapping icon, name, tagline, price and the
  // store label, with one accessible name ("Name, App Store", from the document's app_link label).
  function item(app, locale, base, linkLabel) {
    var li = element("li", "showcase-app");
    li.setAttribute("data-app-id", String(app.id));
    var label = app.platform === "macos" ? "Mac App Store" : "App Store";
    var link = element("a", "showcase-link");
    link.href = safeURL(app.storeUrl, base);
    link.setAttribute("aria-label", accessibleName(linkLabel, app.name, label));
    var icon = iconSources(app, base);
    if (icon) {
      var img = element("img", "showcase-icon");
      img.alt = "";
      img.width = ICON_SIZE;
      img.height = ICON_SIZE;
      img.loading = "lazy";
      // An icon that fails to load leaves the tile (the CSS background), not a broken-image glyph.
      img.onerror = function () { img.removeAttribute("srcset"); img.removeAttribute("src"); img.onerror = null; };
      img.src = icon.src;
      if (icon.srcset) img.srcset = icon.srcset;
      link.appendChild(img);
    }
    var text = element("span", "showcase-text");
    text.appendChild(isolate("showcase-name", app.name));
    var line = tagline(app, locale);
    if (/\S/.test(line)) text.appendChild(isolate("showcase-tagline", line));
    var meta = element("span", "showcase-meta");
    if (app.formattedPrice) meta.appendChild(isolate("showcase-price", app.formattedPrice));
    meta.appendChild(element("span", "showcase-badge", label));
    text.appendChild(meta);
    link.appendChild(text);
    li.appendChild(link);
    return li;
  }

  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" } }).then(function (response) {
      if (!response.ok) throw new Error(url + " answered " + response.status);
      return response.json();
    });
  }

  // What index.json says of `host`: for each storefront exported for `platform`, the languages it has a
  // document in (a storefront fetched without a language has none). Null when index.json is unusable.
  function exportedStorefronts(index, host, platform) {
    if (!index || !Array.isArray(index.documents)) return null;
    var storefronts = {};
    index.documents.forEach(function (entry) {
      if (!entry || entry.host !== host || entry.platform !== platform || !validStorefront(entry.storefront)) return;
      var languages = storefronts[entry.storefront] || (storefronts[entry.storefront] = []);
      if (validLanguage(entry.language) && languages.indexOf(entry.language) < 0) languages.push(entry.language);
    });
    return storefronts;
  }

  // data-storefront="auto": the region of the visitor's first language whose region index.json lists.
  function storefrontFromLanguages(storefronts, languages) {
    for (var i = 0; i < languages.length; i++) {
      var parts = normalizedTag(languages[i]).split("-");
      for (var j = 1; j < parts.length; j++) {
        if (validStorefront(parts[j]) && storefronts[parts[j]]) return parts[j];
      }
    }
    return null;
  }

  function hide(section, state, why) {
    section.hidden = true;
    section.setAttribute("data-state", state);
    if (why && window.console) console.warn("showcase widget:", why);
  }

  function show(section) {
    var query = new URLSearchParams(window.location.search);
    var host = query.get("host") || section.getAttribute("data-host");
    var wanted = (query.get("storefront") || section.getAttribute("data-storefront") || "us").toLowerCase();
    var base = section.getAttribute("data-src") || "/showcase/v1/";
    var locale = section.getAttribute("data-locale") || navigator.language || "";
    var languages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    var who = visitor(navigator.userAgent, navigator.maxTouchPoints || 0);
    section.setAttribute("data-platform", who.platform);
    if (!validHost(host) || (wanted !== "auto" && !validStorefront(wanted))) {
      // Shown as nothing, and nothing fetched: the paths are built from these two.
      hide(section, "error", "refusing host " + host + ", storefront " + wanted);
      return Promise.resolve();
    }
    return getJSON(base + "index.json")
      .catch(function (error) {
        // Without index.json a named storefront still has its default document; "auto" has nothing to go on.
        if (window.console) console.warn("showcase widget:", error);
        return null;
      })
      .then(function (index) {
        var storefronts = exportedStorefronts(index, host, who.platform);
        var storefront = wanted === "auto" ? (storefronts && storefrontFromLanguages(storefronts, languages)) : wanted;
        if (!storefront) throw new Error("no exported storefront matches the visitor's languages " + languages);
        var language = normalizedTag(locale).split("-")[0];
        var exported = (storefronts && storefronts[storefront]) || [];
        var path = encodeURIComponent(host) + "/" + storefront + "/";
        if (validLanguage(language) && exported.indexOf(language) >= 0) path += language + "/";
        section.setAttribute("data-host", host);
        section.setAttribute("data-storefront", storefront);
        return getJSON(base + path + who.platform + ".json");
      })
      .then(function (documentJSON) {
        var apps = (documentJSON.apps || []).filter(function (app) {
          // An app whose store link is not safe to set is not listed: the row is its link.
          return app && typeof app.name === "string" && runsOn(app, who) && safeURL(app.storeUrl, base) !== null;
        });
        if (!apps.length) return hide(section, "empty");
        if (validLocale(documentJSON.locale)) {
          section.lang = documentJSON.locale;
        } else if (validLanguage(documentJSON.language) && validStorefront(documentJSON.storefront)) {
          section.lang = documentJSON.language + "-" + documentJSON.storefront.toUpperCase();
        }
        if (RIGHT_TO_LEFT.indexOf(normalizedTag(section.lang).split("-")[0]) >= 0) section.dir = "rtl";
        var labels = documentJSON.labels && typeof documentJSON.labels === "object" ? documentJSON.labels : {};
        var list = element("ul", "showcase-apps");
        // Taglines follow the page's own data-locale when it sets one, else the document (the storefront's
        // language, like the names and prices beside them), never just the browser's language.
        var taglineLocale = section.getAttribute("data-locale");
        apps.forEach(function (app) { list.appendChild(item(app, taglineLocale, base, labels.app_link)); });
        var old = section.querySelector(".showcase-apps");
        if (old) section.replaceChild(list, old); else section.appendChild(list);
        section.hidden = false;
        section.setAttribute("data-state", "ready");
      })
      .catch(function (error) {
        // The page stays usable without the block: hide it and say why in the console.
        hide(section, "error", error);
      });
  }

  Array.prototype.forEach.call(document.querySelectorAll("section.showcase[data-src]"), show);
})();
