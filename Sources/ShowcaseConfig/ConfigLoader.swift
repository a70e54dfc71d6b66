import FoundationEssentials
import ShowcaseCore

/// Reads and validates a configuration file and every overlay it references, reporting all mistakes
/// at once. The daemon calls it at startup and on every reload (keeping the running configuration
/// when it throws); `showcasectl check-config` calls it without any daemon.
///
/// It never touches the cache directory or the socket: validation works on a machine where neither
/// exists yet.
public enum ConfigLoader {
    /// Loads the configuration at `path` (use `DefaultPaths().configFile` when none was given).
    ///
    /// - Parameters:
    ///   - defaults: where `cache.directory` and `socket.path` point when the file does not say.
    ///   - limits: bounds against hostile files, applied to the configuration and every overlay file.
    /// - Throws: every error found, each with file, line and column, in file order.
    public static func load(
        path: String, defaults: DefaultPaths = DefaultPaths(), limits: YAMLReader.Limits = .standard
    ) throws(ConfigErrors) -> Configuration {
        let reader = YAMLReader(limits: limits)
        let root: YAMLNode?
        do {
            root = try reader.read(path: path)
        } catch {
            throw ConfigErrors([error])
        }
        guard let root else {
            throw ConfigErrors([
                ConfigError(
                    .missing, at: .start(of: path),
                    "the configuration is empty; it needs at least 'hosts:' with one bundle_id")
            ])
        }
        var session = Session(configPath: path, reader: reader)
        let configuration = session.configuration(from: root, defaults: defaults)
        if let configuration, session.diagnostics.errors.isEmpty { return configuration }
        throw ConfigErrors(session.sortedErrors())
    }

    /// Loads one overlay file on its own (an empty file is the empty overlay).
    public static func loadOverlay(path: String, limits: YAMLReader.Limits = .standard) throws(ConfigErrors)
        -> Overlay
    {
        let root: YAMLNode?
        do {
            root = try YAMLReader(limits: limits).read(path: path)
        } catch {
            throw ConfigErrors([error])
        }
        guard let root else { return .empty }
        var diagnostics = ConfigDiagnostics()
        let overlay = Overlay(reading: root, diagnostics: &diagnostics)
        guard diagnostics.errors.isEmpty else { throw ConfigErrors(diagnostics.errors) }
        return overlay
    }

    /// `path` taken relative to the directory of the file `base` (absolute paths are kept).
    static func resolve(_ path: String, relativeTo base: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let directory = PathText.parent(of: base)
        return directory.isEmpty ? path : PathText.appending(path, to: directory)
    }

    /// One load: the diagnostics of the configuration and of every overlay file it reads.
    private struct Session {
        let configPath: String
        let reader: YAMLReader
        var diagnostics = ConfigDiagnostics()
        /// Overlay files already read (a file shared by several hosts is read and reported once).
        var overlayFiles: [String: Overlay?] = [:]
        var fileOrder: [String]

        init(configPath: String, reader: YAMLReader) {
            self.configPath = configPath
            self.reader = reader
            self.fileOrder = [configPath]
        }

