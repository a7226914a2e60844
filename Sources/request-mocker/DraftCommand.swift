import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// `request-mocker draft [FOLDER...] [--cassette FILE]... [--base-path PATH] [--openapi EXISTING]
/// -o FILE`: writes an OpenAPI 3.1 contract drafted from recorded traffic (YAML or JSON by the
/// extension), or the existing contract with what the traffic shows it lacks.
enum DraftCommand {
    static func run(_ options: CommandLineOptions.DraftOptions) -> Never {
        let existing = options.openapi.map { ContractWatcher.load(URL(fileURLWithPath: $0)) }
        let draft = ContractDraft(basePath: options.basePath, existing: existing)
        var skipped: [String] = []
        for folder in options.folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                fail("no folder at \(folder)", status: ExitCode.noInput)
            }
            do {
                let (interactions, left) = try TrafficConversion.interactions(
                    ofMockDataFolder: URL(fileURLWithPath: folder), base: URL(fileURLWithPath: "/"))
                for interaction in interactions { draft.add(interaction) }
                skipped += left.map { folder + "/" + $0 }
            } catch {
                fail("cannot read the folder \(folder): \(error.localizedDescription)", status: ExitCode.noInput)
            }
        }
        for path in options.cassettes {
            guard FileManager.default.fileExists(atPath: path) else {
                fail("no cassette at \(path)", status: ExitCode.noInput)
            }
            do {
                let cassette = try Cassette(
                    contentsOf: URL(fileURLWithPath: path), record: .none, playback: .momentary,
                    matchers: CassetteMatcher.default, redaction: .default, hosts: .all, repeatsLastResponse: false,
                    environment: [:])
                for interaction in cassette.interactions { draft.add(interaction) }
            } catch RequestMockerError.cassetteNotReadable(let path, let reason) {
                fail("cannot read \(path): \(reason)", status: ExitCode.noInput)
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
        }
        guard draft.exchanges > 0 else {
            fail("nothing to draft: the recordings hold no exchange", status: ExitCode.dataError)
        }
        if let existing { update(existing, with: draft, options: options, skipped: skipped) }
        guard !draft.isEmpty else {
            fail(
                "nothing to draft from \(draft.exchanges) exchange\(draft.exchanges == 1 ? "" : "s"): "
                    + draft.notes.joined(separator: "; "), status: ExitCode.dataError)
        }
        let document = draft.document()
        let (paths, operations) = ContractDraft.counts(of: document)
        do {
            try ContractDraft.write(document, to: URL(fileURLWithPath: options.output))
        } catch {
            fail("cannot write \(options.output): \(error.localizedDescription)", status: ExitCode.cantCreate)
        }
        printLine(
            "drafted \(operations) operation\(operations == 1 ? "" : "s") on \(paths) path\(paths == 1 ? "" : "s") "
                + "from \(draft.exchanges) exchange\(draft.exchanges == 1 ? "" : "s") into \(options.output)")
        for note in draft.notes { printLine("  note: \(note)") }
        for reason in skipped { printLine("  left out \(reason)") }
        exit(0)
    }

    /// Writes the existing contract with what the traffic adds, and says each addition.
    private static func update(
        _ contract: OpenAPIContract, with draft: ContractDraft, options: CommandLineOptions.DraftOptions,
        skipped: [String]
    ) -> Never {
        let update: ContractUpdate
        do {
            update = try draft.update()
        } catch {
            fail("\(error)", status: ExitCode.dataError)
        }
        do {
            try ContractDraft.write(update.document, to: URL(fileURLWithPath: options.output))
        } catch {
            fail("cannot write \(options.output): \(error.localizedDescription)", status: ExitCode.cantCreate)
        }
        let (count, exchanges) = (update.additions.count, draft.exchanges)
        printLine(
            "updated \(contract.url.lastPathComponent) from \(exchanges) exchange\(exchanges == 1 ? "" : "s") "
                + "into \(options.output): \(count) addition\(count == 1 ? "" : "s")")
        for addition in update.additions { printLine("  \(addition)") }
        for reason in update.unchanged { printLine("  unchanged: \(reason)") }
        for note in draft.notes { printLine("  note: \(note)") }
        for reason in skipped { printLine("  left out \(reason)") }
        exit(0)
    }
}
