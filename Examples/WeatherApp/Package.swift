// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "WeatherApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "WeatherAPI", targets: ["WeatherAPI"])
    ],
    dependencies: [
        // The RequestMocker checkout this example lives in. `name:` keeps the product references
        // below working whatever the checkout's folder is called. In your own package, use
        // `.package(url: "<RequestMocker's Git URL>", from: "0.1.0")` instead.
        .package(name: "RequestMocker", path: "../..")
    ],
    targets: [
        // The app's networking code: it knows nothing about mocking, it just takes a URLSession.
        .target(name: "WeatherAPI"),
        .testTarget(
            name: "WeatherAPITests",
            dependencies: [
                "WeatherAPI",
                .product(name: "RequestMocker", package: "RequestMocker"),
                // The Swift Testing traits and XCTest helpers (its import brings RequestMocker too).
                .product(name: "RequestMockerTesting", package: "RequestMocker"),
                // OpenAPI contracts: only the tests that answer from the service's contract need it.
                .product(name: "RequestMockerOpenAPI", package: "RequestMocker"),
            ],
            // Copied whole into the test bundle, found through Bundle.module.
            resources: [
                .copy("MockData"),
                .copy("Cassettes"),
                .copy("Contracts"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