        /// Errors grouped by file (the configuration first, then overlays as referenced), by position within.
        func sortedErrors() -> [ConfigError] {
            let rank = Dictionary(fileOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return diagnostics.errors.enumerated().sorted { lhs, rhs in
                let l = (rank[lhs.element.file] ?? Int.max, lhs.element.line, lhs.element.column, lhs.offset)
                let r = (rank[rhs.element.file] ?? Int.max, rhs.element.line, rhs.element.column, rhs.offset)
                return l < r
            }.map(\.element)
        }

        mutating func configuration(from root: YAMLNode, defaults: DefaultPaths) -> Configuration? {
            guard let fields = diagnostics.fields(of: root, in: nil, known: Configuration.keys) else { return nil }

            var storefronts = [try! Storefront(parsing: "us")]
            var languages: [Storefront: [RosterLanguage]] = [:]
            if let value = fields["storefronts"] {
                if let read = readStorefronts(value) { (storefronts, languages) = read }
            }

            var platform = Platform.ios
            if let value = fields["default_platform"] {
                if let text = value.scalar, let parsed = Platform(rawValue: text.lowercased()) {
                    platform = parsed
                } else {
                    diagnostics.report(
                        .invalidValue, at: value,
                        "expected ios or macos for 'default_platform', found \(value.kindDescription)")
                }
            }

            let refresh = fields["refresh"].map { RefreshSchedule(reading: $0, diagnostics: &diagnostics) }
            let lookup = fields["lookup"].map { LookupSettings(reading: $0, diagnostics: &diagnostics) }
            let cache = CacheSettings(
                reading: fields["cache"], defaults: defaults, base: configPath, diagnostics: &diagnostics)
            let socket = SocketSettings(
                reading: fields["socket"], defaults: defaults, base: configPath, diagnostics: &diagnostics)
            let metrics = fields["metrics"].map {
                MetricsSettings(reading: $0, base: configPath, diagnostics: &diagnostics)
            }
            let export = fields["export"].flatMap {
                ExportSettings(
                    reading: $0, base: configPath, cacheDirectory: cache.directory, diagnostics: &diagnostics)
            }
            let state = StateSettings(
                reading: fields["state"], defaults: defaults, base: configPath, diagnostics: &diagnostics)
            let history = fields["history"].map { HistorySettings(reading: $0, diagnostics: &diagnostics) }
            var attribution = Attribution()
            if let value = fields["attribution"] { attribution = readAttribution(value) }

            var globalOverlay = Overlay.empty
            var globalOverlayFile: String?
            if let value = fields["overlay"] {
                (globalOverlay, globalOverlayFile) = readOverlayReference(value, key: "overlay")
            }

            var hosts: [HostConfiguration] = []
            if let value = fields["hosts"] {
                hosts = readHosts(value, globalOverlay: globalOverlay)
            } else {
                diagnostics.report(
                    .missing, at: root,
                    "no 'hosts' configured; add at least one, like: hosts: [{bundle_id: com.example.NoteJar}]")
            }

            return Configuration(
                path: configPath, hosts: hosts, storefronts: storefronts, languages: languages,
                defaultPlatform: platform,
                refresh: refresh ?? RefreshSchedule(), lookup: lookup ?? LookupSettings(), cache: cache,
                socket: socket, metrics: metrics ?? MetricsSettings(), export: export, state: state,
                history: history ?? HistorySettings(), attribution: attribution,
                overlay: globalOverlay, overlayFile: globalOverlayFile)
        }

        /// `storefronts:` — the scalar `all`, or a list whose entries are codes (`de`) or mappings naming the
        /// languages of a multilingual storefront (`{code: ca, languages: [en, fr]}`). Returns the storefronts in
        /// order and the languages of those that have some.
        mutating func readStorefronts(_ node: YAMLNode) -> ([Storefront], [Storefront: [RosterLanguage]])? {
            if let text = node.scalar, text.lowercased() == "all" {
                return (Storefront.all, [:])
            }
            guard case .sequence(let items) = node.content else {
                diagnostics.report(
                    .typeMismatch, at: node,
                    "expected a list of storefront codes like [us, de] or the word all for 'storefronts', "
                        + "found \(node.kindDescription)")
                return nil
            }
            var result: [Storefront] = []
            var languages: [Storefront: [RosterLanguage]] = [:]
            var firstSeen: [Storefront: YAMLNode] = [:]
            for item in items {
                var codeNode = item
                var itemLanguages: [RosterLanguage]?
                if case .mapping = item.content {
                    guard let entry = readMultilingualStorefront(item) else { continue }
                    (codeNode, itemLanguages) = entry
                }
                guard let text = codeNode.scalar, !codeNode.isNull else {
                    diagnostics.report(
                        .typeMismatch, at: codeNode,
                        "expected a storefront code like de or a mapping like {code: ca, languages: [en, fr]} in "
                            + "'storefronts', found \(codeNode.kindDescription)")
                    continue
                }
                do {
                    let storefront = try Storefront(parsing: text)
                    if let first = firstSeen[storefront] {
                        diagnostics.report(
                            .duplicate, at: codeNode,
                            "storefront '\(storefront.code)' is already listed at line \(first.location.line), "
                                + "column \(first.location.column); list it once")
                        continue
                    }
                    firstSeen[storefront] = codeNode
                    result.append(storefront)
                    if let itemLanguages { languages[storefront] = itemLanguages }
                } catch {
                    diagnostics.report(.invalidValue, at: codeNode, error.description)
                }
            }
            return (result, languages)
        }

        /// One `{code: ca, languages: [en, fr]}` entry: its `code` node and its languages, or nil after reporting
        /// what is wrong (an unknown key, no code, an empty or repeated language, more than 8 languages, a tag that is
        /// not an ISO 639-1 code).
        mutating func readMultilingualStorefront(_ item: YAMLNode) -> (YAMLNode, [RosterLanguage])? {
            let reported = diagnostics.errors.count
            guard
                let fields = diagnostics.fields(
                    of: item, in: "storefronts[]", known: Configuration.storefrontEntryKeys)
            else { return nil }
            // A misspelled key is the mistake to report, not the key it then seems to lack.
            guard diagnostics.errors.count == reported else { return nil }
            guard let code = fields["code"] else {
                diagnostics.report(
                    .missing, at: item, "this storefront has no 'code'; write it like {code: ca, languages: [en, fr]}")
                return nil
            }
            guard let list = fields["languages"] else {
                diagnostics.report(
                    .missing, at: item,
                    "this storefront has no 'languages'; list the languages to fetch, like [en, fr], "
                        + "or write the plain code instead of a mapping")
                return nil
            }
            guard
                let items = diagnostics.sequence(
                    list, "storefronts[].languages", expected: "a list of language codes like [en, fr]")
            else { return nil }
            guard !items.isEmpty else {
                diagnostics.report(
                    .invalidValue, at: list,
                    "'storefronts[].languages' is empty; list at least one language like [en, fr], "
                        + "or write the plain code instead of a mapping")
                return nil
            }
            var languages: [RosterLanguage] = []
            var firstSeen: [RosterLanguage: YAMLNode] = [:]
            var valid = true
            let limit = RosterLanguage.maximumPerStorefront
            if items.count > limit {
                // At the first language past the limit: the operator sees where the list went too long. Entries past
                // it are not checked one by one, so 17,576 invented codes are one error, not 17,576.
                diagnostics.report(
                    .invalidValue, at: items[limit],
                    "a storefront lists at most \(limit) languages, each a roster of its own; "
                        + "'storefronts[].languages' has \(items.count): keep the ones your apps are localized in")
                valid = false
            }
            for entry in items.prefix(limit) {
                guard let text = entry.scalar, !entry.isNull, let language = RosterLanguage(parsing: text) else {
                    diagnostics.report(.invalidValue, at: entry, Self.languageProblem(entry))
                    valid = false
                    continue
                }
                if let first = firstSeen[language] {
                    diagnostics.report(
                        .duplicate, at: entry,
                        "language '\(language)' is already listed at line \(first.location.line), "
                            + "column \(first.location.column); list it once")
                    valid = false
                    continue
                }
                firstSeen[language] = entry
                languages.append(language)
            }
            return valid ? (code, languages) : nil
        }

        /// Why `entry` is not a language of `storefronts[].languages`: not two letters, or two letters that are not
        /// an ISO 639-1 code.
        static func languageProblem(_ entry: YAMLNode) -> String {
            guard let text = entry.scalar, !entry.isNull, text.count == 2,
                text.allSatisfy({ $0.isASCII && $0.isLetter })
            else {
                return "expected an ISO 639-1 language code of two letters like fr in 'storefronts[].languages' "
                    + "(no region: the storefront is the region), found \(entry.kindDescription)"
            }
            return "'\(text)' is not an ISO 639-1 language code; write a two-letter code of the standard "
                + "like en, fr or ja in 'storefronts[].languages'"
        }

        mutating func readAttribution(_ node: YAMLNode) -> Attribution {
            var attribution = Attribution()
            guard
                let fields = diagnostics.fields(
                    of: node, in: "attribution", known: Configuration.attributionKeys)
            else { return attribution }
            if let value = fields["provider_token"] {
                if let text = value.scalar, !text.isEmpty,
                    text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
                {
                    attribution.providerToken = text
                } else {
                    diagnostics.report(
                        .invalidValue, at: value,
                        "expected a token of letters, digits, '.', '_' or '-' for 'attribution.provider_token', "
                            + "found \(value.kindDescription)")
                }
            }
            if let value = fields["campaign_token"] {
                attribution.campaignToken = campaignToken(value, "attribution.campaign_token")
            }
            if let value = fields["campaign_tokens"],
                let surfaces = diagnostics.fields(
                    of: value, in: "attribution.campaign_tokens", known: AttributionSurface.names)
            {
                for surface in AttributionSurface.allCases {
                    guard let token = surfaces[surface.rawValue] else { continue }
                    attribution.campaignTokens[surface] = campaignToken(
                        token, "attribution.campaign_tokens.\(surface.rawValue)")
                }
            }
            return attribution
        }

        /// The campaign token at `node` (the key `key`), when App Store Connect accepts it; otherwise reported.
        /// (An explicit `null` never gets here: ``Fields`` counts it as absent.)
        mutating func campaignToken(_ node: YAMLNode, _ key: String) -> String? {
            if let text = node.scalar, Attribution.isAcceptedCampaignToken(text) { return text }
            diagnostics.report(
                .invalidValue, at: node,
                "expected at most 30 letters, digits, inner spaces or App Store Connect's punctuation "
                    + "([ ] / \\ - ~ + = < > : ; , . _ ' \" * & $ % # @ ? ! | { } ( )) for "
                    + "'\(key)', found \(node.scalar.map { "'\($0)'" } ?? node.kindDescription)"
            )
            return nil
        }

        mutating func readHosts(_ node: YAMLNode, globalOverlay: Overlay) -> [HostConfiguration] {
            guard
                let items = diagnostics.sequence(
                    node, "hosts", expected: "a list of hosts like [{bundle_id: com.example.NoteJar}]")
            else { return [] }
            if items.isEmpty {
                diagnostics.report(
                    .missing, at: node,
                    "'hosts' is empty; add at least one, like: hosts: [{bundle_id: com.example.NoteJar}]")
            }
            var hosts: [HostConfiguration] = []
            var firstSeen: [String: YAMLNode] = [:]
            for item in items {
                guard let fields = diagnostics.fields(of: item, in: "hosts[]", known: HostConfiguration.keys)
                else { continue }
                guard let value = fields["bundle_id"] else {
                    diagnostics.report(
                        .missing, at: item, "this host has no 'bundle_id'; add the app's bundle identifier")
                    continue
                }
                guard let bundleID = value.scalar, !value.isNull else {
                    diagnostics.report(
                        .invalidValue, at: value,
                        "expected a bundle identifier like com.example.NoteJar for 'bundle_id', "
                            + "found \(value.kindDescription)")
                    continue
                }
                if let problem = HostConfiguration.bundleIDProblem(bundleID) {
                    diagnostics.report(.invalidValue, at: value, problem)
                    continue
                }
                if let first = firstSeen[bundleID.lowercased()] {
                    diagnostics.report(
                        .duplicate, at: value,
                        "host '\(bundleID)' is already configured at line \(first.location.line); list each host once")
                    continue
                }
                firstSeen[bundleID.lowercased()] = value
                var host = HostConfiguration(bundleID: bundleID, overlay: globalOverlay)
                if let value = fields["app_id"] { host.appID = diagnostics.appID(value, "app_id") }
                if let value = fields["overlay"] {
                    let (own, file) = readOverlayReference(value, key: "hosts[].overlay")
                    host.ownOverlay = own
                    host.overlayFile = file
                    host.overlay = own.merged(over: globalOverlay)
                }
                hosts.append(host)
            }
            return hosts
        }

        /// An `overlay:` value: a path to read (relative to the configuration) or an inline mapping.
        mutating func readOverlayReference(_ node: YAMLNode, key: String) -> (Overlay, String?) {
            if case .mapping = node.content {
                return (Overlay(reading: node, diagnostics: &diagnostics), nil)
            }
            guard let text = node.scalar, !text.isEmpty else {
                diagnostics.report(
                    .typeMismatch, at: node,
                    "expected an overlay file path or an inline mapping for '\(key)', found \(node.kindDescription)")
                return (.empty, nil)
            }
            let path = ConfigLoader.resolve(text, relativeTo: configPath)
            if let cached = overlayFiles[path] { return (cached ?? .empty, path) }
            if !fileOrder.contains(path) { fileOrder.append(path) }
            do {
                let overlay: Overlay
                if let root = try reader.read(path: path) {
                    var fileDiagnostics = ConfigDiagnostics()
                    overlay = Overlay(reading: root, diagnostics: &fileDiagnostics)
                    diagnostics.report(contentsOf: fileDiagnostics.errors)
                } else {
                    overlay = .empty
                }
                overlayFiles[path] = overlay
                return (overlay, path)
            } catch {
                overlayFiles[path] = .some(nil)
                if error.code == .unreadable {
                    diagnostics.report(.unreadable, at: node, "overlay file: \(error.message)")
                } else {
                    diagnostics.report(error)
                }
                return (.empty, path)
            }
        }
    }
}
