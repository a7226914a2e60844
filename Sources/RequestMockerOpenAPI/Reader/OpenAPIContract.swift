import Foundation
import RequestMocker

/// An API's OpenAPI 3.0 or 3.1 contract, read from its JSON or YAML file and the files its `$ref`s reach.
///
/// Read a contract to list what it declares, for example to check that a test suite covers
/// every operation. Errors point into the file: ``OpenAPIContract/Error`` names the file, the
/// line and column, and the JSON pointer.
///
/// ```swift
/// let contract = try OpenAPIContract(contentsOf: URL(fileURLWithPath: "openapi.json"))
/// for operation in contract.operations {
///     print(operation.method, operation.path, operation.operationID ?? "-", operation.statuses)
/// }
/// print(contract.notices.joined(separator: "\n"))
/// ```
///
/// OpenAPI 3.0.x and 3.1.x are read; 3.2 is read as 3.1, with a notice. Swagger 2.0 is refused.
/// Keywords of both versions are read as their union, since real 3.1 contracts still use 3.0's
/// (`nullable`, `example`). `$ref`s are followed within the file and to relative files (each file
/// read once), never to the network; a schema that refers to itself is fine.
public struct OpenAPIContract: Sendable {
    /// The entry file.
    public var url: URL { storage.url }
    /// The `openapi` version, as written (`3.1.0`).
    public var version: String { storage.version }
    /// The `info.title`, when there is one.
    public var title: String? { storage.title }
    /// The path its operations are served under: the path of the first `servers` URL, with its
    /// variables at their defaults (`/v1`); `""` when there is none. A path or an operation
    /// with `servers` of its own has its own.
    public var basePath: String { storage.basePath }
    /// Every operation of the contract's `paths`, in document order.
    public var operations: [Operation] { storage.operations }
    /// What the reader wants the user to know without refusing the contract, one line each: a
    /// version read as another, a liberty taken with the specification.
    public var notices: [String] { storage.notices }

    var files: ContractFiles { storage.files }
    var root: Located { storage.root }
    /// What answering needs of each operation, in the order of ``operations``.
    var plans: [OperationPlan] { storage.plans }
    /// The examples and defaults that break their schemas, where they are written.
    package var problems: [ContractProblem] { storage.problems }

    /// What was read, behind one reference: a contract is handed along with every request it
    /// answers, and copying ten fields costs each of them a retain.
    private final class Storage: Sendable {
        let url: URL
        let version: String
        let title: String?
        let basePath: String
        let operations: [Operation]
        let notices: [String]
        let files: ContractFiles
        let root: Located
        let plans: [OperationPlan]
        let problems: [ContractProblem]

        init(
            url: URL, version: String, title: String?, basePath: String, operations: [Operation],
            notices: [String], files: ContractFiles, root: Located, plans: [OperationPlan], problems: [ContractProblem]
        ) {
            (self.url, self.version, self.title, self.basePath) = (url, version, title, basePath)
            (self.operations, self.notices, self.files, self.root) = (operations, notices, files, root)
            (self.plans, self.problems) = (plans, problems)
        }
    }

    private let storage: Storage

