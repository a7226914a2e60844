// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RequestMocker",
    // Duration, Task.sleep(for:) and URL.path(percentEncoded:) set the floor on Apple platforms.
    // No watchOS: custom URL protocols aren't supported there, nor are the sockets the servers
    // need (README, "Platforms").
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16)],
    products: [
        .library(name: "RequestMocker", targets: ["RequestMocker"]),
        .library(name: "RequestMockerOpenAPI", targets: ["RequestMockerOpenAPI"]),
        .library(name: "RequestMockerGraphQL", targets: ["RequestMockerGraphQL"]),
        .library(name: "RequestMockerServer", targets: ["RequestMockerServer"]),
        .library(name: "RequestMockerTesting", targets: ["RequestMockerTesting"]),
        .executable(name: "request-mocker", targets: ["request-mocker"]),
    ],
    dependencies: [],
    targets: [
        // The core: filters, registries, MockURLProtocol, folders, cassettes, stubs, YAML. It
        // imports no other module of the package.
        .target(name: "RequestMocker"),
        // OpenAPI contracts: one more source of answers, beside the core, never inside it.
        .target(name: "RequestMockerOpenAPI", dependencies: ["RequestMocker"]),
        // GraphQL schemas as contracts, beside OpenAPI: it depends on the core alone.
        .target(name: "RequestMockerGraphQL", dependencies: ["RequestMocker"]),
        // The loopback server serves contracts too (`serve --openapi`, the admin API's resources
        // and drift report).
        .target(name: "RequestMockerServer", dependencies: ["RequestMocker", "RequestMockerOpenAPI"]),
        // The only module that imports XCTest or Testing.
        .target(name: "RequestMockerTesting", dependencies: ["RequestMocker"]),
        .executableTarget(
            name: "request-mocker",
            dependencies: ["RequestMocker", "RequestMockerOpenAPI", "RequestMockerGraphQL", "RequestMockerServer"]),
        .executableTarget(
            name: "request-mocker-bench",
            // Its server rows run the command itself, so the command is built first.
            dependencies: [
                "RequestMocker", "RequestMockerOpenAPI", "RequestMockerGraphQL", "RequestMockerServer",
                "request-mocker",
            ],
            path: "Benchmarks/request-mocker-bench"
        ),
        // The fuzzer (no product): `swift run request-mocker-fuzz --smoke` runs in .ci/run.
        .target(
            name: "RequestMockerFuzzing",
            dependencies: ["RequestMocker", "RequestMockerOpenAPI", "RequestMockerGraphQL", "RequestMockerServer"],
            path: "Fuzz/RequestMockerFuzzing"),
        .executableTarget(
            name: "request-mocker-fuzz", dependencies: ["RequestMockerFuzzing"], path: "Fuzz/request-mocker-fuzz"),
        // Helpers every test target shares, defined once (no product). It imports Testing to skip a
        // test whose tool is missing (Tool.require), never XCTest.
        .target(
            name: "RequestMockerTestSupport", dependencies: ["RequestMocker"], path: "Tests/RequestMockerTestSupport"),
        .testTarget(
            name: "RequestMockerTests",
            dependencies: ["RequestMocker", "RequestMockerTestSupport"],
            // Cassettes are found beside the test file through #filePath, as users keep theirs.
            exclude: ["Cassettes"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RequestMockerOpenAPITests",
            dependencies: ["RequestMockerOpenAPI", "RequestMockerTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RequestMockerGraphQLTests",
            dependencies: ["RequestMockerGraphQL", "RequestMockerTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RequestMockerServerTests",
            dependencies: [
                "RequestMockerServer", "RequestMockerOpenAPI", "RequestMockerGraphQL", "RequestMockerFuzzing",
                "RequestMockerTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RequestMockerTestingTests",
            // The loopback server stands in for the real server that cassettes record from.
            dependencies: [
                "RequestMockerTesting", "RequestMockerOpenAPI", "RequestMockerServer", "RequestMockerTestSupport",
            ],
            // Cassettes named after tests, found beside the test files as users keep theirs.
            exclude: ["__Cassettes__"]
        ),
        .testTarget(
            name: "RequestMockerCommandTests",
            // The command's executable is run by its tests, so it must be built first.
            dependencies: [
                "request-mocker", "RequestMocker", "RequestMockerOpenAPI", "RequestMockerServer",
                "RequestMockerTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
