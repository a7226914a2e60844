import RequestMocker

/// JSON Patch (RFC 6902): a list of operations (`add`, `remove`, `replace`, `move`, `copy`,
/// `test`) applied in order to a stored item, as a `PATCH` of `application/json-patch+json` asks.
/// All or nothing: the first operation that can't be applied refuses the whole patch.
package enum JSONPatch {
    /// Why a patch can't be applied: which operation, and what was wrong.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        /// The operation's index in the patch.
        package let operation: Int
        package let reason: String

        package var description: String { "operation \(operation): \(reason)" }
    }

    /// How many steps a path may have: as deep as the shaper follows an item.
    static let maximumDepth = ResourceShaper.maximumDepth

    /// `document` with `patch` (a JSON array of operations) applied.
    package static func apply(_ patch: DocumentNode, to document: DocumentNode) throws(Failure) -> DocumentNode {
        guard case .array(let operations) = patch.value else {
            throw Failure(operation: 0, reason: "a JSON Patch is an array of operations")
        }
        var result = document
        for (index, operation) in operations.enumerated() {
            do throws(Reason) {
                result = try applying(operation, to: result)
            } catch {
                throw Failure(operation: index, reason: error.text)
            }
        }
        return result
    }

    private struct Reason: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    private static func applying(_ operation: DocumentNode, to document: DocumentNode) throws(Reason) -> DocumentNode {
        guard let op = operation["op"]?.string else { throw Reason("it has no \"op\"") }
        let path = try steps(operation, "path")
        switch op {
        case "add":
            return try add(try value(operation), at: path, in: document)
        case "remove":
            return try remove(at: path, in: document)
        case "replace":
            guard value(at: path, in: document) != nil else { throw Reason("\(pointer(path)) is not there to replace") }
            guard let last = path.last else { return try value(operation) }
            let replacement = try value(operation)
            // In its place: an object's member keeps its position, an array's element its index.
            return try changing(Array(path.dropLast()), in: document) { parent throws(Reason) in
                switch parent.value {
                case .object(var object):
                    ResourceShaper.set(last, to: replacement, in: &object)
                    return DocumentNode(.object(object), at: 0)
                case .array(var elements):
                    elements[Int(last) ?? 0] = replacement
                    return DocumentNode(.array(elements), at: 0)
                default: return parent
                }
            }
        case "move", "copy":
            let from = try steps(operation, "from")
            guard let moved = value(at: from, in: document) else { throw Reason("\(pointer(from)) is not there") }
            if op == "copy" { return try add(moved, at: path, in: document) }
            guard from == path || !path.starts(with: from) else {
                throw Reason("\(pointer(from)) can't move into itself")
            }
            return try add(moved, at: path, in: try remove(at: from, in: document))
        case "test":
            guard let found = value(at: path, in: document), found.jsonValue == (try value(operation)).jsonValue else {
                throw Reason("the test of \(pointer(path)) failed")
            }
            return document
        default:
            throw Reason("\"\(op)\" is not an operation; use add, remove, replace, move, copy or test")
        }
    }

    private static func value(_ operation: DocumentNode) throws(Reason) -> DocumentNode {
        guard let value = operation["value"] else { throw Reason("it has no \"value\"") }
        return value
    }

    /// The steps of the operation's JSON pointer member `key` (RFC 6901).
    private static func steps(_ operation: DocumentNode, _ key: String) throws(Reason) -> [String] {
        guard let text = operation[key]?.string else { throw Reason("it has no \"\(key)\"") }
        guard text.isEmpty || text.hasPrefix("/") else { throw Reason("\"\(text)\" is not a JSON pointer") }
        let steps = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        guard steps.count <= maximumDepth else { throw Reason("\"\(text)\" is deeper than \(maximumDepth) steps") }
        return steps
    }

    private static func pointer(_ steps: [String]) -> String {
        steps.isEmpty ? "the document" : steps.map { "/" + Located.escaped($0) }.joined()
    }

    private static func value(at steps: [String], in document: DocumentNode) -> DocumentNode? {
        let (node, reached) = document.deepest(at: steps)
        return reached == steps.count ? node : nil
    }

    private static func add(
        _ value: DocumentNode, at steps: [String], in document: DocumentNode
    ) throws(Reason)
        -> DocumentNode
    {
        guard let last = steps.last else { return value }
        return try changing(Array(steps.dropLast()), in: document) { parent throws(Reason) in
            switch parent.value {
            case .object(var object):
                ResourceShaper.set(last, to: value, in: &object)
                return DocumentNode(.object(object), at: 0)
            case .array(var elements):
                if last == "-" {
                    elements.append(value)
                } else {
                    guard let index = Int(last), last == String(index), (0...elements.count).contains(index) else {
                        throw Reason("\(pointer(steps)) is past the end of its array")
                    }
                    elements.insert(value, at: index)
                }
                return DocumentNode(.array(elements), at: 0)
            default:
                throw Reason("\(pointer(Array(steps.dropLast()))) holds no object or array to add to")
            }
        }
    }

    private static func remove(at steps: [String], in document: DocumentNode) throws(Reason) -> DocumentNode {
        guard let last = steps.last else { throw Reason("the whole document can't be removed") }
        return try changing(Array(steps.dropLast()), in: document) { parent throws(Reason) in
            switch parent.value {
            case .object(let object) where object[last] != nil:
                var kept = DocumentObject()
                for member in object.members where member.key != last { _ = kept.append(member) }
                return DocumentNode(.object(kept), at: 0)
            case .array(var elements):
                guard let index = Int(last), last == String(index), elements.indices.contains(index) else {
                    throw Reason("\(pointer(steps)) is not there to remove")
                }
                elements.remove(at: index)
                return DocumentNode(.array(elements), at: 0)
            default:
                throw Reason("\(pointer(steps)) is not there to remove")
            }
        }
    }

    /// `document` with the value at `steps` replaced by what `change` makes of it; every step
    /// must be there. Recurses once per step, at most ``maximumDepth``.
    private static func changing(
        _ steps: [String], in document: DocumentNode, _ change: (DocumentNode) throws(Reason) -> DocumentNode
    ) throws(Reason) -> DocumentNode {
        guard let first = steps.first else { return try change(document) }
        let rest = Array(steps.dropFirst())
        switch document.value {
        case .object(var object):
            guard let member = object[first] else { throw Reason("\(pointer(steps)) is not there") }
            ResourceShaper.set(first, to: try changing(rest, in: member, change), in: &object)
            return DocumentNode(.object(object), at: 0)
        case .array(var elements):
            guard let index = Int(first), first == String(index), elements.indices.contains(index) else {
                throw Reason("\(pointer(steps)) is not there")
            }
            elements[index] = try changing(rest, in: elements[index], change)
            return DocumentNode(.array(elements), at: 0)
        default:
            throw Reason("\(pointer(steps)) is not there")
        }
    }
}
