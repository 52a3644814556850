// swift-tools-version:6.2
import PackageDescription

// A client of SGEmployee generated from api-spec/openapi.yaml by swift-openapi-generator, as a client team would
// generate theirs, and `sgclient-day`, which drives a live server through an employee's and an admin's day with it.
// A package of its own so that the server's build does not pay for the generator.
let package = Package(
    name: "sgemployee-client",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SGEmployeeClient", targets: ["SGEmployeeClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
    ],
    targets: [
        // Types and client generated at build time from the contract (a link to api-spec/openapi.yaml).
        .target(
            name: "SGEmployeeClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "sgclient-day",
            dependencies: [
                "SGEmployeeClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
    ]
)
