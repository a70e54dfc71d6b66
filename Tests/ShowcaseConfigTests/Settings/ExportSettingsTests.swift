import Foundation
import ShowcaseConfig
import Testing

@Suite("The export: section")
struct ExportSettingsTests {
    @Test("exports nothing when the section is absent or null")
    func absent() throws {
        #expect(try load(minimalHosts).export == nil)
        #expect(try load(minimalHosts + "export: null\n").export == nil)
    }

    @Test("reads the directory, relative to the configuration file, and gzip defaulting to true")
    func readsKeys() throws {
        let directory = try TemporaryDirectory(files: ["showcase.yaml": minimalHosts + "export:\n  directory: web\n"])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        #expect(configuration.export == ExportSettings(directory: directory.file("web"), gzip: true))
        let absolute = try load(minimalHosts + "export:\n  directory: /var/lib/showcase/export\n  gzip: false\n")
        #expect(absolute.export == ExportSettings(directory: "/var/lib/showcase/export", gzip: false))
    }

    @Test("validates without the directory existing")
    func directoryNeedNotExist() throws {
        let path = "/nonexistent-\(UUID().uuidString)/export"
        #expect(try load(minimalHosts + "export:\n  directory: \(path)\n").export?.directory == path)
    }

    @Test("refuses a section without a directory, naming the key")
    func missingDirectory() throws {
        let error = try onlyError(minimalHosts + "export:\n  gzip: true\n")
        #expect(error?.code == .missing)
        #expect(error?.line == 4)
        #expect(error?.message.contains("'export' has no 'directory'") == true)
    }

    @Test("refuses an export directory inside the cache directory, however the path is spelled")
    func insideCache() throws {
        let yaml = minimalHosts + "cache:\n  directory: /var/cache/showcase\nexport:\n  directory: "
        let inside = try onlyError(yaml + "/var/cache/showcase/export\n")
        #expect(inside?.code == .invalidValue)
        #expect(inside?.line == 6)
        #expect(inside?.column == 14)
        #expect(inside?.message.contains("is inside the cache directory /var/cache/showcase") == true)
        let same = try onlyError(yaml + "/var/cache/showcase/\n")
        #expect(same?.message.contains("is inside the cache directory") == true)
        let dotted = try onlyError(yaml + "/var/lib/../cache/./showcase/web\n")
        #expect(dotted?.message.contains("/var/cache/showcase/web is inside the cache directory") == true)
        #expect(try load(yaml + "/var/cache/showcase-web\n").export?.directory == "/var/cache/showcase-web")
    }

    @Test("refuses an export directory that contains the cache, which would publish it")
    func containsCache() throws {
        let error = try onlyError(
            minimalHosts + "cache:\n  directory: /srv/www/cache\nexport:\n  directory: /srv/www\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("contains the cache directory /srv/www/cache") == true)
    }

    @Test("refuses a gzip that is not a plain boolean")
    func badGzip() throws {
        let word = try onlyError(minimalHosts + "export:\n  directory: /srv/export\n  gzip: sometimes\n")
        #expect(word?.code == .typeMismatch)
        #expect(word?.line == 5)
        #expect(word?.message == "expected true or false for 'export.gzip', found 'sometimes'")
        let quoted = try onlyError(minimalHosts + "export:\n  directory: /srv/export\n  gzip: \"true\"\n")
        #expect(quoted?.code == .typeMismatch)
    }

    @Test("suggests the right key for a misspelled one")
    func didYouMean() throws {
        let error = try onlyError(minimalHosts + "export:\n  directory: /srv/export\n  gzpi: true\n")
        #expect(error?.message.contains("unknown key 'export.gzpi'; did you mean 'export.gzip'?") == true)
    }

    @Test("reports a bad gzip and a missing directory at once")
    func allAtOnce() throws {
        let all = try errors(minimalHosts + "export:\n  gzip: 1\n")
        #expect(all.count == 2)
        #expect(all.map(\.code) == [.missing, .typeMismatch])
    }
}
