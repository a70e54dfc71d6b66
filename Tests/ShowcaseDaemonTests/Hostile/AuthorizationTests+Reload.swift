import Foundation
import Testing

extension AuthorizationTests {
    @Test("reloading socket.admin_uids grants and revokes Admin access at once")
    func reloadedAdminUIDsApply() throws {
        let bed = try TestBed()
        try bed.start()
        let denied = try callAsNobody(bed.socketPath, "io.showcase.Admin.Status")
        #expect(denied.contains("org.varlink.service.PermissionDenied"), "\(denied)")

        bed.adminUIDs = [65534]
        #expect(try bed.reload().int("generation") == 2)
        let granted = try callAsNobody(bed.socketPath, "io.showcase.Admin.Status")
        #expect(granted.contains("\"configGeneration\":2"), "\(granted)")

        bed.adminUIDs = []
        #expect(try bed.reload().int("generation") == 3)
        let revoked = try callAsNobody(bed.socketPath, "io.showcase.Admin.Status")
        #expect(revoked.contains("org.varlink.service.PermissionDenied"), "\(revoked)")
    }
}