    /// Reads the contract at `url` (JSON or YAML 1.2, told apart by the content) and every operation of
    /// its `paths`.
    ///
    /// - Throws: ``Error`` with the file, line, column and pointer of the first problem;
    ///   ``Error/isFileMissing`` when there is no file at `url`.
    public init(contentsOf url: URL) throws(Error) {
        let files = ContractFiles()
        let source = try files.source(at: url)
        let root = Located(node: source.root, source: source, pointer: "#")
        guard root.node.object != nil else {
            throw root.error("a contract is a JSON object with an \"openapi\" field; this is \(root.node.kind)")
        }
        var notices: [String] = []
        let version = try Self.version(of: root, notices: &notices)
        let title = root.member("info")?.member("title")?.node.string
        let basePath = OperationReader.serverPath(of: root) ?? ""
        var reader = OperationReader(files: files)
        let operations = try reader.operations(of: root)
        notices += reader.notices
        var planner = try PlanReader(files: files, root: root)
        var plans: [OperationPlan] = []
        for (operation, item) in reader.declarations { plans.append(try planner.plan(of: operation, in: item)) }
        let problems = Self.withLines(planner.problems, files: files)
        notices += planner.allNotices + files.leniencyNotices
        if let unused = UnusedFeatures.notice(in: root.node) { notices.append(unused) }
        let unreachable = OpenAPIRouter(operations, basePaths: operations.map { $0.serverPath ?? "" }).unreachable
        if !unreachable.isEmpty {
            let described = unreachable.map { [operations] pair in
                let (unreached, reached) = (operations[pair.operation], operations[pair.shadowedBy])
                return "\(unreached.method) \(unreached.path) (\(reached.path) "
                    + "is matched first)"
            }
            notices.append(
                (unreachable.count == 1 ? "1 operation" : "\(unreachable.count) operations")
                    + " can't be reached by any request: " + described.joined(separator: ", "))
        }
        storage = Storage(
            url: url, version: version, title: title, basePath: basePath, operations: operations, notices: notices,
            files: files, root: root, plans: plans, problems: problems)
    }

    /// `problems` with their lines, counted in one pass per file.
    private static func withLines(_ problems: [ContractProblem], files: ContractFiles) -> [ContractProblem] {
        var lined = problems
        for file in Set(problems.map(\.file)) {
            guard let source = try? files.source(at: file) else { continue }
            let indices = problems.indices.filter { problems[$0].file == file }
            for (index, line) in zip(indices, source.lines(of: indices.map { problems[$0].offset })) {
                lined[index].line = line
            }
        }
        return lined
    }

    /// The schema at `pointer` in the entry file (`#/components/schemas/Pet`), compiled with
    /// every schema it reaches.
    package func schema(at pointer: String) throws(Error) -> Schema {
        try SchemaCompiler(files: files).schema(for: .reference(pointer, in: root.source, at: 0, pointer: "#"))
    }

    /// The files the contract was read from: the entry file and those its `$ref`s reached.
    package var sourceFiles: [URL] { files.urls }

    /// The router for this contract's operations, under `basePath` (the contract's own when
    /// `nil`) except where a path or an operation has `servers` of its own.
    package func router(basePath: String? = nil) -> OpenAPIRouter {
        OpenAPIRouter(operations, basePaths: operations.map { $0.serverPath ?? basePath ?? self.basePath })
    }

    /// The `openapi` field, checked: 3.0 and 3.1 are read, 3.2 as 3.1.
    private static func version(of root: Located, notices: inout [String]) throws(Error) -> String {
        if let swagger = root.member("swagger") {
            throw swagger.error(
                "this is a Swagger \(swagger.node.string ?? "2.0") document; convert it to OpenAPI 3 first")
        }
        guard let field = root.member("openapi") else {
            throw root.error("not an OpenAPI contract: there is no \"openapi\" field at the top")
        }
        let version: String
        switch field.node.value {
        case .string(let text): version = text
        case .double(let number):
            // `openapi: 3.1` in YAML is a number; its text is the version.
            version = String(number)
            notices.append("\(field.place): \"openapi\" is the number \(version); read as the version \"\(version)\"")
        default:
            throw field.error("\"openapi\" is \(field.node.kind); write the version as a string, such as \"3.1.0\"")
        }
        switch version.split(separator: ".").prefix(2).joined(separator: ".") {
        case "3.0", "3.1": break
        case "3.2": notices.append("OpenAPI \(version) is read as 3.1: what 3.2 adds is not used")
        default:
            throw field.error("OpenAPI \(version) is not read; OpenAPI 3.0 and 3.1 are (and 3.2, read as 3.1)")
        }
        return version
    }
}
