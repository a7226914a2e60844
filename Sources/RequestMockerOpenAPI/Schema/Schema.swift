import Foundation
import RequestMocker

/// A contract's schema, compiled once from its tree: the JSON Schema keywords the validator and
/// the generator read, with 3.0's and 3.1's spellings read as their union (`nullable` and a
/// `type` list, Boolean and numeric `exclusiveMinimum`).
///
/// Schemas refer to each other (a pet's `parent` is a pet), so they are objects, each compiled
/// once per place in its file and linked; nothing walks them without a bound.
package final class Schema: @unchecked Sendable {
    // @unchecked Sendable: every property is written by `SchemaCompiler` before the schema is
    // handed out, and only read after that.

    /// Where the schema is written: its file and JSON pointer.
    var source: URL
    package internal(set) var pointer: String

    /// The JSON types it allows (`integer` is a number with no fraction); `nil` for any.
    var types: Set<String>? {
        didSet { typeMask = types.map(TypeMask.init) }
    }
    /// ``types`` as bits, which the validator tests without hashing a string per value.
    private(set) var typeMask: TypeMask?

    struct TypeMask: OptionSet {
        let rawValue: UInt8
        static let null = TypeMask(rawValue: 1)
        static let boolean = TypeMask(rawValue: 2)
        static let integer = TypeMask(rawValue: 4)
        static let number = TypeMask(rawValue: 8)
        static let string = TypeMask(rawValue: 16)
        static let array = TypeMask(rawValue: 32)
        static let object = TypeMask(rawValue: 64)

        init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        init(_ types: Set<String>) {
            let named: [String: TypeMask] = [
                "null": .null, "boolean": .boolean, "integer": .integer, "number": .number, "string": .string,
                "array": .array, "object": .object,
            ]
            self = types.reduce(into: []) { mask, type in mask.formUnion(named[type] ?? []) }
        }
    }
    /// Whether `null` is valid whatever else the schema says (3.0's `nullable: true`, which real
    /// contracts pair with `enum`s and `$ref`s that don't list `null`).
    var acceptsNull = false
    var enumeration: [JSONValue]?
    var constant: JSONValue?
    /// `enum` and `const` as written, in document order, for generated values.
    var enumNodes: [DocumentNode]?
    var constantNode: DocumentNode?
    var format: String?

    var required: [String] = []
    var properties: [(name: String, schema: Schema)] = []
    /// The properties by name (the first, where a name is declared twice).
    var propertyIndex: [String: Schema] = [:]
    /// `false` in the contract: no other properties; a schema: what the others must be.
    var additionalProperties: AdditionalProperties = .allowed
    var minProperties: Int?
    var maxProperties: Int?

    var items: Schema?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false

    var minLength: Int?
    var maxLength: Int?
    var pattern: SchemaPattern?
    /// A `pattern` the engine doesn't read: the pattern and why (it is not checked).
    var unreadPattern: (pattern: String, reason: String)?

    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?

    /// The bounds written as numbers no `Double` holds exactly, by keyword (`maximum`:
    /// `18446744073709551615`); empty nearly always.
    var exactBounds: [String: ExactNumber] = [:]
    /// Whether an `enum` or `const` entry is such a number, so entries are compared exactly.
    var hasExactValues = false

    var allOf: [Schema] = []
    var anyOf: [Schema] = []
    var oneOf: [Schema] = []
    var not: Schema?
    /// The property whose value picks a `oneOf`/`anyOf` branch, and the branches by value (and
    /// the values in document order).
    var discriminator: (property: String, mapping: [String: Schema], order: [String])?

    var readOnly = false
    var writeOnly = false
    /// `example`, or the first of `examples`, as written.
    var exampleNode: DocumentNode?
    var defaultNode: DocumentNode?
    /// Whether the example and the default pass the schema (checked once it is compiled with
    /// every schema it reaches): generated values use only those that do.
    var exampleIsValid = false
    var defaultIsValid = false

    /// `example`, or the first of `examples`.
    package var example: JSONValue? { exampleNode?.jsonValue }

    enum AdditionalProperties {
        case allowed
        case forbidden
        case schema(Schema)
    }

    init(source: URL, pointer: String) {
        self.source = source
        self.pointer = pointer
    }

    /// Whether the schema is declared under a name an implicit discriminator mapping can use: a
    /// component (`#/components/schemas/Cat`, `#/$defs/Cat`, `#/definitions/Cat`), a schema at
    /// the top of a file (`pets.json#/Cat`), or a whole file; not one written inline
    /// (`…/oneOf/2`).
    var isDeclaredByName: Bool {
        let steps = pointer.split(separator: "/", omittingEmptySubsequences: false)
        switch steps.count {
        case 1: return pointer == "#"
        case 2: return true
        case 3: return steps[1] == "$defs" || steps[1] == "definitions"
        case 4: return steps[1] == "components" && steps[2] == "schemas"
        default: return false
        }
    }
}
