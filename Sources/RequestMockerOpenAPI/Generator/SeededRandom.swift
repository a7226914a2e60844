import RequestMocker

/// The generator behind dynamic bodies: SplitMix64, so a seed gives the same values on every
/// platform and in every Swift version (the standard library's `random(in:)` promises neither).
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The seed for `parts` under `base`: FNV-1a over each part and a separator, so
    /// `["ab", "c"]` and `["a", "bc"]` differ.
    static func seed(_ parts: [String], base: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ base
        for part in parts {
            for byte in part.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0xff) &* 0x100_0000_01b3
        }
        return hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// A whole number in `range`, every one equally likely.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound)) &+ 1
        guard span != 0 else { return Int(truncatingIfNeeded: next()) }
        // Rejection keeps the draw even: values past the last whole multiple of `span` are drawn again.
        let limit = UInt64.max - UInt64.max % span
        var draw = next()
        while draw >= limit { draw = next() }
        return Int(truncatingIfNeeded: Int64(range.lowerBound) &+ Int64(bitPattern: draw % span))
    }

    /// A number in `range`.
    mutating func double(in range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + (range.upperBound - range.lowerBound) * unit
    }

    mutating func bool() -> Bool {
        next() & 1 == 1
    }

    mutating func element<Element>(of elements: [Element]) -> Element? {
        elements.isEmpty ? nil : elements[int(in: 0...elements.count - 1)]
    }
}
