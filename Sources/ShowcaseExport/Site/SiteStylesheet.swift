/// `site/showcase.css` (SPEC §18): the one stylesheet of the site, carried by the binary. It starts with the widget's
/// stylesheet, byte for byte (`examples/web/showcase-widget.css`; `SiteStylesheetTests` fails when the copy here
/// differs), so a page's `<section class="showcase">` looks as the widget and the fragments do; the page's own
/// layout follows, every rule scoped to `.showcase-site` (the site pages' `<body>`), which the widget's page never
/// carries.
enum SiteStylesheet {
    /// The file's name under `site/`.
    static let fileName = "showcase.css"

    /// The stylesheet's bytes: the widget's, then the pages'.
    static var bytes: [UInt8] { Array((widget + page).utf8) }

    /// `examples/web/showcase-widget.css` as it is.
    static let widget = #"""
        /*
         * showcased's roster list: one stylesheet for the widget (showcase-widget.js) and for the HTML fragments the
         * daemon writes (<platform>.html, SPEC §14), which share their markup and classes.
         *
         * Every selector starts at .showcase: nothing here touches the page around the block (no body, main or bare
         * element selectors). Light and dark follow prefers-color-scheme; a page can pin either by setting
         * --showcase-* custom properties on .showcase. The block paints its own background in both, so its text
         * keeps its contrast on any host page (light text on a page that stays white in dark mode read at 1.08:1).
         * Rows are at least 44 px tall (64 px icon), the whole row is the link, and keyboard focus is visible.
         */
        .showcase {
          --showcase-background: #ffffff;
          --showcase-text: #1d1d1f;
          --showcase-secondary: #6e6e73;
          --showcase-separator: #d2d2d7;
          --showcase-hover: rgba(0, 0, 0, 0.04);
          --showcase-badge-background: #1d1d1f;
          --showcase-badge-text: #ffffff;
          --showcase-focus: #0071e3;
          --showcase-icon-background: #e8e8ed;
          display: block;
          padding: 6px;
          border-radius: 18px;
          background: var(--showcase-background);
          color: var(--showcase-text);
          font: 16px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          .showcase {
            --showcase-background: #1c1c1e;
            --showcase-text: #f5f5f7;
            --showcase-secondary: #a1a1a6;
            --showcase-separator: #424245;
            --showcase-hover: rgba(255, 255, 255, 0.06);
            --showcase-badge-background: #f5f5f7;
            --showcase-badge-text: #1d1d1f;
            --showcase-focus: #2997ff;
            --showcase-icon-background: #2c2c2e;
          }
        }
        .showcase[hidden] { display: none !important; }
        /* A page's own heading inside the block lines up with the rows' text edge, not the block's. */
        .showcase > h2,
        .showcase > h3 { margin-left: 8px; margin-right: 8px; }
        .showcase .showcase-apps { list-style: none; margin: 0; padding: 0; }
        .showcase .showcase-app { margin: 0; padding: 0; border-top: 1px solid var(--showcase-separator); }
        .showcase .showcase-app:first-child { border-top: none; }
        .showcase .showcase-link {
          display: grid;
          grid-template-columns: 64px minmax(0, 1fr);
          column-gap: 14px;
          align-items: center;
          min-height: 44px;
          padding: 10px 8px;
          border-radius: 12px;
          color: inherit;
          text-decoration: none;
        }
        .showcase .showcase-link:hover { background: var(--showcase-hover); }
        .showcase .showcase-link:focus-visible { outline: 3px solid var(--showcase-focus); outline-offset: 2px; }
        .showcase .showcase-icon {
          grid-column: 1;
          display: block;
          width: 64px;
          height: 64px;
          border-radius: 14px;
          background: var(--showcase-icon-background);
          object-fit: cover;
          position: relative;
        }
        /* An icon that cannot load (offline, blocked) shows the plain tile, not the browser's broken-image glyph: the
           pseudo-element only renders on an image that failed. */
        .showcase .showcase-icon::after {
          content: "";
          position: absolute;
          top: 0;
          right: 0;
          bottom: 0;
          left: 0;
          border-radius: inherit;
          background: var(--showcase-icon-background);
        }
        .showcase .showcase-text { grid-column: 2; display: flex; flex-direction: column; gap: 2px; min-width: 0; }
        .showcase .showcase-name { font-weight: 600; overflow-wrap: anywhere; }
        .showcase .showcase-tagline { color: var(--showcase-secondary); font-size: 0.875em; overflow-wrap: anywhere; }
        .showcase .showcase-meta { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin-top: 4px; }
        .showcase .showcase-price { color: var(--showcase-secondary); font-size: 0.875em; }
        .showcase .showcase-badge {
          display: inline-block;
          padding: 3px 10px;
          border-radius: 999px;
          background: var(--showcase-badge-background);
          color: var(--showcase-badge-text);
          font-size: 0.75em;
          font-weight: 600;
          white-space: nowrap;
        }

