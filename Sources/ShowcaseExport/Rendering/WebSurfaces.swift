/// What `export.html: true` writes (SPEC §14), for the daemon to hand the ``ExportWriter``: the HTML fragment and
/// its email variant beside every document, and the Smart App Banner once per host.
public enum WebSurfaces {
    /// `<platform>.html` and `<platform>.email.html`.
    public static let documentRenderers: [any DocumentRenderer] = [HTMLFragmentRenderer(), EmailRenderer()]
    /// `<host>/banner.html`.
    public static let hostRenderers: [any HostFileRenderer] = [SmartAppBanner()]
}
