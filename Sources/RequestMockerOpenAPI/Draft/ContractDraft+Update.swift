import Foundation
import RequestMocker

/// An existing contract with what recorded traffic shows it lacks (`request-mocker draft
/// --openapi EXISTING`, ``ContractDraft/update()``): the contract to write, and one line per
/// addition.
///
/// ```swift
/// let draft = ContractDraft(existing: try OpenAPIContract(contentsOf: url))
/// draft.add(contentsOf: cassette)
/// let update = try draft.update()
/// for line in update.additions { print(line) }   // added GET /users/{id} 404, …
/// try update.write(to: url)
/// ```
public struct ContractUpdate: Sendable {
    package let document: DocumentNode
    /// What was added, in document order: `added GET /pets/{petId} 404`.
    public let additions: [String]
    /// What the traffic shows but couldn't be added, and why: `GET /pets/{petId} 200
    /// application/json /owner: its schema is in another file`.
    public let unchanged: [String]

    /// Writes the updated contract to `file`, as JSON when its extension is `json`, else as
    /// YAML (comments and quoting of a YAML original are not kept), replacing it atomically.
    ///
    /// ```swift
    /// try update.write(to: URL(fileURLWithPath: "openapi.yaml"))
    /// ```
    public func write(to file: URL) throws {
        try ContractDraft.write(document, to: file)
    }

    /// The updated contract as YAML.
    ///
    /// ```swift
    /// print(String(decoding: update.yaml(), as: UTF8.self))
    /// ```
    public func yaml() -> Data { Data(YAMLWriter.bytes(of: document)) }
}

extension ContractDraft {
    /// The existing contract (given at ``init(basePath:existing:)``) with what the traffic shows
    /// it lacks, and nothing else changed (without one, the draft itself): its version and dialect
    /// too (3.0's `nullable`, 3.1's type lists). Added are operations (on its paths, and new paths
    /// from the templating rules), statuses, media types, request bodies, properties and widened
    /// types; a `$ref` within its entry file is followed to what it names, and what lives in
    /// another file is listed as unchanged. Parameters, `required` and enums are left as they are:
    /// `check` reports what breaks them.
    ///
    /// ```swift
    /// let update = try draft.update()
    /// ```
    public func update() throws(OpenAPIContract.Error) -> ContractUpdate {
        guard let existing else {
            return ContractUpdate(document: document(), additions: [], unchanged: [])
        }
        let contract = existing.contract
        var editor = try DocumentEditor(contentsOf: contract.url, isOpenAPI30: contract.version.hasPrefix("3.0"))
        var schemes = SchemeNames(existing: editor.root)
        for index in existing.operations.keys.sorted() {
            guard let shape = existing.operations[index] else { continue }
            editor.update(contract.operations[index], plan: contract.plans[index], with: shape, draft: self)
        }
        for template in existing.methods.keys.sorted() {
            for method in Self.methods {
                guard let shape = existing.methods[template]?[method] else { continue }
                var operation = operationNode(shape, schemes: &schemes)
                let item = editor.resolve(["paths", template])
                let declared = item.flatMap { editor.node(at: $0 + ["parameters"]) }
                if declared == nil {
                    // The path's parameters, where the path item doesn't declare them for all.
                    operation = operation.adding(
                        ("parameters", .list(Self.pathParameters(of: template))), before: "parameters")
                }
                editor.add(operation, at: ["paths", template, method.lowercased()], saying: "\(method) \(template)")
            }
        }
        let tree = root.copy()
        tree.foldSiblings(pastFirst: false)
        for (template, parameters, node) in tree.templates() {
            let methods = Self.methods.filter { node.operations[$0] != nil }
            guard !methods.isEmpty else { continue }
            var item: [(String, DocumentNode)] = []
            if !parameters.isEmpty {
                item.append(("parameters", .list(parameters.map { Self.pathParameter($0.name, $0.values.schema) })))
            }
            for method in methods {
                guard let operation = node.operations[method] else { continue }
                item.append((method.lowercased(), operationNode(operation, schemes: &schemes)))
            }
            editor.add(
                .map(item), at: ["paths", template],
                saying: "path \(template) (\(methods.joined(separator: ", ")))")
        }
        for (name, scheme) in schemes.all {
            editor.add(scheme, at: ["components", "securitySchemes", name], saying: "security scheme \(name)")
        }
        return ContractUpdate(document: editor.root, additions: editor.additions, unchanged: editor.unchanged)
    }

    /// A path parameter as a draft declares it.
    static func pathParameter(_ name: String, _ schema: DocumentNode) -> DocumentNode {
        .map([
            ("name", .text(name)), ("in", .text("path")), ("required", DocumentNode(.bool(true), at: 0)),
            ("schema", schema),
        ])
    }

    /// The parameters a template names (`/pets/{petId}` → `petId`), as strings.
    static func pathParameters(of template: String) -> [DocumentNode] {
        template.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map {
            pathParameter(String($0.dropFirst().dropLast()), .map([("type", .text("string"))]))
        }
    }
}
