/// The number a generated value is drawn from: 64 bits mixed from what identifies the value
/// (its object's type and id, or the path of fields and arguments that reached it), the same in
/// every run and on every platform (no `Hasher`, whose seed changes per process).
struct GraphQLSeed: Hashable, Sendable {
    var value: UInt64

    /// The seed of the operation's root value: every answer starts here.
    static let root = GraphQLSeed(value: 0x6A09_E667_F3BC_C908)

    /// The seed of the object of `type` whose id is `id`: wherever that object is answered, its
    /// fields come from this seed, so fetching it again gives the same values.
    static func identity(_ type: String, _ id: String) -> GraphQLSeed {
        root.mixing(type).mixing(id)
    }

    /// This seed mixed with `text` (FNV-1a over its bytes, then SplitMix64's finalizer).
    func mixing(_ text: String) -> GraphQLSeed {
        var hash = value ^ 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
        return GraphQLSeed(value: Self.finalized(hash))
    }

    /// This seed mixed with a position in a list.
    func mixing(_ index: Int) -> GraphQLSeed {
        GraphQLSeed(value: Self.finalized(value &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: index + 1)))
    }

    /// A number in `0..<bound` drawn from this seed (`bound` > 0).
    func number(below bound: Int) -> Int {
        Int(value % UInt64(max(1, bound)))
    }

    /// Eight lowercase hexadecimal digits drawn from this seed.
    var hex: String {
        let digits = String(value >> 32, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    private static func finalized(_ input: UInt64) -> UInt64 {
        var z = input
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
