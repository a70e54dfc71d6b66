import Foundation
import ShowcaseCore

/// Writes the startup and memory load straight into a cache directory in ShowcaseCore's own format
/// (``FileCache``): one fresh roster per storefront and the host identities, so the daemon starts warm
/// from disk without a single upstream request.
enum CacheGenerator {
    struct Outcome {
        var storefronts: [Storefront]
        var bytes: Int
        /// The host bundle ids written (every developer's).
        var hosts: [String] = []
    }

    static func run(
        generator: LookupFixtureGenerator, directory: String, storefronts: String, apps: Int, hosts: Int,
        localPrices: Bool = false, artworkPrefix: String? = nil
    ) throws(BenchError) -> Outcome {
        let cache = FileCache(directory: URL(fileURLWithPath: directory, isDirectory: true))
        let codes: [Storefront]
        if storefronts == "all" {
            codes = Storefront.all
        } else {
            var parsed: [Storefront] = []
            for text in storefronts.split(separator: ",") {
                guard let storefront = try? Storefront(parsing: String(text)) else {
                    throw BenchError("'\(text)' is not an App Store storefront")
                }
                parsed.append(storefront)
            }
            codes = parsed
        }
        let now = Date()
        var bytes = 0
        var rules = URLRules.standard
        if let artworkPrefix {
            do {
                rules = URLRules(artworkHosts: [try URLPrefix(parsing: artworkPrefix)])
            } catch {
                throw BenchError("--artwork-prefix \(artworkPrefix) is not a URL prefix: \(error)")
            }
        }
        for storefront in codes {
            var body = generator.rosterBody(apps: apps, storefront: storefront.code, localPrices: localPrices)
            if let artworkPrefix {
                // The template's artwork host, as lookup-replay --serve-icons rewrites it in the answers it serves.
                body = Data(
                    String(decoding: body, as: UTF8.self).replacingOccurrences(
                        of: "https://is1-ssl.mzstatic.com/", with: artworkPrefix
                    ).utf8)
            }
            bytes += body.count
            do {
                let roster = try Roster(
                    artistId: generator.artistId, storefront: storefront, body: body, fetchedAt: now, urlRules: rules)
                try cache.store(roster)
            } catch {
                throw BenchError("cannot write the \(storefront.code) roster into \(directory): \(error)")
            }
        }
        for host in 0..<hosts {
            let identity = HostIdentity(
                bundleId: generator.bundleId(host), artistId: generator.artistId,
                trackId: generator.trackId(host), storefront: codes.first ?? .unitedStates,
                resolvedAt: now)
            do {
                try cache.store(identity)
            } catch {
                throw BenchError("cannot write the identity of host \(host) into \(directory): \(error)")
            }
        }
        return Outcome(storefronts: codes, bytes: bytes, hosts: (0..<hosts).map(generator.bundleId))
    }
}
