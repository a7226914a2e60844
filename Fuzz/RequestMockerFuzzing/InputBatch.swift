import Foundation

/// Inputs handed from the fuzzer to a child process in one file: each a 4-byte little-endian
/// length, then its bytes.
package enum InputBatch {
    package static func encode(_ inputs: [Data]) -> Data {
        var data = Data()
        for input in inputs {
            var length = UInt32(input.count).littleEndian
            withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
            data.append(input)
        }
        return data
    }

    /// The inputs, or as many as are whole.
    package static func decode(_ data: Data) -> [Data] {
        var inputs: [Data] = []
        var offset = data.startIndex
        while data.endIndex - offset >= 4 {
            let length = data[offset..<(offset + 4)].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            offset += 4
            guard data.endIndex - offset >= length else { break }
            inputs.append(data.subdata(in: offset..<(offset + length)))
            offset += length
        }
        return inputs
    }
}
