import Foundation
import RequestMocker
import RequestMockerGraphQL
import RequestMockerOpenAPI

/// `request-mocker check --openapi FILE [FOLDER...] [--stubs FILE] [--cassette FILE]`: checks
/// the mocks, and the contract's own examples, against the contract; one compiler-style line per
/// finding, exit status 1 when there is an error. With `--graphql SCHEMA`, the recorded GraphQL
/// exchanges against the schema. A stubs file's scenarios are checked with either, or alone
/// (`check --stubs FILE`).
enum CheckCommand {
    static func run(_ options: CommandLineOptions.CheckOptions) -> Never {
        if options.openapi == nil, options.graphql == nil { runScenarios(options) }
        guard let openapi = options.openapi else { runGraphQL(options) }
        let contract = ContractWatcher.load(URL(fileURLWithPath: openapi))
        let check = ContractCheck(contract, basePath: options.basePath)
        var (findings, checked) = eachFolder(options.folders) { try check.check(folder: $0) }
        findings = check.contractFindings + findings
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
        var report = DriftReport(findings: findings, check: check)
        addScenarios(to: &report, options)
        finish(
            report, options,
            summary: "checked \(checked) mock\(checked == 1 ? "" : "s") and the contract's examples against "
                + contract.url.lastPathComponent)
    }

    /// `check --graphql SCHEMA`: each recorded GraphQL exchange of the FOLDERs and the cassette,
    /// and each GraphQL stub's answer, against the schema.
    private static func runGraphQL(_ options: CommandLineOptions.CheckOptions) -> Never {
        let path = options.graphql ?? ""
        let schema: GraphQLSchema
        do {
            schema = try GraphQLSchema(contentsOf: URL(fileURLWithPath: path))
        } catch {
            fail("\(error)", status: error.isFileMissing ? ExitCode.noInput : ExitCode.dataError)
        }
        var check = GraphQLCheck(schema)
        var (findings, exchanges) = eachFolder(options.folders) { try check.check(folder: $0) }
        var stubs = 0
        for (path, name) in [(options.stubs, "stubs file"), (options.cassette, "cassette")] {
            guard let path else { continue }
            guard FileManager.default.fileExists(atPath: path) else {
                fail("no \(name) at \(path)", status: ExitCode.noInput)
            }
            do {
                let url = URL(fileURLWithPath: path)
                if name == "cassette" {
                    let result = try check.check(cassette: url)
                    (findings, exchanges) = (findings + result.findings, exchanges + result.checked)
                } else {
                    let result = try check.check(stubsFile: url)
                    (findings, stubs) = (findings + result.findings, stubs + result.checked)
                }
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
        }
        if check.notGraphQL > 0, options.format == "text" {
            let count = check.notGraphQL
            printLine(
                "note: not checked: \(count) exchange\(count == 1 ? " that isn't" : "s that aren't") GraphQL"
            )
        }
        var report = check.report(findings)
        addScenarios(to: &report, options)
        finish(
            report, options,
            summary: "checked \(exchanges) GraphQL exchange\(exchanges == 1 ? "" : "s")"
                + (options.stubs == nil ? "" : " and \(stubs) stub\(stubs == 1 ? "" : "s")")
                + " against \(URL(fileURLWithPath: path).lastPathComponent)")
    }

    /// `check --stubs FILE` without a contract: the stubs file's scenarios only.
    private static func runScenarios(_ options: CommandLineOptions.CheckOptions) -> Never {
        var report = DriftReport(findings: [], rules: [])
        let checked = addScenarios(to: &report, options)
        finish(
            report, options,
            summary: "checked the scenarios of \(checked) stub\(checked == 1 ? "" : "s") in "
                + URL(fileURLWithPath: options.stubs ?? "").lastPathComponent)
    }

    /// Adds the findings of the stubs file's scenarios, and their rules, to `report`; how many
    /// stubs have a scenario. Exits 66 or 65 where the file isn't there or is invalid.
    @discardableResult
    private static func addScenarios(to report: inout DriftReport, _ options: CommandLineOptions.CheckOptions) -> Int {
        guard let path = options.stubs else { return 0 }
        guard FileManager.default.fileExists(atPath: path) else {
            fail("no stubs file at \(path)", status: ExitCode.noInput)
        }
        do {
            let result = try ScenarioCheck.check(stubsFile: URL(fileURLWithPath: path))
            report.rules += ScenarioCheck.rules
            for finding in result.findings { report.add(finding) }
            return result.checked
        } catch {
            fail("\(error)", status: ExitCode.dataError)
        }
    }

    /// The findings of each of `folders` and how many mocks they had, by `check`, which also
    /// says what it skipped; exits 66 where a folder isn't there or can't be read.
    private static func eachFolder(
        _ folders: [String], _ check: (URL) throws -> (findings: [CheckFinding], checked: Int, skipped: [String])
    ) -> (findings: [CheckFinding], checked: Int) {
        var (findings, checked) = ([CheckFinding](), 0)
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                fail("no folder at \(folder)", status: ExitCode.noInput)
            }
            do {
                let result = try check(URL(fileURLWithPath: folder))
                findings += result.findings
                checked += result.checked
                for reason in result.skipped { printLine("note: not checked: \(reason)") }
            } catch {
                fail("cannot read the folder \(folder): \(error.localizedDescription)", status: ExitCode.noInput)
            }
        }
        return (findings, checked)
    }

    /// Prints `report` in the format asked for, and exits 1 when it has an error.
    private static func finish(
        _ report: DriftReport, _ options: CommandLineOptions.CheckOptions, summary: String
    ) -> Never {
        let (errors, warnings) = (report.errors, report.warnings)
        switch options.format {
        case "json", "sarif":
            let document = options.format == "json" ? report.json : report.sarif
            printLine(String(decoding: (try? document.serialized(pretty: true)) ?? Data(), as: UTF8.self))
        default:
            for line in report.lines { printLine(line) }
            printLine(
                "\(summary): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
            if options.coverage { for line in report.coverageLines { printLine(line) } }
        }
        exit(errors > 0 ? 1 : 0)
    }
}
