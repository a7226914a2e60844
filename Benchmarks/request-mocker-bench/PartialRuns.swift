import Foundation

/// The runs of a part of the table only (`--draft-only`, `--yaml-only`, `--server-only`,
/// `--upstream-first-only`, …) and the child processes the table starts (`--serve-file`,
/// `--draft-exchanges`): each runs its part and ends the process. Returns when the command line asks for the whole table.
func runAPartOnly() async throws {
    if let index = CommandLine.arguments.firstIndex(of: "--serve-file"), index + 1 < CommandLine.arguments.count {
        serveFileAndWait(CommandLine.arguments[index + 1])
    }

    if let index = CommandLine.arguments.firstIndex(of: "--draft-exchanges"), index + 1 < CommandLine.arguments.count,
        let count = Int(CommandLine.arguments[index + 1])
    {
        draftGeneratedExchanges(count)
    }

    if CommandLine.arguments.contains("--draft-only") {
        printDraftRow()
        exit(0)
    }

    if CommandLine.arguments.contains("--streaming-only") {
        try printStreamingRows()
        exit(0)
    }

    if CommandLine.arguments.contains("--upstream-first-only") {
        try printUpstreamFirstRow(rounds: option("--server-rounds", default: 3))
        exit(0)
    }

    if CommandLine.arguments.contains("--yaml-only") {
        try printYAMLRows()
        exit(0)
    }

    if CommandLine.arguments.contains("--stateful-serve-only") {
        try printStatefulServeRow(rounds: option("--server-rounds", default: 3))
        exit(0)
    }

    if CommandLine.arguments.contains("--resources-only") {
        try await printResourceRows(profiling: CommandLine.arguments.contains("--stateful-only"))
        exit(0)
    }

    if CommandLine.arguments.contains("--openapi-only") {
        try printOpenAPIRows()
        try await printRoutingRow()
        try await printResourceRows()
        try printValidationRow()
        try printGenerationRows()
        exit(0)
    }

    if CommandLine.arguments.contains("--server-only") {
        try printServerRows(rounds: option("--server-rounds", default: 3))
        exit(0)
    }
}
