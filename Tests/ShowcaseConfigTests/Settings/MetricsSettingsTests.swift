import Foundation
import ShowcaseConfig
import Testing

@Suite("The metrics: section")
struct MetricsSettingsTests {
    @Test("writes no textfile and rewrites every 60 s when the section is absent")
    func defaults() throws {
        let metrics = try load(minimalHosts).metrics
        #expect(metrics.textfile == nil)
        #expect(metrics.interval == .seconds(60))
    }

    @Test("reads the textfile, relative to the configuration file, and the interval")
    func readsKeys() throws {
        let directory = try TemporaryDirectory(
            files: ["showcase.yaml": minimalHosts + "metrics:\n  textfile: prom/showcase.prom\n  interval: 15s\n"])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        #expect(configuration.metrics.textfile == directory.file("prom/showcase.prom"))
        #expect(configuration.metrics.interval == .seconds(15))
        let absolute = try load(minimalHosts + "metrics:\n  textfile: /var/lib/node/showcase.prom\n")
        #expect(absolute.metrics.textfile == "/var/lib/node/showcase.prom")
    }

    @Test("takes an explicit null textfile as no file")
    func nullTextfile() throws {
        #expect(try load(minimalHosts + "metrics:\n  textfile: null\n").metrics.textfile == nil)
    }

    @Test("refuses a textfile node_exporter would never read, naming the key and line")
    func notProm() throws {
        let error = try onlyError(minimalHosts + "metrics:\n  textfile: /var/lib/node/showcase.txt\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 4)
        #expect(error?.message.contains("'metrics.textfile' must name a file ending in .prom") == true)
        #expect(error?.message.contains("showcase.txt") == true)
    }

    @Test("refuses an interval under a second or that is no duration")
    func badInterval() throws {
        let short = try onlyError(minimalHosts + "metrics:\n  interval: 200ms\n")
        #expect(short?.code == .invalidValue)
        #expect(short?.message == "'metrics.interval' must be at least 1s, found '200ms'")
        let text = try onlyError(minimalHosts + "metrics:\n  interval: often\n")
        #expect(text?.code == .typeMismatch)
    }

    @Test("suggests the right key for a misspelled one")
    func didYouMean() throws {
        let error = try onlyError(minimalHosts + "metrics:\n  text_file: /x.prom\n")
        #expect(error?.message.contains("metrics.text_file") == true)
        #expect(error?.message.contains("textfile") == true)
    }
}
