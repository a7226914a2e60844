import Foundation
import RequestMocker

/// The stubs a server holds in front of its registry's other filters: those the admin API
/// added (newest first), then those of a stubs file (in the file's order).
package final class StubStore: Sendable {
    /// A stub the admin API added.
    package struct Added: Sendable {
        package let id: String
        package let stub: Stub
        let handle: FilterHandle
    }

    /// The most stubs the admin API holds at once.
    package static let maximumAdded = 10_000

    private struct State: Sendable {
        /// Newest first, the order they are tried in.
        var added: [Added] = []
        var fileStubs: [Stub] = []
        var fileHandles: [FilterHandle] = []
        var nextID = 0
    }

    let registry: MockRegistry
    private let state = LockedState(State())

    package init(registry: MockRegistry) {
        self.registry = registry
    }

    /// Why a stub can't be added.
    package enum Refused: Error {
        case idTaken(String)
        case full
    }

    /// Adds `stub` in front of every filter, under its own `id` or a new one.
    package func add(_ stub: Stub) throws(Refused) -> String {
        try state.withLock { state -> Result<String, Refused> in
            guard state.added.count < Self.maximumAdded else { return .failure(.full) }
            let id: String
            if let given = stub.json["id"]?.stringValue {
                guard !state.added.contains(where: { $0.id == given }) else { return .failure(.idTaken(given)) }
                id = given
            } else {
                repeat {
                    state.nextID += 1
                } while state.added.contains { $0.id == String(state.nextID) }
                id = String(state.nextID)
            }
            let handle = registry.register(stub.filter, at: .first)
            state.added.insert(Added(id: id, stub: stub, handle: handle), at: 0)
            return .success(id)
        }.get()
    }

    /// Removes the added stub `id`; `false` when there is none.
    package func remove(_ id: String) -> Bool {
        state.withLock { state in
            guard let index = state.added.firstIndex(where: { $0.id == id }) else { return false }
            state.added.remove(at: index).handle.remove()
            return true
        }
    }

    /// Removes every added stub (a stubs file's stay).
    package func removeAdded() {
        state.withLock { state in
            for added in state.added { added.handle.remove() }
            state.added = []
        }
    }

    /// The added stubs, newest first, and the file's.
    package var stubs: (added: [Added], file: [Stub]) {
        state.withLock { ($0.added, $0.fileStubs) }
    }

    /// Puts a stubs file's stubs in place of the last ones, in one step, behind the added ones.
    package func replaceFileStubs(with stubs: [Stub]) {
        state.withLock { state in
            state.fileHandles = registry.replace(
                state.fileHandles, with: stubs.map(\.filter), keepingInFront: state.added.map(\.handle))
            state.fileStubs = stubs
        }
    }
}
