import Foundation

/// Where a field's value comes from before its type completes it: a value the mocks give (what
/// it lacks generated from its origin), the generator, the schema's own description
/// (introspection), or a list of those.
indirect enum GraphQLMockedValue {
    case null
    case given(GraphQLJSON, GraphQLOrigin)
    case generated(GraphQLOrigin)
    case list([GraphQLMockedValue])
    case schema(GraphQLIntrospected)
}

/// What the generator knows about a value it is to make: its seed, and what the field that
/// reached it asked for.
struct GraphQLOrigin {
    var seed: GraphQLSeed
    /// Which of the possible types an abstract value takes (a list's items take turns).
    var choice = 0
    /// The id the value was asked for by (an `id` argument, or an item of `ids`).
    var id: String?
    /// The positions a generated list holds, `0..<2` unless its field asked for a count.
    var items: Range<Int>?
    /// The ids a list was asked for, one item each.
    var ids: [String]?
    var role = Role.plain

    /// The parts of a Relay connection, which answer their fields from the page they show.
    enum Role {
        case plain
        case connection(Page)
        case edge(Page, Int)
        case pageInfo(Page)
    }

    /// The items one page of a connection shows, out of how many.
    struct Page {
        var seed: GraphQLSeed
        var choice: Int
        var items: Range<Int>
        var total: Int

        /// The origin of the node at `position`, the same through `edges` and `nodes`.
        func node(_ position: Int) -> GraphQLOrigin {
            GraphQLOrigin(seed: seed.mixing("node").mixing(position), choice: choice + position)
        }
    }

    /// The origin of a list's item at `position`.
    func item(_ position: Int) -> GraphQLOrigin {
        var item = GraphQLOrigin(seed: seed.mixing(position), choice: choice + position)
        if let ids, ids.indices.contains(position) { item.id = ids[position] }
        return item
    }
}

/// The arguments that page through a list: how many items, and from where.
enum GraphQLPaging {
    /// `Int` arguments that ask for a number of items.
    static let counts = ["first", "last", "limit", "take", "perPage", "pageSize"]
    /// `Int` arguments that skip items.
    static let offsets = ["offset", "skip"]
    static let cursors = ["after", "before"]
    /// The most items a generated list holds, whatever it is asked for.
    static let maximumCount = 100
    static let defaultCount = 2

    /// The opaque cursor of the item at `position`.
    static func cursor(_ position: Int) -> String {
        Data("cursor:\(position)".utf8).base64EncodedString()
    }

    /// The position a cursor names, if it is one of ours.
    static func position(_ cursor: GraphQLJSON?) -> Int? {
        guard case .string(let text) = cursor, let data = Data(base64Encoded: text),
            let decoded = String(data: data, encoding: .utf8), decoded.hasPrefix("cursor:")
        else { return nil }
        return Int(decoded.dropFirst("cursor:".count)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The number of items `arguments` ask for, capped.
    static func count(_ arguments: [(key: String, value: GraphQLJSON)]) -> Int? {
        for name in counts {
            if case .int(let count)? = arguments.first(where: { $0.key == name })?.value {
                return min(max(0, count), maximumCount)
            }
        }
        return nil
    }

    /// The page a connection's field asks for: `first` items after a cursor (or an offset), or
    /// the `last` items before one. A generated connection holds two pages' worth of items, so
    /// a client that loads every page stops after the second.
    static func page(
        _ arguments: [(key: String, value: GraphQLJSON)], seed: GraphQLSeed, choice: Int
    ) -> GraphQLOrigin.Page {
        func argument(_ name: String) -> GraphQLJSON? { arguments.first { $0.key == name }?.value }
        let size = count(arguments) ?? defaultCount
        let total = max(size, 1) * 2
        let items: Range<Int>
        if case .int? = argument("last"), argument("first") == nil {
            let end = min(position(argument("before")) ?? total, total)
            items = max(0, end - size)..<end
        } else {
            let start = position(argument("after")).map { $0 + 1 } ?? offset(arguments) ?? 0
            items = min(start, total)..<min(total, start + size)
        }
        return GraphQLOrigin.Page(seed: seed, choice: choice, items: items, total: total)
    }

    static func offset(_ arguments: [(key: String, value: GraphQLJSON)]) -> Int? {
        for name in offsets {
            if case .int(let offset)? = arguments.first(where: { $0.key == name })?.value, offset >= 0 {
                return min(offset, 1_000_000)
            }
        }
        return nil
    }
}
