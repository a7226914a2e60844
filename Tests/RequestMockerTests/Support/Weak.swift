import Foundation

/// A weak reference, to watch an object go.
final class Weak<Object: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read, and the object it points to is Sendable.
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}
