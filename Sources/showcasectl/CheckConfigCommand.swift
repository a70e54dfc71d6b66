import Foundation
import ShowcaseConfig

/// `showcasectl check-config [PATH]`: validates a configuration and every overlay it references
/// without a daemon, like `nginx -t`, so an operator can check an edit before `showcasectl reload`.
///
/// On success prints one summary line to stdout and returns 0. Otherwise prints every error as
/// `file:line:column: message` to stderr and returns 78 (EX_CONFIG). `path` nil means the default
/// configuration file for this user and environment (SPEC §2).
func checkConfigCommand(path: String?, environment: [String: String]) -> Int32 {
    let defaults = DefaultPaths(environment: environment, uid: getuid())
    let file = path ?? defaults.configFile
    do {
        let configuration = try ConfigLoader.load(path: file, defaults: defaults)
        print("\(file): configuration is valid: \(configuration.summary)")
        return 0
    } catch {
        for problem in error.errors {
            FileHandle.standardError.write(Data("\(problem)\n".utf8))
        }
        return 78
    }
}
