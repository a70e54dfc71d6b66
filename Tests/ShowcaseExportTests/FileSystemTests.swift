import Foundation
import Testing

@testable import ShowcaseExport

@Suite("Export file system")
struct FileSystemTests {
    @Test("a pass over thousands of folders keeps a bounded number of directory descriptors open")
    func boundedDescriptors() throws {
        let directory = try TemporaryDirectory()
        let files = try FileSystem(directory: directory.path)
        for host in 0..<300 {
            for storefront in ["us", "de"] {
                guard case .success = files.directory("com.example.App\(host)/\(storefront)", creating: true) else {
                    Issue.record("could not make com.example.App\(host)/\(storefront)")
                    return
                }
                #expect(files.heldDirectories <= FileSystem.directoriesHeldLimit + 2)
            }
        }
        // Folders dropped from the cache are reopened on demand.
        guard case .success(let first) = files.directory("com.example.App0/us", creating: false) else {
            Issue.record("could not reopen com.example.App0/us")
            return
        }
        #expect(first.path == directory.file("v1/com.example.App0/us"))
    }
}
