import Foundation
import RequestMocker

/// Answers a request to a resource's operation from the store (issue 37's answering part): lists
/// and reads what is there, creates, replaces, merges and deletes, in the shapes the contract
/// declares. The contract source asks it after checking the request, and only when the request
/// forces no declared answer (`Prefer: code=…` or `example=…` still get one, and change nothing).
///
/// A list filters by the declared parameters named like an item's members (equality) and pages
/// by `limit`/`offset` or `page` and its size (their declared defaults when not sent). An unknown
/// id gets the operation's declared `404`, else a `404` problem; creating an id that is there,
/// its declared `409`, else a `409` problem; a store past its bounds, a `507` problem. A create
/// answers `201` where declared (else its lowest 2xx), always with `Location` to the new item.
/// A form's or multipart body's fields are stored as their schema reads them (``FormBody``).
/// A `PATCH` of JSON or `application/merge-patch+json` merges (RFC 7396), one of
/// `application/json-patch+json` applies its operations (RFC 6902); a patch that can't be applied,
/// or whose result breaks the item schema, is refused (`422`), and nothing changes.
package struct ResourceResponder {
    let map: ResourceMap
    let store: ResourceStore
    let contract: OpenAPIContract
    let operation: OpenAPIContract.Operation
    let index: Int
    let plan: OperationPlan
    let request: MockRequest
    /// The path parameters' values, by name, as the router captured them.
    let pathValues: [String: String]
    /// The operation's declared answer for a status, as the contract answers statelessly.
    let declared: (Int) -> ContractReply

    /// The reply from the store, or `nil` when the operation is no resource's (it answers as
    /// without state).
    func reply() -> ContractReply? {
        for collection in map.collections {
            guard let role = collection.operations.first(where: { $0.value == index })?.key else { continue }
            return reply(role, collection)
        }
        for singleton in map.singletons {
            guard let role = singleton.operations.first(where: { $0.value == index })?.key else { continue }
            return reply(role, singleton)
        }
        return nil
    }

    private func reply(_ role: ResourceMap.Role, _ collection: ResourceMap.Collection) -> ContractReply? {
        let path = concrete(collection.path)
        let id = pathValues[collection.itemParameter] ?? ""
        switch role {
        case .list: return list(collection, path)
        case .create: return create(collection, path)
        case .read:
            guard let item = store.item(id, in: path) else { return notFound(collection, id) }
            return answer(item, collection, status: success())
        case .replace:
            guard let body = object(from: request.body) else { return notAnObject() }
            let item = ResourceShaper.stored(
                body, as: collection.itemSchema, id: (collection.idProperty, idNode(id, collection)))
            do {
                if try store.replace(id, with: item, in: path) { return answer(item, collection, status: success()) }
                // A PUT to an id that isn't there creates it, where the operation declares a 201.
                guard plan.responses.contains(where: { $0.status == "201" }) else { return notFound(collection, id) }
                try store.insert(item, id: id, in: path)
                return answer(item, collection, status: 201)
            } catch {
                return refused(error)
            }
        case .merge:
            guard let patch = parsed(request.body) else { return notAnObject() }
            let isJSONPatch =
                request.header(.contentType).map { MediaType($0).essence } == "application/json-patch+json"
            // Read, patched and written back in one step of the store, so no concurrent change is lost.
            var refusal: ContractReply?
            let kept: DocumentNode?
            do {
                kept = try store.update(id, in: path) { current in
                    switch patched(current, with: patch, isJSONPatch: isJSONPatch, collection, id) {
                    case .chosen(let merged): return merged
                    case .refused(let reply):
                        refusal = reply
                        return nil
                    }
                }
            } catch {
                return refused(error)
            }
            if let refusal { return refusal }
            guard let kept else { return notFound(collection, id) }
            return answer(kept, collection, status: success())
        case .delete:
            do {
                guard try store.remove(id, from: path) else { return notFound(collection, id) }
            } catch {
                return refused(error)
            }
            // Its declared success (`204`, `200`, `202`); a contract that declares none (the
            // Swagger petstore's `deletePet` declares only 400 and 404) gets a `204`: the item is gone.
            let declaresSuccess =
                plan.lowestSuccess != nil
                || plan.responses.contains { $0.status.uppercased() == "2XX" || $0.status == "default" }
            return declaresSuccess ? declared(success()) : stored(nil, status: 204)
        }
    }

    private func reply(_ role: ResourceMap.Role, _ singleton: ResourceMap.Singleton) -> ContractReply? {
        let path = concrete(singleton.path)
        guard let schema = responseSchema(success()) else { return nil }
        switch role {
        case .read:
            // Until it is written, the singleton is what the contract answers.
            guard let value = store.singleton(at: path) else { return nil }
            return stored(ResourceShaper.shown(value, as: schema), status: success())
        case .replace, .merge:
            guard let body = parsed(request.body), case .object = body.value else { return notAnObject() }
            // Before its first write, a patch merges into what a read answers: the read's example,
            // else the value generated for its schema.
            let value =
                role == .merge
                ? Self.merge(body, into: store.singleton(at: path) ?? unwritten(singleton, schema), depth: 0)
                : ResourceShaper.stored(body, as: schema)
            if let refusal = breaks(value, schema) { return refusal }
            do {
                try store.setSingleton(value, at: path)
            } catch {
                return refused(error)
            }
            return stored(ResourceShaper.shown(value, as: schema), status: success())
        default: return nil
        }
    }

    /// What the singleton's read answers before it is written: its example, else the value
    /// generated for `schema` (the patch's own answer schema when there is no read).
    private func unwritten(_ singleton: ResourceMap.Singleton, _ schema: Schema) -> DocumentNode {
        let read = singleton.operations[.read]
        if let read, let example = ResourceMap.example(of: read, in: contract) { return example }
        let readSchema = read.flatMap { ResourceMap.readSchema(of: $0, in: contract) } ?? schema
        return (try? SchemaGenerator.value(for: readSchema, direction: .response))
            ?? DocumentNode(.object(DocumentObject()), at: 0)
    }

    private func list(_ collection: ResourceMap.Collection, _ path: String) -> ContractReply? {
        guard let shape = collection.list, let schema = responseSchema(success()) else { return nil }
        let query = request.queryItems
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        var items = store.items(in: path)
        for filter in collection.filters {
            guard let wanted = value(filter) else { continue }
            items = items.filter { item in item[filter].map(Self.text) == wanted }
        }
        let count = items.count
        var start = 0
        var size: Int?
        switch collection.paging {
        case .offset(let limit, let offset, let defaultLimit)?:
            start = value(offset).flatMap(Int.init) ?? 0
            size = value(limit).flatMap(Int.init) ?? defaultLimit
        case .page(let page, let sizeName, let defaultSize)?:
            size = sizeName.flatMap(value).flatMap(Int.init) ?? defaultSize
            let number = max(1, value(page).flatMap(Int.init) ?? 1)
            start = (number - 1) * (size ?? 0)
        case nil: break
        }
        let from = min(max(0, start), items.count)
        let to = size.map { min(items.count, from + max(0, $0)) } ?? items.count
        let page = ResourceShaper.answer(
            page: Array(items[from..<to]), itemSchema: collection.itemSchema, response: schema, shape: shape,
            totals: collection.totals, count: count)
        return stored(page, status: success())
    }

    private func create(_ collection: ResourceMap.Collection, _ path: String) -> ContractReply? {
        // A create that declares no body and gets none (the classic petstore's `POST /pets`)
        // makes an item of generated members alone.
        let sentNothing = plan.body == nil && (request.body ?? Data()).isEmpty
        guard let body = sentNothing ? DocumentNode(.object(DocumentObject()), at: 0) : object(from: request.body)
        else { return notAnObject() }
        let status = plan.responses.contains { $0.status == "201" } ? 201 : success()
        let item: DocumentNode
        do {
            // An id the client sent is kept where the request's schema has it.
            if let sent = body[collection.idProperty], sentIDIsDeclared(collection) {
                let key = Self.text(sent)
                item = ResourceShaper.stored(body, as: collection.itemSchema, id: (collection.idProperty, sent))
                try store.insert(item, id: key, in: path)
            } else {
                item = try store.create(in: path, kind: collection.idKind, schema: collection.idSchema) { id in
                    ResourceShaper.stored(body, as: collection.itemSchema, id: (collection.idProperty, id))
                }
            }
        } catch {
            return refused(error)
        }
        var reply = answer(item, collection, status: status)
        // Where the item is, always: a client that gets no body (or one without the id) has
        // nothing else to find it by, and an extra header breaks no client.
        if let id = item[collection.idProperty] {
            let text = Self.text(id)
            let escaped =
                text.utf8.allSatisfy(URICharacters.isUnreserved)
                ? text : text.addingPercentEncoding(withAllowedCharacters: Self.segmentAllowed) ?? text
            let trailing = collection.itemPath.hasSuffix("/") ? "/" : ""
            var collectionPath = request.path
            while collectionPath.count > 1, collectionPath.hasSuffix("/") { collectionPath.removeLast() }
            reply.headers.replace("Location", with: collectionPath + "/" + escaped + trailing)
        }
        return reply
    }

    /// Whether the create's request schema declares the id property (so a sent id is kept).
    private func sentIDIsDeclared(_ collection: ResourceMap.Collection) -> Bool {
        plan.body?.content.contains { $0.schema?.lookup.declares(collection.idProperty) == true } == true
    }

    /// `current` with `patch` applied (a JSON Patch, else a merge patch), its id kept, checked as
    /// it is: a patch that removes a required member is refused, not filled in again.
    private func patched(
        _ current: DocumentNode, with patch: DocumentNode, isJSONPatch: Bool, _ collection: ResourceMap.Collection,
        _ id: String
    ) -> Choice<DocumentNode> {
        var merged: DocumentNode
        if isJSONPatch {
            do {
                merged = try JSONPatch.apply(patch, to: current)
            } catch {
                return .refused(
                    ContractReply.problem(
                        422, operation: operation.description,
                        detail: "the JSON Patch can't be applied: \(error); nothing changed"))
            }
        } else {
            merged = Self.merge(patch, into: current, depth: 0)
        }
        if case .object(var object) = merged.value {
            ResourceShaper.set(
                collection.idProperty, to: current[collection.idProperty] ?? idNode(id, collection), in: &object)
            merged = DocumentNode(.object(object), at: 0)
        }
        if let refusal = breaks(merged, collection.itemSchema) { return .refused(refusal) }
        return .chosen(merged)
    }

    /// The item answered with `status`, in the shape its response schema declares.
    private func answer(_ item: DocumentNode, _ collection: ResourceMap.Collection, status: Int) -> ContractReply {
        guard let schema = responseSchema(status) else { return stored(nil, status: status) }
        let shape =
            collection.answerShapes[ResourceMap.AnswerKey(operation: index, status: status)]
            ?? ResourceMapReader.itemShape(of: schema, names: [collection.itemParameter] + ResourceMapReader.idNames)?
            .shape ?? .bare
        return stored(
            ResourceShaper.answer(item: item, itemSchema: collection.itemSchema, response: schema, shape: shape),
            status: status)
    }

    /// A reply of `body` as JSON with `status`, named as answered from the store.
    private func stored(_ body: DocumentNode?, status: Int) -> ContractReply {
        let media = plan.response(for: status)?.content.first { $0.mediaType.isJSON }?.type ?? "application/json"
        let answer = OpenAPIContract.Answer(
            operation: operation.description, status: status, how: "stored", violations: [])
        var headers: HTTPHeaders = ["RequestMocker-OpenAPI": answer.description]
        if body != nil { headers.add(.contentType, media) }
        return ContractReply(
            status: status, headers: headers, body: body.map { Data($0.jsonBytes) } ?? Data(), answer: answer)
    }

    /// The lowest 2xx the operation declares, else 200.
    private func success() -> Int {
        plan.lowestSuccess ?? 200
    }

    private func responseSchema(_ status: Int) -> Schema? {
        plan.response(for: status)?.content.first { $0.mediaType.isJSON }?.schema
    }

    private func notFound(_ collection: ResourceMap.Collection, _ id: String) -> ContractReply {
        if plan.responses.contains(where: { $0.status == "404" }) { return declared(404) }
        return problem(404, "\(concrete(collection.path)) holds no item with \(collection.idProperty) \"\(id)\"")
    }

    private func refused(_ error: any Error) -> ContractReply {
        switch error as? ResourceStore.Refusal {
        case .exists(let id)?:
            if plan.responses.contains(where: { $0.status == "409" }) { return declared(409) }
            return problem(409, "an item with id \"\(id)\" is there already; send another id, or none")
        case .full(let bound)?: return problem(507, "the resources are full: \(bound)")
        case .notSaved(let reason)?: return problem(500, reason + "; nothing changed")
        case nil: return problem(500, "\(error)")
        }
    }

    private func notAnObject() -> ContractReply {
        problem(400, "the body must be a JSON object, a form or multipart fields to be stored")
    }

    /// A refusal when `value` breaks `schema`, as validation refuses a body.
    private func breaks(_ value: DocumentNode, _ schema: Schema) -> ContractReply? {
        let violations = SchemaValidator.violations(of: value.jsonValue, against: schema, direction: .response)
        guard !violations.isEmpty else { return nil }
        let errors = violations.map { violation in
            RequestViolation(
                location: "body", name: nil, pointer: violation.pointer, keyword: violation.keyword,
                message: violation.message
            ).problemMember
        }
        return ContractReply.problem(
            422, operation: operation.description, detail: "the patched item breaks the contract; nothing changed",
            extra: ["errors": .array(errors)])
    }

    private func problem(_ status: Int, _ detail: String) -> ContractReply {
        ContractReply.problem(status, operation: operation.description, detail: detail)
    }

    /// `template` with the request's path values in place of its parameters, without a trailing
    /// slash: the store's key for a collection or a singleton.
    private func concrete(_ template: String) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else {
            return ResourceMapReader.normalized(template) ?? template
        }
        var path = template
        for name in ResourceMapReader.parameters(in: template) {
            guard let range = path.firstRange(of: "{\(name)}") else { continue }
            path.replaceSubrange(range, with: pathValues[name] ?? "")
        }
        return ResourceMapReader.normalized(path) ?? path
    }

    /// What a path segment may hold unescaped (RFC 3986's `pchar` without `/`).
    private static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(["/"])

    /// The id as the item holds it: a number for integer ids, else the text.
    private func idNode(_ id: String, _ collection: ResourceMap.Collection) -> DocumentNode {
        if collection.idKind == .integer, let int = Int(id) { return DocumentNode(.int(int), at: 0) }
        return DocumentNode(.string(id), at: 0)
    }

    private func parsed(_ body: Data?) -> DocumentNode? {
        body.flatMap { try? DocumentNode.parseJSON([UInt8]($0)) }
    }

    /// The body as an object to store: JSON, or a form's or multipart body's fields as their
    /// schema reads them (``FormBody``), without the files a multipart body carries.
    private func object(from body: Data?) -> DocumentNode? {
        if let contentType = request.header(.contentType),
            let media = plan.body?.content.first(where: { $0.mediaType.accepts(contentType) }),
            let form = FormBody.read(body ?? Data(), contentType: contentType, media: media)
        {
            return try? form.get().storable
        }
        guard let node = parsed(body), case .object = node.value else { return nil }
        return node
    }

    /// A value as a path or a query carries it: a string's text, else its JSON.
    static func text(_ node: DocumentNode) -> String {
        node.string ?? String(decoding: node.jsonBytes, as: UTF8.self)
    }

    /// `patch` merged into `target` (RFC 7396): an object's members merged one by one, `null`
    /// removing one; anything else replaces. Past the shaper's depth, the patch replaces.
    package static func merge(_ patch: DocumentNode, into target: DocumentNode, depth: Int = 0) -> DocumentNode {
        guard case .object(let changes) = patch.value, depth < ResourceShaper.maximumDepth else { return patch }
        var result = target.object ?? DocumentObject()
        for change in changes.members {
            if case .null = change.value.value {
                var kept = DocumentObject()
                for member in result.members where member.key != change.key { _ = kept.append(member) }
                result = kept
            } else {
                let merged = merge(
                    change.value, into: result[change.key] ?? DocumentNode(.null, at: 0), depth: depth + 1)
                ResourceShaper.set(change.key, to: merged, in: &result)
            }
        }
        return DocumentNode(.object(result), at: 0)
    }
}
