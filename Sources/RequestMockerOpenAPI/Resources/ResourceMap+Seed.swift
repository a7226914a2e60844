import RequestMocker

extension ResourceMap {
    /// Puts the contract's examples into `store`, as a contract that remembers starts: each
    /// collection holds the items of its list response's example and of every example of its read
    /// response (each named one too: a `dog` and a `cat` are two pets), by id, each once (for the
    /// same id, the read's example wins). A collection below an item has
    /// no items at start (its examples name no parent), and a singleton is its read's answer until
    /// it is written.
    func seed(_ store: ResourceStore, from contract: OpenAPIContract) {
        for collection in collections where collection.parentParameters.isEmpty {
            var order: [String] = []
            var items: [String: DocumentNode] = [:]
            func take(_ item: DocumentNode) {
                guard case .object = item.value, let id = item[collection.idProperty] else { return }
                let key = ResourceResponder.text(id)
                if items[key] == nil { order.append(key) }
                items[key] = item
            }
            if let index = collection.operations[.list], let shape = collection.list,
                let example = Self.example(of: index, in: contract)
            {
                let list: DocumentNode? =
                    switch shape {
                    case .bare, .alone: example
                    case .wrapped(let member): example[member]
                    }
                if case .array(let elements)? = list?.value { elements.forEach(take) }
            }
            if let index = collection.operations[.read] {
                for example in Self.examples(of: index, in: contract) {
                    switch collection.item {
                    case .bare: take(example)
                    case .wrapped(let member): example[member].map(take)
                    case .alone: if case .array(let elements) = example.value { elements.forEach(take) }
                    }
                }
            }
            let path = ResourceMapReader.normalized(collection.path) ?? collection.path
            for key in order {
                guard let item = items[key] else { continue }
                try? store.insert(item, id: key, in: path)
            }
        }
    }

    /// The example the operation's lowest 2xx JSON answer gives: the media type's `example`, else
    /// its first named example, else its schema's example.
    static func example(of index: Int, in contract: OpenAPIContract) -> DocumentNode? {
        guard let media = successMedia(of: index, in: contract) else { return nil }
        return media.example ?? media.examples.first?.value ?? media.schema?.exampleNode
    }

    /// Every example the operation's lowest 2xx JSON answer gives: the media type's `example`
    /// and each of its named examples, in document order; else its schema's example.
    static func examples(of index: Int, in contract: OpenAPIContract) -> [DocumentNode] {
        guard let media = successMedia(of: index, in: contract) else { return [] }
        let written = (media.example.map { [$0] } ?? []) + media.examples.map(\.value)
        return written.isEmpty ? (media.schema?.exampleNode.map { [$0] } ?? []) : written
    }

    /// The JSON media type of the operation's lowest 2xx answer (else its `200`'s, its `2XX`'s or
    /// its `default`'s): where reads find their schema and examples.
    static func successMedia(of index: Int, in contract: OpenAPIContract) -> OperationPlan.Media? {
        let plan = contract.plans[index]
        return plan.response(for: plan.lowestSuccess ?? 200)?.content.first { $0.mediaType.isJSON }
    }
}
