/// Bencoding of JSON values, applied to JSON request bodies so that key order and whitespace
/// don't change a mock-data file name (MockDataNaming.md, rule 4).
///
/// - strings: `<UTF-8 byte count>:<bytes>`
/// - numbers: `i<integer>e`, with fractions truncated toward zero (`2.7` → `i2e`) so that existing
///   mock-data file names still match; a number outside `Int`'s range can't be encoded
/// - Booleans: `i1e` and `i0e`
/// - arrays: `l…e`; objects: `d…e` with keys sorted by their UTF-8 bytes
/// - `null` can't be encoded, anywhere in the value
enum Bencode {
    /// The encoding of `value`, or `nil` when it holds a `null` or an out-of-range number (the
    /// request's file names then use the body's hash alone).
    static func encode(_ value: JSONValue) -> [UInt8]? {
        /// A value bencoding can't hold.
        struct Unencodable: Error {}
        var output: [UInt8] = []
        let byUTF8: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        do {
            try value.walk(keysInOrder: byUTF8) { (step, _) throws(Unencodable) in
                switch step {
                case .scalar(.null), .scalar(.array), .scalar(.object):
                    throw Unencodable()
                case .scalar(.bool(let flag)):
                    output.append(contentsOf: (flag ? "i1e" : "i0e").utf8)
                case .scalar(.int(let number)):
                    output.append(contentsOf: "i\(number)e".utf8)
                case .scalar(.double(let number)):
                    guard let integer = Int(exactly: number.rounded(.towardZero)) else { throw Unencodable() }
                    output.append(contentsOf: "i\(integer)e".utf8)
                case .scalar(.string(let string)), .member(let string, _):
                    output.append(contentsOf: "\(string.utf8.count):".utf8)
                    output.append(contentsOf: string.utf8)
                case .startArray: output.append(UInt8(ascii: "l"))
                case .startObject: output.append(UInt8(ascii: "d"))
                case .element: break
                case .end: output.append(UInt8(ascii: "e"))
                }
            }
        } catch {
            return nil
        }
        return output
    }
}

extension String {
    /// Percent-encodes every byte outside the characters a URL query allows unescaped
    /// (RFC 3986's unreserved set plus `! $ & ' ( ) * + , ; = : @ / ?`, the set of
    /// `CharacterSet.urlQueryAllowed`). Ours, so Linux and Apple platforms agree byte for byte.
    var queryAllowedPercentEncoded: String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        for byte in utf8 {
            if allowed.contains(byte) {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
