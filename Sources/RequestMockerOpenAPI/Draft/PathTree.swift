import RequestMocker

/// The paths recordings reached, as a tree of segments whose ids are folded into parameters,
/// with what each operation at each path saw.
///
/// A segment becomes a parameter as it is added when it is an id by its shape
/// (``PathShape/isIdByShape(_:)``), so a tree's size follows the distinct shapes of the paths,
/// not the number of ids. ``foldSiblings(pastFirst:depth:)`` then folds words by their siblings:
/// at least ``minimumSiblings`` distinct ones under the same parent whose subtrees have the same
/// literal children or none (see ``foldableSiblings()``).
final class PathNode {
    private(set) var literals: [String: PathNode] = [:]
    private(set) var parameter: PathNode?
    /// For a parameter: what its values had in common.
    private(set) var values = ParameterValues()
    /// Distinct values of the parent segment this one was seen under, up to two.
    private var parents: [String] = []
    private(set) var operations: [String: OperationShape] = [:]

    static let minimumSiblings = 3
    /// Past this many literal children, further words at a place are read as its parameter's
    /// values, so hostile or endless paths can't grow the tree without bound.
    static let maximumLiterals = 1_000
    /// Paths with more segments are left out of a draft.
    static let maximumSegments = 64
    /// The most nodes a tree makes for words: an API has hundreds of paths, not 100,000.
    static let maximumNodes = 100_000

    /// Follows (or makes) the child for `segment`. `position` says where it stands: among the
    /// leading version-like segments, the first segment after them, or deeper. `nodes` counts the
    /// tree's nodes: past ``maximumNodes`` a new word is read as the place's parameter.
    func child(for segment: String, position: SegmentPosition, nodes: inout Int) -> PathNode {
        let full = nodes >= Self.maximumNodes && literals[segment] == nil
        let becomesParameter: Bool
        switch position {
        case .version: becomesParameter = literals[segment] == nil && literals.count >= Self.maximumLiterals
        case .first:
            becomesParameter =
                (PathShape.isIdByShape(segment) && !PathShape.isDate(segment)) || !PathShape.isWritableLiteral(segment)
                || (literals[segment] == nil && literals.count >= Self.maximumLiterals)
        case .deeper:
            becomesParameter =
                !PathShape.isVersionLike(segment)
                && (PathShape.isIdByShape(segment) || !PathShape.isWritableLiteral(segment)
                    || (literals[segment] == nil && literals.count >= Self.maximumLiterals))
        }
        let child: PathNode
        if becomesParameter || full {
            if parameter == nil { nodes += 1 }
            child = parameter ?? PathNode()
            child.values.add(segment)
            parameter = child
        } else {
            if literals[segment] == nil { nodes += 1 }
            child = literals[segment] ?? PathNode()
            literals[segment] = child
        }
        return child
    }

    /// Notes that this node was reached below the parent segment `value`.
    func noteParent(_ value: String) {
        if parents.count < 2, !parents.contains(value) { parents.append(value) }
    }

    func operation(_ method: String) -> OperationShape {
        if let known = operations[method] { return known }
        let made = OperationShape()
        operations[method] = made
        return made
    }

    /// A tree of its own with what this one holds, for folding without changing this one.
    func copy() -> PathNode {
        let copy = PathNode()
        copy.values = values
        copy.parents = parents
        copy.operations = operations.mapValues { $0.copy() }
        copy.literals = literals.mapValues { $0.copy() }
        copy.parameter = parameter?.copy()
        return copy
    }

    /// Takes in `other`'s subtree and operations, as if its paths had been added here.
    private func absorb(_ other: PathNode) {
        values.absorb(other.values)
        for parent in other.parents { noteParent(parent) }
        for (method, theirs) in other.operations {
            if let mine = operations[method] { mine.absorb(theirs) } else { operations[method] = theirs.copy() }
        }
        for (segment, theirs) in other.literals {
            if let mine = literals[segment] { mine.absorb(theirs) } else { literals[segment] = theirs }
        }
        if let theirs = other.parameter {
            if let parameter { parameter.absorb(theirs) } else { parameter = theirs }
        }
    }

    /// Folds words into parameters by their siblings, everywhere below the first segment,
    /// top-down. `pastFirst` says whether this node's children stand past the first segment (the
    /// first of the path, or the first after a version-like one). Words below a parameter don't
    /// fold: an app's traffic often reads one item's sub-resources (`/users/42/followers`,
    /// `/users/42/following`, `/users/42/repos`), which are names, not ids.
    func foldSiblings(pastFirst: Bool, isParameter: Bool = false, depth: Int = 0) {
        guard depth < Self.maximumSegments else { return }
        if pastFirst, !isParameter, let family = foldableSiblings() {
            let folded = parameter ?? PathNode()
            for segment in family {
                guard let child = literals.removeValue(forKey: segment) else { continue }
                folded.values.add(segment)
                folded.absorb(child)
            }
            parameter = folded
        }
        for (segment, child) in literals {
            child.foldSiblings(pastFirst: !PathShape.isVersionLike(segment), depth: depth + 1)
        }
        parameter?.foldSiblings(pastFirst: true, isParameter: true, depth: depth + 1)
    }

