/// A JSON value that is `Sendable`, built from Swift literals.
///
/// Used for JSON response bodies and for filters that compare a request's JSON body. Numbers
/// compare by value (`1 == 1.0`), objects ignore key order, and serialization sorts keys so the
/// same value always gives the same bytes.
///
/// ```swift
/// let user: JSONValue = ["id": 7, "name": "Ada", "tags": ["admin"], "manager": nil]
/// registry.register(.get("/me"), respond: .json(user))
/// ```
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` of an array, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as an `Int`, if this is an integral number.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.int, .double), (.double, .int), (.double, .double): lhs.doubleValue == rhs.doubleValue
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Compact JSON text with sorted keys; `nan` and infinities show as `null` here only.
    public var description: String {
        (try? String(decoding: serialized(), as: UTF8.self)) ?? "<JSON with a non-finite number>"
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - From Foundation objects

extension JSONValue {
    /// Converts a Foundation-style JSON object (`[String: Any]`, `[Any]`, strings, numbers,
    /// Booleans, `NSNull`), such as a dictionary written for `JSONSerialization`.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["id": 7, "tags": ["a", "b"], "when": Date()]
    /// try JSONValue(any: legacy) // throws: value at $.when is a Date, which JSON cannot hold
    /// ```
    ///
    /// - Throws: ``ConversionError`` naming the key path of the first value JSON can't hold.
    public init(any object: Any) throws(ConversionError) {
        self = try Self.convert(object, path: "$")
    }

    /// A value that can't be expressed in JSON, and where it sits.
    public struct ConversionError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key path of the value, `$` being the root: `$.user.tags[2]`.
        public let keyPath: String
        /// The value's type.
        public let typeName: String

        public var description: String {
            "value at \(keyPath) is a \(typeName), which JSON cannot hold; "
                + "convert it to a string, number, Boolean, array, dictionary or NSNull first"
        }
    }

    private static func convert(_ object: Any, path: String) throws(ConversionError) -> JSONValue {
        switch object {
        case let value as JSONValue: return value
        case let value as String: return .string(value)
        case let value as Bool where type(of: object) == Bool.self: return .bool(value)
        case let value as Int where type(of: object) == Int.self: return .int(value)
        case let value as Double where type(of: object) == Double.self: return try finite(value, path: path)
        case let value as Float: return try finite(Double(value), path: path)
        case let value as any BinaryInteger:
            guard let int = Int(exactly: value) else {
                throw ConversionError(keyPath: path, typeName: "\(type(of: object)) too large for Int")
            }
            return .int(int)
        case let value as NSNumber: return try number(value, path: path)
        case is NSNull: return .null
        case let value as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, member) in value {
                members[key] = try convert(member, path: path + keyPathComponent(key))
            }
            return .object(members)
        case let value as [Any]:
            var elements: [JSONValue] = []
            for (index, element) in value.enumerated() {
                elements.append(try convert(element, path: "\(path)[\(index)]"))
            }
            return .array(elements)
        default:
            if let optional = object as? OptionalProtocol {
                return try optional.wrapped.map { value throws(ConversionError) in try convert(value, path: path) }
                    ?? .null
            }
            throw ConversionError(keyPath: path, typeName: "\(type(of: object))")
        }
    }

    private static func number(_ number: NSNumber, path: String) throws(ConversionError) -> JSONValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return try finite(number.doubleValue, path: path)
        default: return .int(number.intValue)
        }
    }

    private static func finite(_ value: Double, path: String) throws(ConversionError) -> JSONValue {
        guard value.isFinite else { throw ConversionError(keyPath: path, typeName: "non-finite number (\(value))") }
        return .double(value)
    }

    private static func keyPathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return plain ? ".\(key)" : "[\"\(key)\"]"
    }
}

/// Lets `convert` see through `Optional` values stored in `Any`.
private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrapped: Any? { self.map { $0 as Any } }
}
