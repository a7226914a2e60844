import Foundation

extension JSONValue {
    /// Converts a Foundation-style JSON object (`[String: Any]`, `[Any]`, strings, numbers,
    /// Booleans, `NSNull`), such as a dictionary written for `JSONSerialization`.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["id": 7, "tags": ["a", "b"], "when": Date()]
    /// try JSONValue(any: legacy) // throws: value at $.when is a Date, which JSON cannot hold
    /// ```
    ///
    /// Arrays and dictionaries may nest up to ``maximumNesting`` levels.
    ///
    /// - Throws: ``ConversionError`` naming the key path of the first value JSON can't hold.
    public init(any object: Any) throws(ConversionError) {
        self = try FoundationConverter.convert(object)
    }

    /// A value that can't be expressed in JSON, and where it sits.
    public struct ConversionError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key path of the value, `$` being the root: `$.user.tags[2]`.
        public let keyPath: String
        /// The value's type.
        public let typeName: String
        /// Whether the value is nested deeper than ``JSONValue/maximumNesting`` (its type is
        /// fine; its depth is not).
        public let isNestedTooDeeply: Bool

        init(keyPath: String, typeName: String, isNestedTooDeeply: Bool = false) {
            self.keyPath = keyPath
            self.typeName = typeName
            self.isNestedTooDeeply = isNestedTooDeeply
        }

        public var description: String {
            if isNestedTooDeeply {
                return "value at \(keyPath) (a \(typeName)) is nested deeper than \(JSONValue.maximumNesting) "
                    + "levels; flatten it, or serialize that part to a string"
            }
            return "value at \(keyPath) is a \(typeName), which JSON cannot hold; "
                + "convert it to a string, number, Boolean, array, dictionary or NSNull first"
        }
    }
}

/// Converts Foundation objects without recursing: the arrays and dictionaries whose children
/// are still being converted wait on a stack, each with its key path.
private enum FoundationConverter {
    /// What one value turned out to be.
    private enum Kind {
        case scalar(JSONValue)
        case container(isObject: Bool, typeName: String, children: [(key: String, value: Any)])
    }

    static func convert(_ root: Any) throws(JSONValue.ConversionError) -> JSONValue {
        var open: [(path: String, builder: JSONContainerBuilder<Any>)] = []
        var object = root
        var path = "$"
        /// The key path of the next child of the innermost container.
        func childPath() -> String {
            guard let top = open.last, let next = top.builder.next else { return path }
            return top.builder.isObject
                ? top.path + keyPathComponent(next.key) : "\(top.path)[\(top.builder.position)]"
        }
        while true {
            var value: JSONValue
            switch try kind(of: object, path: path) {
            case .scalar(let scalar):
                value = scalar
            case .container(let isObject, let typeName, let children):
                guard open.count < JSONValue.maximumNesting else {
                    throw JSONValue.ConversionError(keyPath: path, typeName: typeName, isNestedTooDeeply: true)
                }
                let builder = JSONContainerBuilder(isObject: isObject, children: children.map { ($0.key, $0.value) })
                guard let first = builder.next else {
                    value = builder.value
                    break
                }
                open.append((path, builder))
                (object, path) = (first.child, childPath())
                continue
            }
            // Hand the value to the containers it completes, innermost first, until one has a
            // child left to convert.
            while let top = open.indices.last {
                open[top].builder.add(value)
                if let next = open[top].builder.next {
                    (object, path) = (next.child, childPath())
                    break
                }
                value = open.removeLast().builder.value
            }
            if open.isEmpty { return value }
        }
    }

