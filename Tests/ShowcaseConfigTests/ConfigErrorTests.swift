import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Configuration errors say where and what")
struct ConfigErrorTests {
    @Test("reports every error of a file, in file order, not only the first")
    func allErrors() throws {
        let path = fixture("invalid/many-errors.yaml")
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: path, defaults: testDefaults) }
        let found = error?.errors.map { "\($0.line):\($0.column):\($0.code.rawValue)" }
        #expect(
            found == [
                "3:13:typeMismatch", "4:16:duplicate", "5:1:unknownKey", "6:19:invalidValue", "8:13:typeMismatch",
                "10:9:typeMismatch",
            ])
        #expect(error?.errors.allSatisfy { $0.file == path } == true)
        #expect(error?.description.split(separator: "\n").first == "\(path):3:13: \(error?.first.message ?? "")")
    }

    @Test("suggests the closest known key for an unknown one")
    func didYouMean() throws {
        let error = try onlyError(minimalHosts + "storefront: [us]\n")
        #expect(error?.code == .unknownKey)
        #expect(error?.line == 3)
        #expect(error?.column == 1)
        #expect(error?.message == "unknown key 'storefront'; did you mean 'storefronts'?")
    }

    @Test("names the section of a misspelled nested key")
    func nestedDidYouMean() throws {
        let error = try onlyError(minimalHosts + "refresh:\n  intervall: 24h\n")
        #expect(error?.line == 4)
        #expect(error?.column == 3)
        #expect(error?.message == "unknown key 'refresh.intervall'; did you mean 'refresh.interval'?")
    }

    @Test("lists the known keys when nothing is close")
    func noSuggestion() throws {
        let error = try onlyError(minimalHosts + "socket:\n  wibble: 1\n")
        #expect(
            error?.message
                == "unknown key 'socket.wibble'; known keys here: path, mode, admin_uids, max_connections, "
                + "max_connections_per_uid")
    }

    @Test("explains a value that is not a duration")
    func notADuration() throws {
        let error = try onlyError(minimalHosts + "refresh:\n  interval: tomorrow\n")
        #expect(error?.code == .typeMismatch)
        #expect(error?.line == 4)
        #expect(error?.column == 13)
        #expect(error?.message.hasPrefix("expected a duration like 24h") == true)
        #expect(error?.message.hasSuffix("found 'tomorrow'") == true)
    }

    @Test("refuses zero and negative durations", arguments: ["0s", "-5m"])
    func nonPositiveDuration(text: String) throws {
        let error = try onlyError(minimalHosts + "lookup:\n  timeout: \(text)\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 4)
        #expect(error?.column == 12)
        #expect(error?.message == "'lookup.timeout' must be a positive duration, found '\(text)'")
    }

    @Test("refuses a retry longer than the interval")
    func retryLongerThanInterval() throws {
        let error = try onlyError(minimalHosts + "refresh:\n  interval: 1h\n  retry: 2h\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 5)
        #expect(error?.column == 10)
    }

    @Test("refuses a jitter that is not a percentage or above 50%")
    func jitter() throws {
        let notPercent = try onlyError(minimalHosts + "refresh:\n  jitter: 10\n")
        #expect(notPercent?.code == .typeMismatch)
        #expect(notPercent?.column == 11)
        let tooLarge = try onlyError(minimalHosts + "refresh:\n  jitter: 80%\n")
        #expect(tooLarge?.code == .invalidValue)
        #expect(tooLarge?.line == 4)
    }

    @Test("refuses sizes, rates and endpoints it cannot read")
    func lookupValues() throws {
        let found = try errors(
            minimalHosts + "lookup:\n  endpoint: ftp://example.com/x\n  rate_limit: 20/day\n  max_response_bytes: 8MB\n"
        )
        #expect(found.map { "\($0.line):\($0.column)" } == ["4:13", "5:15", "6:23"])
        #expect(found[1].message.contains("20/min"))
        #expect(found[2].message.contains("8MiB"))
        let zeroRate = try onlyError(minimalHosts + "lookup:\n  rate_limit: 0/min\n")
        #expect(zeroRate?.code == .invalidValue)
    }

    @Test("requires at least one host")
    func noHosts() throws {
        let missing = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.load(path: fixture("invalid/no-hosts.yaml"), defaults: testDefaults)
        }
        #expect(missing?.errors.map(\.code) == [.missing])
        #expect(missing?.first.line == 1)
        #expect(missing?.first.column == 1)
        let empty = try onlyError("hosts: []\n")
        #expect(empty?.code == .missing)
        #expect(empty?.column == 8)
    }

    @Test("refuses an empty configuration file")
    func emptyFile() throws {
        let error = try onlyError("# nothing yet\n")
        #expect(error?.code == .missing)
        #expect(error?.line == 1)
    }

    @Test("refuses a host listed twice, pointing at the second")
    func duplicateHost() throws {
        let error = try onlyError("hosts:\n  - bundle_id: com.a.B\n  - bundle_id: COM.A.B\n")
        #expect(error?.code == .duplicate)
        #expect(error?.line == 3)
        #expect(error?.column == 16)
        #expect(error?.message.contains("line 2") == true)
    }

    @Test("refuses a host without a bundle id, or with one that is not a bundle id")
    func hostBundleID() throws {
        let found = try errors("hosts:\n  - app_id: 1\n  - bundle_id: not a bundle id\n  - com.a.B\n")
        #expect(
            found.map { "\($0.line):\($0.column):\($0.code.rawValue)" } == [
                "2:5:missing", "3:16:invalidValue", "4:5:typeMismatch",
            ])
    }

    @Test("refuses a key written twice in one mapping")
    func duplicateKey() throws {
        let error = try onlyError(minimalHosts + "storefronts: [us]\nstorefronts: [de]\n")
        #expect(error?.code == .duplicate)
        #expect(error?.line == 4)
        #expect(error?.column == 1)
    }

    @Test("refuses an unknown storefront with the storefront table's message")
    func unknownStorefront() throws {
        let error = try onlyError(minimalHosts + "storefronts: [us, zz]\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 3)
        #expect(error?.column == 19)
        #expect(error?.message.contains(StorefrontError(text: "zz").description) == true)
    }

    @Test("refuses a storefront listed twice under two spellings")
    func duplicateStorefront() throws {
        let error = try onlyError(minimalHosts + "storefronts: [de, DEU]\n")
        #expect(error?.code == .duplicate)
        #expect(error?.column == 19)
    }

    @Test("refuses a single storefront code that is not a list")
    func storefrontScalar() throws {
        let error = try onlyError(minimalHosts + "storefronts: de\n")
        #expect(error?.code == .typeMismatch)
        #expect(error?.column == 14)
    }

    @Test("refuses an app id that is not a positive integer", arguments: ["abc", "-5", "1.5", "0"])
    func nonIntegerAppID(text: String) throws {
        let error = try onlyError("hosts:\n  - bundle_id: com.a.B\n    app_id: \(text)\n")
        #expect(error?.code == .typeMismatch)
        #expect(error?.line == 3)
        #expect(error?.column == 13)
        #expect(error?.message.contains("positive integer") == true)
    }

    @Test("flags an unquoted socket mode and explains why it must be quoted")
    func unquotedSocketMode() throws {
        let error = try onlyError(minimalHosts + "socket:\n  mode: 0660\n")
        #expect(error?.code == .typeMismatch)
        #expect(error?.line == 4)
        #expect(error?.column == 9)
        #expect(error?.message.contains("\"0660\"") == true)
    }

    @Test(
        "refuses socket modes that are not octal or lock the owner out",
        arguments: ["\"0999\"", "\"rw\"", "\"0060\"", "\"01777\""])
    func invalidSocketMode(text: String) throws {
        let error = try onlyError(minimalHosts + "socket:\n  mode: \(text)\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.column == 9)
    }

    @Test("refuses admin uids that are not numbers")
    func adminUIDs() throws {
        let error = try onlyError(minimalHosts + "socket:\n  admin_uids: [1000, root]\n")
        #expect(error?.line == 4)
        #expect(error?.column == 22)
    }

    @Test("refuses an unknown default platform")
    func unknownPlatform() throws {
        let error = try onlyError(minimalHosts + "default_platform: watchos\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.column == 19)
    }

    @Test(
        "refuses a campaign token App Store Connect would not count, at its line",
        arguments: ["caf\u{E9}", " lead", "caret^", String(repeating: "k", count: 31)])
    func attributionTokens(token: String) throws {
        let error = try onlyError(minimalHosts + "attribution:\n  campaign_token: \"\(token)\"\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 4)
        #expect(error?.column == 19)
        #expect(error?.message.contains("at most 30") == true)
    }

    @Test("accepts a campaign token with inner spaces and App Store Connect's punctuation")
    func acceptedCampaignToken() throws {
        let configuration = try load(
            minimalHosts + "attribution:\n  campaign_token: \"spring sale (2026) & more!\"\n")
        #expect(configuration.attribution.campaignToken == "spring sale (2026) & more!")
    }

    @Test("reports a section of the wrong shape")
    func wrongShape() throws {
        let error = try onlyError(minimalHosts + "refresh: 24h\n")
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == "expected a mapping of keys for 'refresh', found '24h'")
    }

    @Test("names the path of a missing overlay file at the key that references it")
    func missingOverlay() throws {
        let path = fixture("invalid/missing-overlay.yaml")
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: path, defaults: testDefaults) }
        #expect(error?.errors.count == 1)
        #expect(error?.first.code == .unreadable)
        #expect(error?.first.file == path)
        #expect(error?.first.line == 3)
        #expect(error?.first.column == 14)
        #expect(error?.first.message.contains(fixture("invalid/overlays/does-not-exist.yaml")) == true)
    }

    @Test("reports an overlay path that is a directory")
    func overlayDirectory() throws {
        let error = try onlyError(minimalHosts + "overlay: sub\n", files: ["sub/x.yaml": "order: []\n"])
        #expect(error?.code == .unreadable)
        #expect(error?.message.contains("directory") == true)
    }

    @Test("reports errors inside an overlay file at their position in that file")
    func errorsInOverlayFile() throws {
        let path = fixture("invalid/bad-overlay.yaml")
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: path, defaults: testDefaults) }
        let overlay = fixture("invalid/overlays/bad.yaml")
        #expect(error?.errors.map(\.file) == [overlay, overlay, overlay])
        #expect(
            error?.errors.map { "\($0.line):\($0.column):\($0.code.rawValue)" } == [
                "1:21:typeMismatch", "2:1:unknownKey", "6:5:invalidValue",
            ])
        #expect(error?.errors[1].message == "unknown key 'exclude'; did you mean 'excluded'?")
        // Status' lastReloadError holds them on one line: no "?;" after the question.
        #expect(
            error?.oneLine
                == "\(overlay):1:21: \(error!.errors[0].message); \(overlay):2:1: unknown key 'exclude'; "
                + "did you mean 'excluded'? \(overlay):6:5: \(error!.errors[2].message)")
    }

    @Test("reports a syntax error in an overlay file with the overlay's path")
    func overlaySyntaxError() throws {
        let found = try errors(minimalHosts + "overlay: o.yaml\n", files: ["o.yaml": "order: [1\n"])
        #expect(found.count == 1)
        #expect(found.first?.code == .syntax)
        #expect(found.first?.file.hasSuffix("/o.yaml") == true)
    }

    @Test("reports an error in the configuration before the errors of its overlays")
    func errorOrderAcrossFiles() throws {
        let found = try errors(minimalHosts + "overlay: o.yaml\nstorefronts: [zz]\n", files: ["o.yaml": "order: [x]\n"])
        #expect(found.map { $0.file.hasSuffix("showcase.yaml") } == [true, false])
    }

    @Test("reports the main file's absence with its path and no position in it")
    func missingConfiguration() throws {
        let error = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.load(path: "/nonexistent/showcase.yaml", defaults: testDefaults)
        }
        #expect(error?.first.code == .unreadable)
        #expect(error?.first.description.hasPrefix("/nonexistent/showcase.yaml: cannot read") == true)
    }

    @Test("stops at a syntax error with libyaml's position")
    func syntaxErrorStops() throws {
        let error = try onlyError("hosts:\n  - bundle_id: \"unterminated\n")
        #expect(error?.code == .syntax)
        #expect(error?.line == 3)
    }

    @Test("explains that YAML merge keys are not supported")
    func mergeKey() throws {
        let error = try onlyError(minimalHosts + "refresh:\n  <<: {interval: 1h}\n")
        #expect(error?.code == .unknownKey)
        #expect(error?.line == 4)
        #expect(error?.column == 3)
        #expect(error?.message.contains("merge keys") == true)
    }

    @Test("shortens a long value in a message to keep the line readable")
    func longValueShortened() throws {
        let long = String(repeating: "x", count: 200)
        let error = try onlyError(minimalHosts + "default_platform: \(long)\n")
        #expect(error?.message.contains(String(repeating: "x", count: 57) + "...'") == true)
        #expect(error?.message.contains(String(repeating: "x", count: 58)) == false)
    }
}
