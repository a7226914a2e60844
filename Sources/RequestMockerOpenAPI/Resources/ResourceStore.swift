import RequestMocker

/// The items a contract's resources hold now (issue 37's store): per registry, so parallel tests
/// never share items; collections keyed by their concrete path (`/users/7/posts`), their items in
/// creation order and found by id; singletons by their concrete path. Every change runs under one
/// lock, so a request's read-modify-write is never interleaved with another's, and it is bounded:
/// at most ``maximumItems`` items in a collection and ``maximumBytes`` of items in all.
///
/// Ids are made here, the same in every run for the same requests in the same order: integers one
/// past the largest ever held in the collection (a deleted id is not given again), UUIDs counted
/// up, other strings made from the id's schema (its pattern, format and length) and unique.
package final class ResourceStore: Sendable {
    /// Why a change was refused; nothing changed.
    package enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The collection already holds an item with this id.
        case exists(id: String)
        /// A bound would be passed: what it is.
        case full(String)
        /// The `--state` file couldn't be written: why.
        case notSaved(String)

        package var description: String {
            switch self {
            case .exists(let id): "an item with the id \(id) is there already"
            case .full(let bound): "the resources are full: \(bound)"
            case .notSaved(let why): why
            }
        }
    }

    /// One collection: its items by id, in creation order.
    struct Collection: Sendable {
        var order: [String] = []
        var items: [String: DocumentNode] = [:]
        /// The largest integer id ever held (deleted ones too), so a new one is one past it.
        var largest = 0
        /// How many ids were made here, for UUIDs and other strings.
        var made = 0
    }

    private struct State: Sendable {
        var collections: [String: Collection] = [:]
        var singletons: [String: DocumentNode] = [:]
        /// The JSON size of every item and singleton held.
        var bytes = 0
        /// The file written after each change (`serve --state FILE`), when there is one.
        var file: URL?
    }

    /// How many items one collection holds at most.
    package static let maximumItems = 10_000
    /// How many bytes of items (as JSON) the store holds at most.
    package static let maximumBytes = 64 * 1024 * 1024

    private let state = LockedState(State())
    /// This store's bounds: ``maximumItems`` and ``maximumBytes`` unless a test asks for smaller.
    private let itemLimit: Int
    private let byteLimit: Int

    package init(maximumItems: Int = ResourceStore.maximumItems, maximumBytes: Int = ResourceStore.maximumBytes) {
        itemLimit = maximumItems
        byteLimit = maximumBytes
    }

    /// The items of the collection at `path`, in creation order.
    package func items(in path: String) -> [DocumentNode] {
        state.withLock { state in
            let collection = state.collections[path]
            return collection?.order.compactMap { collection?.items[$0] } ?? []
        }
    }

    /// The item with `id` (as a path carries it) in the collection at `path`.
    package func item(_ id: String, in path: String) -> DocumentNode? {
        state.withLock { $0.collections[path]?.items[id] }
    }

    /// Adds `item` under `id` at the end of the collection at `path`.
    package func insert(_ item: DocumentNode, id: String, in path: String) throws(Refusal) {
        try change { state throws(Refusal) in
            // Scalars only: a copy of the collection would make the append below copy its arrays.
            guard state.collections[path]?.items[id] == nil else { throw Refusal.exists(id: id) }
            guard state.collections[path]?.order.count ?? 0 < itemLimit else {
                throw Refusal.full("a collection holds at most \(itemLimit) items")
            }
            try account(adding: item, removing: nil, to: &state)
            state.collections[path, default: Collection()].order.append(id)
            state.collections[path, default: Collection()].items[id] = item
            if let int = Int(id) {
                state.collections[path, default: Collection()].largest = max(
                    state.collections[path]?.largest ?? 0, int)
            }
        }
    }

    /// Replaces the item with `id` in the collection at `path`, in its place; `false` when there
    /// is none.
    package func replace(_ id: String, with item: DocumentNode, in path: String) throws(Refusal) -> Bool {
        try change { state throws(Refusal) in
            guard let old = state.collections[path]?.items[id] else { return false }
            try account(adding: item, removing: old, to: &state)
            state.collections[path]?.items[id] = item
            return true
        }
    }

    /// Replaces the item with `id` in the collection at `path` with what `transform` makes of it,
    /// in one step under the store's lock, so two concurrent changes never lose one; `transform`
    /// returns `nil` to keep the item as it is. Returns the item kept, or `nil` when there is none.
    package func update(
        _ id: String, in path: String, _ transform: (DocumentNode) -> DocumentNode?
    ) throws(Refusal) -> DocumentNode? {
        try change { state throws(Refusal) in
            guard let old = state.collections[path]?.items[id] else { return nil }
            guard let new = transform(old) else { return old }
            try account(adding: new, removing: old, to: &state)
            state.collections[path]?.items[id] = new
            return new
        }
    }

    /// Removes the item with `id` from the collection at `path`; `false` when there is none.
    package func remove(_ id: String, from path: String) throws(Refusal) -> Bool {
        try change { state throws(Refusal) in
            guard let old = state.collections[path]?.items.removeValue(forKey: id) else { return false }
            state.collections[path]?.order.removeAll { $0 == id }
            state.bytes -= old.jsonBytes.count
            return true
        }
    }

    /// The singleton at `path`, when it was written.
    package func singleton(at path: String) -> DocumentNode? {
        state.withLock { $0.singletons[path] }
    }

    /// Writes the singleton at `path`.
    package func setSingleton(_ value: DocumentNode, at path: String) throws(Refusal) {
        try change { state throws(Refusal) in
            try account(adding: value, removing: state.singletons[path], to: &state)
            state.singletons[path] = value
        }
    }

    /// Every collection and singleton, by path in order, each collection's items in creation
    /// order, members as stored: the resources' contents as `GET /__admin/resources` and the
    /// `--state` file give them.
    package func document() -> DocumentNode {
        state.withLock { Self.document(of: $0) }
    }

    private static func document(of state: State) -> DocumentNode {
        var members: [(String, DocumentNode)] = []
        for (path, collection) in state.collections where !collection.order.isEmpty {
            members.append((path, DocumentNode(.array(collection.order.compactMap { collection.items[$0] }), at: 0)))
        }
        for (path, value) in state.singletons { members.append((path, value)) }
        var object = DocumentObject()
        for (path, value) in members.sorted(by: { $0.0 < $1.0 }) {
            _ = object.append(DocumentObject.Member(key: path, keyOffset: 0, value: value))
        }
        return DocumentNode(.object(object), at: 0)
    }

    /// Writes the resources to `file` now, and after every change from now on, before the
    /// change is answered: atomically (a process killed at any moment leaves the old file or the
    /// new one), without flushing each write to disk (a flush per change made a loop of creates
    /// stall every process's writes on a busy machine; a mock's test data doesn't need to outlive
    /// a power cut). A change that can't be written is undone and refused.
    package func save(to file: URL) throws(Refusal) {
        let refusal: Refusal? = state.withLock { state in
            if let refusal = Self.write(state, to: file) { return refusal }
            state.file = file
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Forgets every item and singleton (and writes that, when saving).
    package func reset() throws(Refusal) {
        try change { state in state = State(file: state.file) }
    }

    /// Replaces everything held with `contents` (checked by
    /// ``ResourceMap/contents(of:in:from:maximumItems:maximumBytes:)``). A collection's next
    /// integer id is one past the largest it now holds.
    package func load(_ contents: ResourceContents) throws(Refusal) {
        var loaded = State()
        for (path, items) in contents.collections {
            var collection = Collection()
            for (id, item) in items where collection.items[id] == nil {
                collection.order.append(id)
                collection.items[id] = item
                loaded.bytes += item.jsonBytes.count
                if let int = Int(id) { collection.largest = max(collection.largest, int) }
            }
            loaded.collections[path] = collection
        }
        for (path, value) in contents.singletons {
            loaded.singletons[path] = value
            loaded.bytes += value.jsonBytes.count
        }
        try change { state in
            loaded.file = state.file
            state = loaded
        }
    }

    /// Adds the item `build` makes from a new id at the end of the collection at `path`, and
    /// returns it: the id of `kind` (kept within `schema`, for strings) is made and the item added
    /// under one lock, so concurrent creates never get the same id, and a refused create uses none.
    package func create(
        in path: String, kind: ResourceMap.IDKind, schema: Schema?, _ build: (DocumentNode) -> DocumentNode
    ) throws(Refusal) -> DocumentNode {
        try change { state throws(Refusal) in
            // Taken out while it changes, so its arrays grow in place.
            var collection = state.collections.removeValue(forKey: path) ?? Collection()
            defer { state.collections[path] = collection }
            guard collection.order.count < itemLimit else {
                throw Refusal.full("a collection holds at most \(itemLimit) items")
            }
            let counters = (collection.largest, collection.made)
            let id = Self.makeID(in: &collection, at: path, kind: kind, schema: schema)
            let item = build(id)
            do throws(Refusal) {
                try account(adding: item, removing: nil, to: &state)
            } catch {
                // A refused create uses no id.
                (collection.largest, collection.made) = counters
                throw error
            }
            let key = id.string ?? String(decoding: id.jsonBytes, as: UTF8.self)
            collection.order.append(key)
            collection.items[key] = item
            return item
        }
    }

    /// A new id for `collection`, at `path`: one past its largest integer, the next UUID, or a
    /// string of `schema` it doesn't hold.
    private static func makeID(
        in collection: inout Collection, at path: String, kind: ResourceMap.IDKind, schema: Schema?
    ) -> DocumentNode {
        switch kind {
        case .integer:
            collection.largest += 1
            return DocumentNode(.int(collection.largest), at: 0)
        case .uuid:
            // Counted up past the ones the collection holds: a client's, a seed's, or a state
            // file's from an earlier run (whose count started again at its start).
            while true {
                collection.made += 1
                let hex = String(collection.made, radix: 16)
                let text = "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
                if collection.items[text] == nil { return DocumentNode(.string(text), at: 0) }
            }
        case .string:
            // The schema's own values, seeded by the collection and a count, until one is free.
            for _ in 0..<64 {
                collection.made += 1
                let seed = SeededRandom.seed([path, String(collection.made)], base: 0)
                guard let schema,
                    case .string(let text)? =
                        (try? SchemaGenerator.value(for: schema, direction: .response, seed: seed))?
                        .value
                else { break }
                if collection.items[text] == nil { return DocumentNode(.string(text), at: 0) }
            }
            // The schema has no free value left to give: a plain one the collection doesn't hold.
            while collection.items["id\(collection.made)"] != nil { collection.made += 1 }
            return DocumentNode(.string("id\(collection.made)"), at: 0)
        }
    }

    /// Writes `state` to `file`, atomically and without flushing it to disk (see
    /// ``save(to:)``); the refusal when it can't be written.
    private static func write(_ state: State, to file: URL) -> Refusal? {
        do {
            try AtomicFile.write(Data(document(of: state).jsonBytes), to: file, flushing: false)
            return nil
        } catch {
            return .notSaved("the resources can't be written to \(file.path): \(error)")
        }
    }

    /// Runs `body` on the state under the lock; when saving, writes the result before the lock
    /// is let go (so the file follows the changes in their order) and undoes the change when the
    /// file can't be written.
    private func change<Value>(_ body: (inout State) throws(Refusal) -> Value) throws(Refusal) -> Value {
        let outcome: Result<Value, Refusal> = state.withLock { state in
            // Copied only when it may be put back: a copy makes the change copy what it touches.
            let before = state.file == nil ? nil : state
            let result = Result { () throws(Refusal) in try body(&state) }
            guard case .success = result, let file = state.file, let refusal = Self.write(state, to: file) else {
                return result
            }
            if let before { state = before }
            return .failure(refusal)
        }
        return try outcome.get()
    }

    /// Counts `added` in and `removed` out of the store's size, refusing past its byte bound.
    private func account(
        adding added: DocumentNode, removing removed: DocumentNode?, to state: inout State
    )
        throws(Refusal)
    {
        let size = state.bytes + added.jsonBytes.count - (removed?.jsonBytes.count ?? 0)
        guard size <= byteLimit else {
            let shown = byteLimit % (1024 * 1024) == 0 ? "\(byteLimit / (1024 * 1024)) MiB" : "\(byteLimit) bytes"
            throw Refusal.full("the store holds at most \(shown) of items")
        }
        state.bytes = size
    }
}