    private static func kind(of object: Any, path: String) throws(JSONValue.ConversionError) -> Kind {
        // Swift arrays and dictionaries are recognised through protocols before any cast to a
        // class (`NSNumber`, `NSNull`): a failed cast to a class bridges the whole collection,
        // every nested level included.
        if let array = object as? any ArrayOfAny {
            return .container(isObject: false, typeName: "array", children: array.children)
        }
        if let dictionary = object as? any DictionaryOfAny {
            return .container(isObject: true, typeName: "dictionary", children: dictionary.children)
        }
        // A number object is decided from itself before any cast to a Swift number: on Apple
        // platforms an `NSNumber` casts to `Float`, `Double` or any integer type whenever its
        // value fits exactly (SE-0170), so `as Float` would turn `3` into `3.0` and `true` into
        // `1.0`. `type(of:)` being a class keeps Swift numbers, which Linux would bridge, out.
        if type(of: object) is AnyObject.Type, let number = object as? NSNumber {
            return .scalar(try self.number(number, path: path))
        }
        switch object {
        case let value as JSONValue: return .scalar(value)
        case let value as String: return .scalar(.string(value))
        case let value as Bool where type(of: object) == Bool.self: return .scalar(.bool(value))
        case let value as Int where type(of: object) == Int.self: return .scalar(.int(value))
        case let value as Double where type(of: object) == Double.self: return .scalar(try finite(value, path: path))
        case let value as Float where type(of: object) == Float.self:
            return .scalar(try finite(Double(value), path: path))
        case let value as any BinaryInteger:
            guard let int = Int(exactly: value) else {
                throw JSONValue.ConversionError(keyPath: path, typeName: "\(type(of: object)) too large for Int")
            }
            return .scalar(.int(int))
        case let value as NSNumber:
            // A Swift number the cases above don't name that bridges to one (`Decimal`, and
            // `CGFloat` on Apple platforms): decided by what it became.
            return .scalar(try number(value, path: path))
        case is NSNull: return .scalar(.null)
        case let value as NSArray:
            return .container(isObject: false, typeName: "array", children: value.map { (key: "", value: $0) })
        case let value as NSDictionary:
            // Walked by its key enumerator, not `for (key, value) in`: that iterator makes every key
            // an AnyHashable and traps on one that can't be (a property list's UID).
            var children: [(key: String, value: Any)] = []
            let keys = value.keyEnumerator()
            while let key = keys.nextObject() {
                guard let name = key as? String, let child = value.object(forKey: name) else {
                    throw JSONValue.ConversionError(keyPath: path, typeName: "dictionary with \(type(of: key)) keys")
                }
                children.append((name, child))
            }
            return .container(isObject: true, typeName: "dictionary", children: children)
        default:
            if let optional = object as? any OptionalProtocol {
                guard let wrapped = optional.wrapped else { return .scalar(.null) }
                return try kind(of: wrapped, path: path)
            }
            throw JSONValue.ConversionError(keyPath: path, typeName: "\(type(of: object))")
        }
    }

    /// The two Boolean objects. Foundation keeps one `NSNumber` for `true` and one for `false`
    /// (`kCFBooleanTrue` and `kCFBooleanFalse`, on Apple platforms and in
    /// swift-corelibs-foundation alike); `JSONSerialization` and property lists hand out those.
    /// Their `objCType` is `c`, the same as an `Int8`'s, so only their identity tells them apart.
    private static let booleans = (true: NSNumber(value: true), false: NSNumber(value: false))

    private static func number(_ number: NSNumber, path: String) throws(JSONValue.ConversionError) -> JSONValue {
        if number === booleans.true { return .bool(true) }
        if number === booleans.false { return .bool(false) }
        switch String(cString: number.objCType) {
        case "B": return .bool(number.boolValue)
        case "f", "d": return try finite(number.doubleValue, path: path)
        case "Q":
            // Unsigned 64-bit: Foundation keeps values past Int64.max as such.
            guard let int = Int(exactly: number.uint64Value) else {
                throw JSONValue.ConversionError(keyPath: path, typeName: "NSNumber \(number) too large for Int")
            }
            return .int(int)
        default: return .int(number.intValue)
        }
    }

    private static func finite(_ value: Double, path: String) throws(JSONValue.ConversionError) -> JSONValue {
        guard value.isFinite else {
            throw JSONValue.ConversionError(keyPath: path, typeName: "non-finite number (\(value))")
        }
        return .double(value)
    }

    private static func keyPathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return plain ? ".\(key)" : "[\"\(key)\"]"
    }
}

/// Lets the converter recognise any Swift array without casting it to a class.
private protocol ArrayOfAny {
    var children: [(key: String, value: Any)] { get }
}

extension Array: ArrayOfAny {
    fileprivate var children: [(key: String, value: Any)] { map { (key: "", value: $0 as Any) } }
}

/// Lets the converter recognise any Swift dictionary with string keys without casting it to a
/// class.
private protocol DictionaryOfAny {
    var children: [(key: String, value: Any)] { get }
}

extension Dictionary: DictionaryOfAny where Key == String {
    fileprivate var children: [(key: String, value: Any)] { map { (key: $0.key, value: $0.value as Any) } }
}

/// Lets the converter see through `Optional` values stored in `Any`.
private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
