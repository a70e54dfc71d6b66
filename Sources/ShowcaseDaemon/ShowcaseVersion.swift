/// The daemon's version: reported by `--version`, `Admin.Status`, `GetInfo`, and in the upstream `User-Agent`.
public enum ShowcaseVersion {
    public static let string = "0.1.0"
}
