import RequestMocker

/// The resources a contract declares, found once when it is read: its collections (a path and
/// the item path below it), their ids, the shape of their lists and items, the paging and filter
/// parameters their list operation understands, and the singletons below their items. The first
/// part of answering a contract with state (issue 37): the store and the shaper build on it.
///
/// A path whose last segment is a parameter (`/pets/{petId}`) is an item of the collection at its
/// parent path (`/pets`) when the contract has that path; a trailing slash doesn't count
/// (`/api/parts/{id}/` is an item of `/api/parts/`). A collection below an item
/// (`/users/{userId}/posts`) is one collection per parent item. A path with a literal last
/// segment below an item, with `GET` and `PUT` or `PATCH` and no item path of its own
/// (`/users/{userId}/settings`), is a singleton: one object per parent item. Every other
/// operation (actions, searches, uploads) stays stateless.
package struct ResourceMap: Sendable, CustomStringConvertible {
    /// What an operation does to a resource.
    package enum Role: String, Sendable, CaseIterable {
        /// `GET` a collection.
        case list
        /// `POST` a collection.
        case create
        /// `GET` an item or a singleton.
        case read
        /// `PUT` an item or a singleton.
        case replace
        /// `PATCH` an item or a singleton.
        case merge
        /// `DELETE` an item.
        case delete
    }

    /// How a collection's items are told apart.
    package enum IDKind: String, Sendable {
        /// Whole numbers: one past the largest ever given in the collection.
        case integer
        /// `format: uuid` strings.
        case uuid
        /// Other strings: short, unique, within the id schema's pattern, format and length.
        case string
    }

    /// Where a response holds its item or items: the body itself, or one member of an object.
    package enum Shape: Sendable, Equatable {
        case bare
        /// The member that holds the item (`{"pet": {...}}`) or the array of items
        /// (`{"results": [...], "count": 2}`).
        case wrapped(member: String)
        /// An item answered as an array of one (the classic petstore's `GET /pets/{petId}`
        /// answers `Pets`, an array of `Pet`).
        case alone
    }

    /// The paging a list operation's declared query parameters ask for.
    package enum Paging: Sendable, Equatable {
        /// `limit` and `offset`, with the limit's declared default.
        case offset(limit: String, offset: String, defaultLimit: Int?)
        /// `page` (from 1) and the page size's parameter, when declared, with its default.
        case page(page: String, size: String?, defaultSize: Int?)
    }

    package struct Collection: Sendable {
        /// The collection's path template, as the contract writes it (`/users/{userId}/posts`).
        package let path: String
        /// The item's path template (`/users/{userId}/posts/{postId}`).
        package let itemPath: String
        /// The parameters of the parent items' ids, outermost first (`["userId"]`).
        package let parentParameters: [String]
        /// The item path's own parameter (`postId`).
        package let itemParameter: String
        /// The item property that holds its id: the one named like the path parameter, else
        /// `id`, `pk`, `uuid` or `key`.
        package let idProperty: String
        package let idKind: IDKind
        /// The id property's schema, which a made id keeps.
        package let idSchema: Schema?
        /// The item's schema, as a read answers it.
        package let itemSchema: Schema
        /// Where a read's response holds the item.
        package let item: Shape
        /// Where a list's response holds the items; `nil` when the collection has no list.
        package let list: Shape?
        /// The list response's integer members that count the items, as paths of member names
        /// (`["count"]`, `["meta", "total"]`).
        package let totals: [[String]]
        package let paging: Paging?
        /// The list's query parameters named like an item's top-level property: equality filters.
        package let filters: [String]
        /// The list's query parameters the map doesn't understand (named once in the log).
        package let ignoredParameters: [String]
        /// The operations, by their index in ``OpenAPIContract/operations``, by role.
        package let operations: [Role: Int]
        /// Where the item operations' declared 2xx answers hold the item.
        package let answerShapes: [AnswerKey: Shape]
    }

    /// An operation's answer with one status.
    package struct AnswerKey: Hashable, Sendable {
        let operation: Int
        let status: Int
    }

    package struct Singleton: Sendable {
        /// Its path template (`/users/{userId}/settings`).
        package let path: String
        /// The parameters of the parent items' ids, outermost first.
        package let parentParameters: [String]
        package let operations: [Role: Int]
    }

    package let collections: [Collection]
    package let singletons: [Singleton]
    /// The operations that answer as without state, by index, in document order.
    package let stateless: [Int]
    /// The same operations as `serve` names them: `POST /pets/{petId}/photo`.
    package let statelessNames: [String]
    /// Collections the map found but can't keep, each with why (its items have no id property).
    package let skipped: [String]

    package init(_ contract: OpenAPIContract) {
        var reader = ResourceMapReader(contract: contract)
        reader.read()
        collections = reader.collections
        singletons = reader.singletons
        skipped = reader.skipped
        let stateful = Set(
            reader.collections.flatMap(\.operations.values) + reader.singletons.flatMap(\.operations.values))
        stateless = contract.operations.indices.filter { !stateful.contains($0) }
        statelessNames = stateless.map { "\(contract.operations[$0].method) \(contract.operations[$0].path)" }
    }

    /// One line per resource, as `serve` prints them: the collection, its item path, its id,
    /// its list's shape and paging; then the singletons, and each operation that stays stateless
    /// (so a user whose upload "didn't stick" finds why at start).
    package var description: String {
        var lines = collections.map { collection in
            var line =
                "\(collection.path): items \(collection.itemPath), id \(collection.idProperty) "
                + "(\(collection.idKind.rawValue))"
            switch collection.list {
            case nil: line += ", no list"
            case .bare?, .alone?: line += ", list bare"
            case .wrapped(let member)?: line += ", list in \"\(member)\""
            }
            if case .wrapped(let member) = collection.item { line += ", item in \"\(member)\"" }
            if collection.item == .alone { line += ", item alone in an array" }
            switch collection.paging {
            case .offset(let limit, let offset, let defaultLimit)?:
                line += ", paged by \(limit)/\(offset)" + (defaultLimit.map { " (\($0))" } ?? "")
            case .page(let page, let size, let defaultSize)?:
                line += ", paged by \(page)" + (size.map { "/\($0)" } ?? "") + (defaultSize.map { " (\($0))" } ?? "")
            case nil: break
            }
            if !collection.filters.isEmpty { line += ", filtered by " + collection.filters.joined(separator: ", ") }
            if !collection.ignoredParameters.isEmpty {
                line += ", ignores " + collection.ignoredParameters.joined(separator: ", ")
            }
            return line
        }
        lines += singletons.map { "\($0.path): a singleton per parent item" }
        lines += skipped
        lines += statelessNames.map { "\($0): stateless (answered from the contract, remembers nothing)" }
        return lines.joined(separator: "\n")
    }
}
