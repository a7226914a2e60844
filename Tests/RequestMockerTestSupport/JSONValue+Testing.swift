import RequestMocker

extension JSONValue {
    /// The value with every integer as a double, so that a YAML file's integers compare equal to
    /// the same numbers in JSON written with a fraction (the YAML test suite's `in.json`, a
    /// vendor's JSON contract).
    package var numbersAsDoubles: JSONValue {
        switch self {
        case .int(let int): .double(Double(int))
        case .array(let elements): .array(elements.map(\.numbersAsDoubles))
        case .object(let members): .object(members.mapValues(\.numbersAsDoubles))
        default: self
        }
    }
}
