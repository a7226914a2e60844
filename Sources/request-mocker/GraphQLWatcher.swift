import Foundation
import RequestMocker
import RequestMockerGraphQL

/// Reads the schema and mocks of `serve --graphql`, prints their summary, and reloads both when
/// either file changes; a broken edit is reported and the last good pair keeps answering.
final class GraphQLWatcher {
    private let timer: any DispatchSourceTimer

    /// Reads the schema at `schemaURL` and the mocks at `mocksURL`, or ends the process: 66 when
    /// a file isn't there, 65 when it can't be used (each problem at its file, line and column).
    static func load(_ schemaURL: URL, mocks mocksURL: URL?) -> (GraphQLSchema, GraphQLMocks) {
        do {
            return try read(schemaURL, mocks: mocksURL)
        } catch {
            fail("\(error)", status: error.isFileMissing ? ExitCode.noInput : ExitCode.dataError)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        var isFileMissing: Bool
    }

    static func read(_ schemaURL: URL, mocks mocksURL: URL?) throws(Failure) -> (GraphQLSchema, GraphQLMocks) {
        let schema: GraphQLSchema
        do {
            schema = try GraphQLSchema(contentsOf: schemaURL)
        } catch {
            throw Failure(description: "\(error)", isFileMissing: error.isFileMissing)
        }
        guard let mocksURL else { return (schema, GraphQLMocks()) }
        do {
            return (schema, try GraphQLMocks(contentsOf: mocksURL, schema: schema))
        } catch {
            throw Failure(description: "\(error)", isFileMissing: error.isFileMissing)
        }
    }

    /// The summary printed at start and after a reload: the root types with their fields'
    /// counts, the number of types, and what the mocks hold.
    static func summary(
        of schema: GraphQLSchema, mocks: GraphQLMocks, file: URL, mocksFile: URL?, path: String
    )
        -> [String]
    {
        func root(_ kind: String, _ name: String?) -> String? {
            guard let name, let type = schema.types[name] else { return nil }
            let count = type.fields.count
            return "\(kind) \(name) (\(count) field\(count == 1 ? "" : "s"))"
        }
        let roots = [
            root("query", schema.queryType), root("mutation", schema.mutationType),
            root("subscription", schema.subscriptionType),
        ].compactMap { $0 }
        let own = schema.typeNames.filter { !$0.hasPrefix("__") && schema.types[$0]?.offset != nil }.count
        var lines = [
            "\(file.lastPathComponent): GraphQL, \(roots.joined(separator: ", ")); \(own) type\(own == 1 ? "" : "s"), "
                + "at \(path) (subscriptions over graphql-transport-ws)"
        ]
        if let mocksFile {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            lines.append(
                "    mocks from \(mocksFile.lastPathComponent): " + count(mocks.scalars.count, "scalar") + ", "
                    + count(mocks.types.count, "type") + ", " + count(mocks.operations.count, "operation") + ", "
                    + count(mocks.subscriptions.count, "subscription"))
        }
        return lines
    }

    init(_ endpoint: GraphQLEndpoint, schema schemaURL: URL, mocks mocksURL: URL?) {
        let files = [schemaURL] + (mocksURL.map { [$0] } ?? [])
        let lastSeen = LockedState(files.map(StubsFileWatcher.Signature.init))
        timer = StubsFileWatcher.everyHalfSecond(label: "request-mocker graphql") {
            let signatures = files.map(StubsFileWatcher.Signature.init)
            let changed = lastSeen.withLock { last -> Bool in
                defer { last = signatures }
                return last != signatures
            }
            guard changed else { return }
            do {
                let (schema, mocks) = try Self.read(schemaURL, mocks: mocksURL)
                endpoint.reload(schema: schema, mocks: mocks)
                let summary = Self.summary(
                    of: schema, mocks: mocks, file: schemaURL, mocksFile: mocksURL, path: endpoint.path)
                for (index, line) in summary.enumerated() { printLine(index == 0 ? "reloaded " + line : line) }
            } catch {
                printLine("\(error); keeping the last good schema and mocks")
            }
        }
    }

    deinit {
        timer.cancel()
    }
}
