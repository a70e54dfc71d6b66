import CZlib
import FoundationEssentials

/// gzip through zlib, deterministic: no file name and a zero timestamp in the header, so one input always gives
/// the same bytes and an unchanged document's `.json.gz` is never rewritten.
enum Gzip {
    /// zlib's default level (6, gzip's own default), the export's documents'.
    static let defaultLevel = Z_DEFAULT_COMPRESSION
    /// zlib's fastest level (1), the site's pages' and sitemaps': a site pass compresses every page it writes (tens
    /// of thousands with many developers), so compression bounds the pass, and the few bytes more a page takes at
    /// this level cost less than the time a higher one would.
    static let fastestLevel = Z_BEST_SPEED

    /// `data` gzip-compressed at `level`; nil only if zlib fails, which it does not for in-memory input. Not
    /// level 9: a pass compresses every document it changes, and a higher level costs that pass far more time than
    /// it saves bytes.
    static func compress(_ data: Data, level: Int32 = defaultLevel) -> Data? {
        guard data.count <= Int(UInt32.max) / 2 else { return nil }
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(data.count))) + 32
        var output = Data(count: capacity)
        let status = data.withUnsafeBytes { input -> Int32 in
            output.withUnsafeMutableBytes { out -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.count = Int(stream.total_out)
        return output
    }

    /// The content of a gzip file, or nil when it is not one or would inflate past `limit` bytes (a file that
    /// large is not the document it should hold, whatever it is).
    static func decompress(_ data: Data, limit: Int) -> Data? {
        guard !data.isEmpty, data.count <= Int(UInt32.max) / 2 else { return nil }
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return data.withUnsafeBytes { input -> Data? in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= limit else { return nil }
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: if produced == 0 && stream.avail_in == 0 { return nil }
                default: return nil
                }
            }
        }
    }
}
