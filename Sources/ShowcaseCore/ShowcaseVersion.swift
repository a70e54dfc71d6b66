/// The version of showcased and showcasectl (one release, one number): `--version`, `Admin.Status`, `GetInfo`,
/// and the upstream `User-Agent`.
public enum ShowcaseVersion {
    /// The release number, e.g. `0.1.0`.
    public static let string = "0.1.0"
}