        """#

    /// The site pages' own rules.
    static let page = #"""
        /*
         * The pages of showcased's site (SPEC §18): every rule starts at .showcase-site, the class of a site page's <body>,
         * so the widget's page (which never carries it) is untouched. Colours come from the same custom properties, light
         * and dark; links keep their underline and a visible focus ring.
         */
        .showcase-site {
          --showcase-text: #1d1d1f;
          --showcase-secondary: #6e6e73;
          --showcase-separator: #d2d2d7;
          --showcase-focus: #0071e3;
          --showcase-link: #0062c4;
          --showcase-page: #ffffff;
          margin: 0;
          background: var(--showcase-page);
          color: var(--showcase-text);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          .showcase-site {
            --showcase-text: #f5f5f7;
            --showcase-secondary: #a1a1a6;
            --showcase-separator: #424245;
            --showcase-focus: #2997ff;
            --showcase-link: #6cb4ff;
            --showcase-page: #000000;
          }
        }
        .showcase-site .showcase-page { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
        .showcase-site .showcase-page a:not(.showcase-link) { color: var(--showcase-link); }
        .showcase-site .showcase-page a:focus-visible { outline: 3px solid var(--showcase-focus); outline-offset: 2px; }
        .showcase-site h1 { font-size: 1.75rem; line-height: 1.2; margin: 0 0 1rem; }
        .showcase-site h2 { font-size: 1.25rem; margin: 2rem 0 0.5rem; }
        .showcase-site h3 { font-size: 1.05rem; margin: 1.25rem 0 0.25rem; }
        .showcase-site .showcase-hero { display: flex; gap: 1rem; align-items: center; margin-bottom: 1rem; }
        .showcase-site .showcase-hero img { width: 128px; height: 128px; border-radius: 28px; flex: none; }
        .showcase-site .showcase-hero h1 { margin: 0; }
        .showcase-site .showcase + .showcase { margin-top: 1rem; }
        .showcase-site .showcase-secondary { color: var(--showcase-secondary); }
        .showcase-site .showcase-notes { white-space: pre-line; overflow-wrap: anywhere; }
        .showcase-site .showcase-store {
          display: inline-block;
          padding: 0.6rem 1.1rem;
          border-radius: 999px;
          background: var(--showcase-text);
          color: var(--showcase-page);
          font-weight: 600;
          text-decoration: none;
        }
        .showcase-site .showcase-page a.showcase-store { color: var(--showcase-page); }
        .showcase-site nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
        .showcase-site .showcase-switcher { margin-top: 3rem; border-top: 1px solid var(--showcase-separator); }
        .showcase-site .showcase-markdown table { border-collapse: collapse; }
        .showcase-site .showcase-markdown th,
        .showcase-site .showcase-markdown td { border: 1px solid var(--showcase-separator); padding: 0.25rem 0.5rem; }

        """#
}
