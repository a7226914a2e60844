import Foundation

/// The runs of a part of the table only (`--draft-only`, `--yaml-only`, `--server-only`,
/// `--dev-server-only`, `--upstream-first-only`, `--slow-answer-only`, `--dashboard-only`, …) and
/// the child processes the table starts (`--serve-file`, `--draft-exchanges`): each runs its part
/// and ends the process. Returns when the command line asks for the whole table.
func runAPartOnly() async throws {
    if let index = CommandLine.arguments.firstIndex(of: "--serve-file"), index + 1 < CommandLine.arguments.count {
        serveFileAndWait(CommandLine.arguments[index + 1])
    }

    if let index = CommandLine.arguments.firstIndex(of: "--draft-exchanges"), index + 1 < CommandLine.arguments.count,
        let count = Int(CommandLine.arguments[index + 1])
    {
        draftGeneratedExchanges(count)
    }

    let rounds = { option("--server-rounds", default: 3) }
    // The first part the command line names runs, alone.
    let parts: [(flag: String, run: () async throws -> Void)] = [
        ("--draft-only", { printDraftRow() }),
        ("--streaming-only", { try printStreamingRows() }),
        ("--upstream-first-only", { try printUpstreamFirstRow(rounds: rounds()) }),
        ("--yaml-only", { try printYAMLRows() }),
        ("--stateful-serve-only", { try printStatefulServeRow(rounds: rounds()) }),
        (
            "--resources-only",
            { try await printResourceRows(profiling: CommandLine.arguments.contains("--stateful-only")) }
        ),
        (
            "--openapi-only",
            {
                try printOpenAPIRows()
                try await printRoutingRow()
                try await printResourceRows()
                try printValidationRow()
                try printGenerationRows()
            }
        ),
        ("--graphql-only", { try await printGraphQLRows() }),
        ("--server-only", { try printServerRows(rounds: rounds()) }),
        ("--dev-server-only", { try printDevServerRows(rounds: rounds()) }),
        ("--slow-answer-only", { try await printSlowAnswerRow(rounds: rounds()) }),
        ("--dashboard-only", { try printDashboardRow(rounds: rounds()) }),
    ]
    for part in parts where CommandLine.arguments.contains(part.flag) {
        try await part.run()
        exit(0)
    }
}
