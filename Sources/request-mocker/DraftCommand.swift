import Foundation
import RequestMocker

/// `request-mocker draft [FOLDER...] [--cassette FILE]... [--base-path PATH] -o FILE`: writes an
/// OpenAPI 3.1 contract drafted from recorded traffic (YAML or JSON by the extension).
enum DraftCommand {
    static func run(_ options: CommandLineOptions.DraftOptions) -> Never {
        let draft = ContractDraft(basePath: options.basePath)
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
}
