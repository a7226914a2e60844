import Foundation

/// A value shared between a test and the threads it starts, behind a lock.
package final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
