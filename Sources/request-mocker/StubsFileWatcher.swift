import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer

/// Reloads a stubs file when it changes: every half second it compares the file's
/// modification time, size and inode with the last ones read. A broken edit is reported and the
/// last good stubs stay.
final class StubsFileWatcher {
    private let timer: any DispatchSourceTimer

    struct Signature: Equatable, Sendable {
        let modified: Date?
        let size: Int?
        let inode: Int?

        init?(_ file: URL) {
            // The file a link points at (a generated file, a mounted ConfigMap), whose edits count.
            let path = file.resolvingSymlinksInPath().path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            modified = attributes[.modificationDate] as? Date
            size = (attributes[.size] as? NSNumber)?.intValue
            inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        }
    }

    /// Loads `file` once (throwing what is wrong with it), hands its stubs to `apply`, and from
    /// then on reloads it when it changes. `contract` gives the contract `"openapi"` responses
    /// answer from, as it is at each read; `graphQL` the schema GraphQL stubs' answers are
    /// checked against and shaped by.
    init(
        _ file: URL, contract: @escaping @Sendable () -> OpenAPIContract? = { nil },
        graphQL: (any StubGraphQLSchema)? = nil, apply: @escaping @Sendable ([Stub]) -> Void
    ) throws(RequestMockerError) {
        let signature = Signature(file)
        apply(try Stub.stubs(contentsOf: file, contract: contract(), graphQL: graphQL))
        let checker = Checker(
            file: file, contract: contract, graphQL: graphQL, apply: apply, lastSeen: LockedState(signature))
        timer = Self.everyHalfSecond(label: "request-mocker stubs") { checker.check() }
    }

    /// A timer that runs `check` every half second on a queue of its own, until it is cancelled.
    static func everyHalfSecond(
        label: String, _ check: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler(handler: check)
        timer.resume()
        return timer
    }

    deinit {
        timer.cancel()
    }
}

/// One look at the file, from the timer's queue.
private struct Checker: Sendable {
    let file: URL
    let contract: @Sendable () -> OpenAPIContract?
    let graphQL: (any StubGraphQLSchema)?
    let apply: @Sendable ([Stub]) -> Void
    let lastSeen: LockedState<StubsFileWatcher.Signature?>

    func check() {
        let signature = StubsFileWatcher.Signature(file)
        let changed = lastSeen.withLock { last -> Bool in
            defer { last = signature }
            return last != signature
        }
        guard changed else { return }
        guard signature != nil else {
            printLine("\(file.path) is gone; keeping the stubs it had")
            return
        }
        do {
            let stubs = try Stub.stubs(contentsOf: file, contract: contract(), graphQL: graphQL)
            apply(stubs)
            printLine("reloaded \(file.path): \(stubs.count) stub\(stubs.count == 1 ? "" : "s")")
        } catch {
            printLine("\(error); keeping the last good stubs")
        }
    }
}
