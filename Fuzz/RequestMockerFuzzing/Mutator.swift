import Foundation

/// Makes new inputs from seeds, reproducibly: the same seed number gives the same inputs.
package struct Mutator {
    private var state: UInt64
    private let seeds: [Data]
    private let tokens: [Data]
    /// Inputs are kept under this size.
    static let maximumSize = 64 * 1024

    package init(seed: UInt64, seeds: [Data], tokens: [Data]) {
        state = seed
        self.seeds = seeds.isEmpty ? [Data()] : seeds
        self.tokens = tokens.isEmpty ? [Data([0])] : tokens
    }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(next() % UInt64(bound))
    }

    /// A seed with one to four mutations.
    package mutating func input() -> Data {
        var bytes = [UInt8](seeds[below(seeds.count)])
        for _ in 0...below(4) { mutate(&bytes) }
        return Data(bytes.prefix(Self.maximumSize))
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = below(bytes.count + 1)
        switch below(7) {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[min(position, bytes.count - 1)] ^= UInt8(1) << UInt8(below(8))
        case 1 where !bytes.isEmpty:  // an interesting byte
            let interesting: [UInt8] = [0, 0x7F, 0x80, 0xFF, 0x0A, 0x0D, 0x20, 0x22, 0x25, 0x2A, 0x3C, 0x5B, 0x7B]
            bytes[min(position, bytes.count - 1)] = interesting[below(interesting.count)]
        case 2:  // delete a range
            let end = min(bytes.count, position + 1 + below(16))
            bytes.removeSubrange(min(position, end)..<end)
        case 3:  // duplicate a range somewhere else
            let end = min(bytes.count, position + 1 + below(64))
            let copied = Array(bytes[min(position, end)..<end])
            bytes.insert(contentsOf: copied, at: below(bytes.count + 1))
        case 4:  // a token of the format
            bytes.insert(contentsOf: tokens[below(tokens.count)], at: position)
        case 5:  // the start of this input, the end of another seed
            let other = [UInt8](seeds[below(seeds.count)])
            bytes = Array(bytes[..<position]) + other[below(other.count + 1)...]
        default:  // a token many times over: deep nesting, long lines
            let token = [UInt8](tokens[below(tokens.count)])
            let times = 2 + below(1_000)
            bytes.insert(contentsOf: Array(repeating: token, count: times).joined(), at: position)
        }
    }
}
