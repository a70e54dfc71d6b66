import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `showcasectl check-config [PATH]`: validates a configuration and every overlay it references
/// without a daemon, like `nginx -t`, so an operator can check an edit before `showcasectl reload`.
///
/// On success prints one summary line to stdout and returns 0. Otherwise prints every error as
/// `file:line:column: message` to stderr and returns 78 (EX_CONFIG). `path` nil means the default
/// configuration file for this user and environment (README "Configuration": default paths). With `--json` stdout carries one
/// document instead of the summary — `{"file", "valid": true, "summary"}` or `{"file", "valid": false,
/// "errors": [{"file", "line", "column", "message"}]}`, the fields of `io.showcase.Admin.ConfigInvalid` —
/// so a deployment script can check a file before `reload` without parsing text; stderr and the exit
/// status stay as they are.
func checkConfigCommand(path: String?, environment: [String: String], json: Bool = false) -> Int32 {
    let defaults = DefaultPaths(environment: environment, uid: getuid())
    let file = path ?? defaults.configFile
    do {
        let configuration = try ConfigLoader.load(path: file, defaults: defaults)
        if json {
            let document: JSONValue = [
                "file": .string(file), "valid": .bool(true), "summary": .string(configuration.summary),
            ]
            print(String(decoding: document.serialized(), as: UTF8.self))
        } else {
            print("\(file): configuration is valid: \(configuration.summary)".escapingControlCharacters())
        }
        return 0
    } catch {
        for problem in error.errors {
            // A message may quote the file's own text, and YAML can spell any control character ("\e[2J").
            StandardStream.error.write("\(problem.description.escapingControlCharacters())\n")
        }
        if json {
            let errors = error.errors.map { problem -> JSONValue in
                [
                    "file": .string(problem.file), "line": .int(Int64(problem.line)),
                    "column": .int(Int64(problem.column)), "message": .string(problem.message),
                ]
            }
            let document: JSONValue = ["file": .string(file), "valid": .bool(false), "errors": .array(errors)]
            print(String(decoding: document.serialized(), as: UTF8.self))
        }
        return 78
    }
}
