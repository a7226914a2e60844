import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// `request-mocker check --openapi FILE [FOLDER...] [--stubs FILE] [--cassette FILE]`: checks
/// the mocks, and the contract's own examples, against the contract; one compiler-style line per
/// finding, exit status 1 when there is an error.
enum CheckCommand {
    static func run(_ options: CommandLineOptions.CheckOptions) -> Never {
        let contract = ContractWatcher.load(URL(fileURLWithPath: options.openapi))
        let check = ContractCheck(contract, basePath: options.basePath)
        var findings = check.contractFindings
        var checked = 0
        for folder in options.folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                fail("no folder at \(folder)", status: ExitCode.noInput)
            }
            do {
                let result = try check.check(folder: URL(fileURLWithPath: folder))
                findings += result.findings
                checked += result.checked
                for reason in result.skipped { printLine("note: not checked: \(reason)") }
            } catch {
                fail("cannot read the folder \(folder): \(error.localizedDescription)", status: ExitCode.noInput)
            }
        }
        // A stubs file and a cassette: one file each, checked alike.
        let files:
            [(path: String?, name: String, check: (URL) throws -> (findings: [ContractCheck.Finding], checked: Int))] =
                [
                    (options.stubs, "stubs file", check.check(stubsFile:)),
                    (options.cassette, "cassette", check.check(cassette:)),
                ]
        for (path, name, checkFile) in files {
            guard let path else { continue }
            guard FileManager.default.fileExists(atPath: path) else {
                fail("no \(name) at \(path)", status: ExitCode.noInput)
            }
            do {
                let result = try checkFile(URL(fileURLWithPath: path))
                findings += result.findings
                checked += result.checked
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
        }
        let report = DriftReport(findings: findings, check: check)
        let (errors, warnings) = (report.errors, report.warnings)
        switch options.format {
        case "json", "sarif":
            let document = options.format == "json" ? report.json : report.sarif
            printLine(String(decoding: (try? document.serialized(pretty: true)) ?? Data(), as: UTF8.self))
        default:
            for line in report.lines { printLine(line) }
            printLine(
                "checked \(checked) mock\(checked == 1 ? "" : "s") and the contract's examples against "
                    + "\(contract.url.lastPathComponent): \(errors) error\(errors == 1 ? "" : "s"), "
                    + "\(warnings) warning\(warnings == 1 ? "" : "s")")
            if options.coverage { for line in report.coverageLines { printLine(line) } }
        }
        exit(errors > 0 ? 1 : 0)
    }
}
