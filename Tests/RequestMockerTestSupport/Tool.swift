import Foundation
import RequestMocker
import Testing

/// A program or Python package that some tests drive (real clients and servers no one here
/// wrote), with the command that installs it on Debian, as `.ci/run` does.
///
/// A test calls ``require()`` before it uses one. Where the tool is missing, the test is skipped
/// (cancelled, in Swift Testing's words) with a line naming the tool and its install command,
/// and the run goes on; the first time, one line on standard error says so for the whole run.
/// Where `CI` is set, a missing tool fails the test instead, so CI never skips silently.
package struct Tool: Sendable, Hashable, CustomStringConvertible {
    /// The program's name, or the Python module's.
    package let name: String
    /// Whether ``name`` is a Python module (imported by ``python``) rather than a program.
    let isPythonModule: Bool
    /// The Python that imports it: `python3`, or an environment's own.
    let python: String
    /// What installs it: the Debian package, and pip's command where one works.
    package let installation: String

    package static let python3 = Tool(name: "python3", isPythonModule: false, installation: "apt-get install python3")
    package static let curl = Tool(name: "curl", isPythonModule: false, installation: "apt-get install curl")
    package static let websockets = Tool(
        name: "websockets", isPythonModule: true,
        installation: "apt-get install python3-websockets (or: python3 -m pip install websockets)")
    package static let jsonschema = Tool(
        name: "jsonschema", isPythonModule: true,
        installation: "apt-get install python3-jsonschema (or: python3 -m pip install jsonschema)")

    package static let pyyaml = Tool(
        name: "yaml", isPythonModule: true,
        installation: "apt-get install python3-yaml (or: python3 -m pip install pyyaml)")

    package static let openapiSpecValidator = Tool(
        name: "openapi_spec_validator", isPythonModule: true,
        installation: "python3 -m pip install openapi-spec-validator")

    /// Jupyter Server and the Python kernel it starts: a real server with a published contract,
    /// whose recorded traffic is drafted. In a Python environment of its own (``jupyterPython``):
    /// its dependencies make every `import jsonschema` of the main one take two seconds more (a
    /// grammar built at import), which starved other tests of CI's loaded run.
    package static let jupyterServer = Tool(
        name: "jupyter_server, ipykernel", isPythonModule: true, python: jupyterPython,
        installation: "python3 -m venv .build/jupyter && .build/jupyter/bin/python3 -m pip install jupyter_server "
            + "ipykernel")

    /// The Python of Jupyter Server's environment, `.build/jupyter` in the package (as `.ci/run`
    /// makes it).
    package static let jupyterPython = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // RequestMockerTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent(".build/jupyter/bin/python3").path

    package static let schemathesis = Tool(
        name: "schemathesis", isPythonModule: true, installation: "python3 -m pip install schemathesis")

    /// graphql-core, the Python port of graphql-js: the GraphQL tests' reference.
    package static let graphqlCore = Tool(
        name: "graphql", isPythonModule: true, installation: "python3 -m pip install graphql-core")

    /// Selenium, which drives a browser: the dashboard's tests.
    package static let selenium = Tool(
        name: "selenium", isPythonModule: true, installation: "python3 -m pip install selenium")

    /// Chromium's WebDriver (with Chromium), the headless browser Selenium drives.
    package static let chromedriver = Tool(
        name: "chromedriver", isPythonModule: false, installation: "apt-get install chromium chromium-driver")

    init(name: String, isPythonModule: Bool, python: String = "python3", installation: String) {
        self.name = name
        self.isPythonModule = isPythonModule
        self.python = python
        self.installation = installation
    }

    package var description: String { isPythonModule ? "Python's \(name) package" : name }

    /// Returns when the tool is here; otherwise skips the current test (or, under CI, throws
    /// ``Missing``, which fails it).
    package func require() async throws {
        if isPythonModule { try await Tool.python3.require() }
        guard await !isAvailable else { return }
        if Tool.isCI { throw Missing(tool: self, why: "CI is set, so the test fails rather than being skipped") }
        let first = Tool.announced.withLock { $0.insert(self).inserted }
        if first {
            FileHandle.standardError.write(
                Data(
                    ("note: \(self) is missing, so the tests that need it are skipped; "
                        + "install it with: \(installation)\n").utf8))
        }
        #if compiler(>=6.3)
            try Test.cancel("\(self) is missing; install it with: \(installation)")
        #else
            // Before Swift 6.3's Testing a test can't skip itself once running: it fails, saying why.
            throw Missing(tool: self, why: "this Swift's Testing can't skip a test once it runs")
        #endif
    }

    /// Whether the tool is here: a program on `PATH`, or a module `python3` imports.
    package var isAvailable: Bool {
        get async {
            let check = Tool.checks.withLock { checks in
                if let check = checks[self] { return check }
                let check = Task { await self.look() }
                checks[self] = check
                return check
            }
            return await check.value
        }
    }

    private func look() async -> Bool {
        guard isPythonModule else { return ChildProcess.executable(named: name) != nil }
        guard let child = try? await ChildProcess([python, "-c", "import \(name)"]) else { return false }
        return await child.exitStatus == 0
    }

    private static let checks = LockedState<[Tool: Task<Bool, Never>]>([:])
    private static let announced = LockedState<Set<Tool>>([])

    /// Whether the tests run under CI: `CI` set to anything but empty, `0` or `false`.
    static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !["", "0", "false"].contains(value.lowercased())
    }

    /// A tool the tests need is missing where they may not be skipped.
    package struct Missing: Error, CustomStringConvertible {
        package let tool: Tool
        /// Why the test fails instead of being skipped.
        package let why: String
        package var description: String { "\(tool) is missing (\(why)); install it with: \(tool.installation)" }
    }
}
