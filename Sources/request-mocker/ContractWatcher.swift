import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// Reads the contract of `serve --openapi`, prints its summary, and reloads it when one of its
/// files changes (the entry file or one its `$ref`s reach); a broken edit is reported and the
/// last good contract keeps answering.
final class ContractWatcher {
    private let timer: any DispatchSourceTimer

    /// The most notices the summary prints; `request-mocker check --openapi FILE` lists them all.
    static let shownNotices = 10

    /// Reads the contract at `url`, or ends the process: 66 when the file isn't there, 65 when
    /// it isn't a contract it can serve (with the file, line, column and pointer).
    static func load(_ url: URL) -> OpenAPIContract {
        do {
            return try OpenAPIContract(contentsOf: url)
        } catch {
            fail("\(error)", status: error.isFileMissing ? ExitCode.noInput : ExitCode.dataError)
        }
    }

    /// The summary printed at start and after a reload: the operations, then the notices.
    static func summary(of contract: OpenAPIContract, basePath: String?) -> [String] {
        let count = contract.operations.count
        let base = basePath ?? contract.basePath
        var lines = [
            "\(contract.url.lastPathComponent): OpenAPI \(contract.version)"
                + (contract.title.map { " \"\($0)\"" } ?? "")
                + ", \(count) operation\(count == 1 ? "" : "s")" + (base.isEmpty ? "" : " under \(base)")
        ]
        lines += contract.notices.prefix(shownNotices).map { "    \($0)" }
        if contract.notices.count > shownNotices {
            lines.append(
                "    … and \(contract.notices.count - shownNotices) more "
                    + "(request-mocker check --openapi \(contract.url.path) lists them all)")
        }
        return lines
    }

    init(_ source: ContractSource, basePath: String?) {
        let checker = ContractChecker(
            source: source, basePath: basePath, lastSeen: LockedState(ContractChecker.signatures(of: source.contract)))
        timer = StubsFileWatcher.everyHalfSecond(label: "request-mocker contract") { checker.check() }
    }

    deinit {
        timer.cancel()
    }
}

/// One look at the contract's files, from the timer's queue.
private struct ContractChecker: Sendable {
    let source: ContractSource
    let basePath: String?
    let lastSeen: LockedState<[StubsFileWatcher.Signature?]>

    static func signatures(of contract: OpenAPIContract) -> [StubsFileWatcher.Signature?] {
        contract.sourceFiles.map(StubsFileWatcher.Signature.init)
    }

    func check() {
        let contract = source.contract
        let signatures = Self.signatures(of: contract)
        let changed = lastSeen.withLock { last -> Bool in
            defer { last = signatures }
            return last != signatures
        }
        guard changed else { return }
        do {
            let reloaded = try OpenAPIContract(contentsOf: contract.url)
            source.reload(reloaded)
            // The files may be others now (a $ref added or removed).
            lastSeen.withLock { $0 = Self.signatures(of: reloaded) }
            let summary = ContractWatcher.summary(of: reloaded, basePath: basePath)
            for (index, line) in summary.enumerated() { printLine(index == 0 ? "reloaded " + line : line) }
        } catch {
            printLine("\(error); keeping the last good contract")
        }
    }
}
