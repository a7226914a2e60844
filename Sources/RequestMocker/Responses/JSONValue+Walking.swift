/// One step of a depth-first walk over a ``JSONValue`` (see ``JSONValue/walk(keysInOrder:_:)``).
enum JSONWalkStep {
    /// `null`, a Boolean, a number or a string.
    case scalar(JSONValue)
    case startArray(count: Int)
    case startObject(count: Int)
    /// Comes before each element of an array.
    case element(index: Int)
    /// Comes before each member of an object, in key order.
    case member(key: String, index: Int)
    /// Ends the innermost array or object.
    case end(isObject: Bool, count: Int)
}

extension JSONValue {
    /// Walks the value depth first without recursing, so any nesting costs heap, not stack.
    ///
    /// `visit` gets each step and the number of arrays and objects around it: for `element`
    /// and `member` that includes their own container, for `start` and `end` it doesn't.
    ///
    /// ```swift
    /// try value.walk(keysInOrder: <) { step, depth in … }
    /// ```
    func walk<Failure: Error>(
        keysInOrder: (String, String) -> Bool,
        _ visit: (JSONWalkStep, _ depth: Int) throws(Failure) -> Void
    ) throws(Failure) {
        var open: [OpenJSONContainer] = []
        var next: JSONValue? = self
        while true {
            if let value = next {
                next = nil
                switch value {
                case .array(let elements):
                    try visit(.startArray(count: elements.count), open.count)
                    open.append(.array(elements, visited: 0))
                case .object(let members):
                    try visit(.startObject(count: members.count), open.count)
                    open.append(.object(members.sorted { keysInOrder($0.key, $1.key) }, visited: 0))
                default:
                    try visit(.scalar(value), open.count)
                }
            }
            guard let container = open.popLast() else { return }
            switch container {
            case .array(let elements, let visited) where visited < elements.count:
                open.append(.array(elements, visited: visited + 1))
                try visit(.element(index: visited), open.count)
                next = elements[visited]
            case .object(let members, let visited) where visited < members.count:
                open.append(.object(members, visited: visited + 1))
                try visit(.member(key: members[visited].key, index: visited), open.count)
                next = members[visited].value
            case .array(let elements, _):
                try visit(.end(isObject: false, count: elements.count), open.count)
            case .object(let members, _):
                try visit(.end(isObject: true, count: members.count), open.count)
            }
        }
    }
}

/// An array or object being walked: its children, and how many were visited.
private enum OpenJSONContainer {
    case array([JSONValue], visited: Int)
    case object([(key: String, value: JSONValue)], visited: Int)
}

/// What ``JSONValue/rewritingMembers(_:)`` does with an object member.
enum JSONMemberRewrite {
    case keep
    case remove
    /// Puts this value in place of the member's, as it is.
    case replace(JSONValue)
}

extension JSONValue {
    /// The value with each object member, at any depth, kept, removed or replaced as `rewrite`
    /// says for its key. Doesn't recurse, so any nesting costs heap, not stack.
    func rewritingMembers(_ rewrite: (_ key: String) -> JSONMemberRewrite) -> JSONValue {
        /// A child still to rewrite, or one replaced whole (final).
        typealias Child = (value: JSONValue, isFinal: Bool)
        var open: [JSONContainerBuilder<Child>] = []
        var next = self
        while true {
            // Go down to the first child that is a scalar, an empty container or final.
            var value: JSONValue
            switch next {
            case .array(let elements) where !elements.isEmpty:
                open.append(JSONContainerBuilder(isObject: false, children: elements.map { ("", ($0, false)) }))
                next = elements[0]
                continue
            case .object(let members):
                var children: [(key: String, child: Child)] = []
                for (key, member) in members {
                    switch rewrite(key) {
                    case .keep: children.append((key, (member, false)))
                    case .remove: continue
                    case .replace(let replacement): children.append((key, (replacement, true)))
                    }
                }
                guard let first = children.first?.child else {
                    value = .object([:])
                    break
                }
                open.append(JSONContainerBuilder(isObject: true, children: children))
                guard first.isFinal else {
                    next = first.value
                    continue
                }
                value = first.value
            default:
                value = next
            }
            // Hand finished values to their containers until one has a child left to rewrite.
            while let top = open.indices.last {
                open[top].add(value)
                if let child = open[top].next?.child {
                    if child.isFinal {
                        value = child.value
                        continue
                    }
                    next = child.value
                    break
                }
                value = open.removeLast().value
            }
            if open.isEmpty { return value }
        }
    }
}

/// An array or object built one child at a time, by the walks that don't recurse (the member
/// rewrite, the Foundation conversion): the children still to build, and the values so far.
/// Kept at the top of an array and changed in place there, so no collection is copied.
struct JSONContainerBuilder<Child> {
    let isObject: Bool
    /// The children in order, with their keys when this is an object.
    let children: [(key: String, child: Child)]
    /// How many children were added.
    private(set) var position = 0
    private var elements: [JSONValue] = []
    private var members: [String: JSONValue] = [:]

    init(isObject: Bool, children: [(key: String, child: Child)]) {
        self.isObject = isObject
        self.children = children
    }

    /// The child to build next; `nil` once every one was added.
    var next: (key: String, child: Child)? { position < children.count ? children[position] : nil }

    var value: JSONValue { isObject ? .object(members) : .array(elements) }

    mutating func add(_ built: JSONValue) {
        if isObject { members[children[position].key] = built } else { elements.append(built) }
        position += 1
    }
}
