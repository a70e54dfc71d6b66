// libFuzzer target: the image header reader icons pass before they are stored (built only by `make fuzz`).
import FuzzingDriver
import ShowcaseCore

/// Any bytes as an icon body: parsed as an image header and checked as a 128-pixel icon. A header must have a
/// positive size, the check must agree with the parse, and the content name must be an icon path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data!, count: size)) : []
    switch ImageHeader.parse(bytes) {
    case .success(let header):
        precondition(header.width > 0 && header.height > 0, "a header with a size of zero was accepted")
        let checked = ImageHeader.check(bytes, size: 128)
        precondition(
            (try? checked.get()) == (header.width == 128 && header.height == 128 ? header : nil),
            "check disagrees with parse")
        precondition(IconName.isIconPath(IconName.path(of: bytes, format: header.format)), "a bad icon path")
    case .failure(let error):
        precondition(!error.description.isEmpty, "a refusal without a reason")
    }
    _ = IconURL.sized(String(decoding: bytes, as: UTF8.self), to: 128)
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzImages` (see `FuzzingDriver`).
@_cdecl("fuzz_images_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzImages)
}
