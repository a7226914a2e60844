import Foundation
import RequestMocker

/// The stubs a server holds in front of its registry's other filters: those the admin API
/// added (newest first), then those of a stubs file (in the file's order). Each has an id, and
/// may be turned off (out of matching, still listed) and on again in its place.
package final class StubStore: Sendable {
    /// A stub the admin API added, or one of a stubs file.
    package struct Held: Sendable {
        /// The stub's own `"id"`; else a number for an added stub, `file-N` for a file's Nth.
        package let id: String
        package let stub: Stub
        let handle: FilterHandle
        /// Whether it takes part in matching.
        package var isEnabled = true
    }

    /// The most stubs the admin API holds at once.
    package static let maximumAdded = 10_000

    private struct State: Sendable {
        /// Newest first, the order they are tried in.
        var added: [Held] = []
        var file: [Held] = []
        /// A file's stubs turned off, by what they say (their JSON): kept across reloads of the
        /// file, so the same stub stays off wherever it moves in the file, and an edited one
        /// comes back on.
        var fileOff: Set<Data> = []
        var nextID = 0

        /// Every held stub in the order it is tried: the added, then the file's.
        var all: [Held] { added + file }
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
                guard !state.all.contains(where: { $0.id == given }) else { return .failure(.idTaken(given)) }
                id = given
            } else {
                repeat {
                    state.nextID += 1
                } while state.all.contains { $0.id == String(state.nextID) }
                id = String(state.nextID)
            }
            let handle = registry.register(stub.filter, at: .first)
            state.added.insert(Held(id: id, stub: stub, handle: handle), at: 0)
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

    /// Removes every added stub (a stubs file's stay, and are turned on again).
    package func removeAdded() {
        state.withLock { state in
            for added in state.added { added.handle.remove() }
            state.added = []
            state.fileOff = []
            for index in state.file.indices where !state.file[index].isEnabled { state.file[index].isEnabled = true }
            restoreOrder(state)
        }
    }

    /// Turns the stub `id` (added, or a file's) off or on; `nil` when there is none, else the
    /// stub as it is now. A stub turned on again is tried where it was.
    package func setEnabled(_ enabled: Bool, id: String) -> Held? {
        state.withLock { state in
            func set(_ list: inout [Held]) -> Held? {
                guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
                guard list[index].isEnabled != enabled else { return list[index] }
                list[index].isEnabled = enabled
                if !enabled { list[index].handle.remove() }
                return list[index]
            }
            let held: Held
            if let added = set(&state.added) {
                held = added
            } else if let fromFile = set(&state.file) {
                held = fromFile
                let key = Self.key(of: fromFile.stub)
                if enabled { state.fileOff.remove(key) } else { state.fileOff.insert(key) }
            } else {
                return nil
            }
            if enabled { restoreOrder(state) }
            return held
        }
    }

    /// What a file's stub turned off is known by: its JSON.
    private static func key(of stub: Stub) -> Data {
        (try? stub.json.serialized()) ?? Data()
    }

    /// Puts every enabled stub back in matching, in the order they are tried.
    private func restoreOrder(_ state: State) {
        registry.restoreInFront(state.all.filter(\.isEnabled).map { ($0.handle, $0.stub.filter) })
    }

    /// The added stubs, newest first, and the file's.
    package var stubs: (added: [Held], file: [Held]) {
        state.withLock { ($0.added, $0.file) }
    }

    /// The id of the held stub registered as the filter `filterID` (a journal entry's).
    package func id(ofFilter filterID: Int) -> String? {
        state.withLock { state in state.all.first { $0.handle.id == filterID }?.id }
    }

    /// The held stub `id`.
    package func held(_ id: String) -> Held? {
        state.withLock { state in state.all.first { $0.id == id } }
    }

    /// Puts a stubs file's stubs in place of the last ones, in one step, behind the added ones.
    /// Those whose ids were turned off stay off.
    package func replaceFileStubs(with stubs: [Stub]) {
        state.withLock { state in
            let handles = registry.replace(
                state.file.filter(\.isEnabled).map(\.handle), with: stubs.map(\.filter),
                keepingInFront: state.added.filter(\.isEnabled).map(\.handle))
            var taken = Set(state.added.map(\.id))
            state.file = zip(stubs, handles).enumerated().map { index, pair in
                // Its own id, unless an added stub or an earlier one of the file has it.
                let own = pair.0.json["id"]?.stringValue.flatMap { taken.contains($0) ? nil : $0 }
                let id = own ?? "file-\(index + 1)"
                taken.insert(id)
                var held = Held(id: id, stub: pair.0, handle: pair.1)
                if state.fileOff.contains(Self.key(of: pair.0)) {
                    held.isEnabled = false
                    pair.1.remove()
                }
                return held
            }
        }
    }
}