    /// The words among the children that fold into one parameter, sorted, or `nil` when fewer
    /// than ``minimumSiblings`` do. A word folds when it isn't version-like, wasn't seen under
    /// two values of a parameter parent (then it names a sub-resource), and has no parameter of
    /// its own (then it is a collection: `/api/kernels/{kernelId}` beside `/api/status`). Of
    /// those, the words with no children fold with the largest group that has the same literal
    /// children (a client reads some items' sub-resources and not others: Jupyter's files with
    /// `checkpoints` beside its notebooks without); a word whose children differ stays. Beside a
    /// parameter they join it, when at least ``minimumSiblings`` do (one or two words beside a
    /// template stay: `/users/me` beside `/users/{userId}`).
    private func foldableSiblings() -> [String]? {
        var leaves: [String] = []
        var groups: [[String]: [String]] = [:]
        for (segment, child) in literals
        where !PathShape.isVersionLike(segment) && child.parents.count < 2 && child.parameter == nil {
            if child.literals.isEmpty {
                leaves.append(segment)
            } else {
                groups[child.literals.keys.sorted(), default: []].append(segment)
            }
        }
        // Beside a parameter with children of its own, only words with the same children join it.
        let chosen: [String]?
        if let parameter, !parameter.literals.isEmpty {
            chosen = groups[parameter.literals.keys.sorted()]
        } else {
            chosen =
                groups.max { left, right in
                    left.value.count != right.value.count
                        ? left.value.count < right.value.count
                        : left.key.joined(separator: "/") > right.key.joined(separator: "/")
                }?.value
        }
        let family = leaves + (chosen ?? [])
        return family.count >= Self.minimumSiblings ? family.sorted() : nil
    }

    /// Every path with operations below this node: its template, its path parameters (name and
    /// values), and its node; sorted by template.
    func templates() -> [(template: String, parameters: [(name: String, values: ParameterValues)], node: PathNode)] {
        var found: [(String, [(String, ParameterValues)], PathNode)] = []
        var pending: [(node: PathNode, template: String, parameters: [(String, ParameterValues)], parent: String?)] = [
            (self, "", [], nil)
        ]
        while let (node, template, parameters, parent) = pending.popLast() {
            if !node.operations.isEmpty { found.append((template.isEmpty ? "/" : template, parameters, node)) }
            for (segment, child) in node.literals {
                pending.append((child, template + "/" + segment, parameters, segment))
            }
            if let child = node.parameter {
                var name = PathShape.parameterName(under: parent)
                var suffix = 2
                let base = name
                while parameters.contains(where: { $0.0 == name }) {
                    name = base + String(suffix)
                    suffix += 1
                }
                pending.append((child, template + "/{\(name)}", parameters + [(name, child.values)], nil))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}

/// Where a segment stands in its path, for the templating rules.
enum SegmentPosition {
    /// One of the leading version-like segments (`api`, `v1`): always literal.
    case version
    /// The first segment after those: a parameter only when it is an id by its shape.
    case first
    /// Any later segment: a parameter by its shape or by its siblings.
    case deeper
}

/// What the values of a path parameter had in common.
struct ParameterValues {
    private(set) var count = 0
    private var allInteger = true
    private var allUUID = true
    private var allDate = true

    mutating func add(_ value: String) {
        count += 1
        if allInteger, !TextShape.isInteger(value) || value.hasPrefix("-") { allInteger = false }
        if allUUID, !FormatCheck.isUUID(value) { allUUID = false }
        if allDate, !PathShape.isDate(value) { allDate = false }
    }

    mutating func absorb(_ other: ParameterValues) {
        count += other.count
        allInteger = allInteger && other.allInteger
        allUUID = allUUID && other.allUUID
        allDate = allDate && other.allDate
    }

    /// `integer` only when every value was one without a leading zero; a UUID or date format
    /// when every value had it; else a string.
    var schema: DocumentNode {
        if count > 0, allInteger { return .map([("type", .text("integer"))]) }
        if count > 0, allUUID { return .map([("type", .text("string")), ("format", .text("uuid"))]) }
        if count > 0, allDate { return .map([("type", .text("string")), ("format", .text("date"))]) }
        return .map([("type", .text("string"))])
    }
}
