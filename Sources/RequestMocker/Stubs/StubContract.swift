/// A contract whose declared answers a stub may name, in a stub's `"openapi"` response:
/// `{"openapi": {"operation": "getPet", "status": 404, "example": "notFound"}}`.
///
/// The core reads stubs without knowing contracts; a contract kind's module conforms
/// (`OpenAPIContract`, in `RequestMockerOpenAPI`), and whoever reads stubs passes the contract
/// in. Without one, such a stub is refused with a message that says to serve a contract.
///
/// ```swift
/// import RequestMockerOpenAPI
///
/// let contract = try OpenAPIContract(contentsOf: URL(fileURLWithPath: "openapi.yaml"))
/// let stubs = try Stub.stubs(contentsOf: URL(fileURLWithPath: "stubs.json"), contract: contract)
/// ```
public protocol StubContract: Sendable {
    /// The response the contract declares for `operation` (its `operationId`, or its method and
    /// path template: `GET /health`), with `status` and the example named `example` when they
    /// are given. A response that can't be built (no such operation, status or example) is
    /// refused when the stub is read, with the reason the response gives.
    func declaredResponse(operation: String, status: Int?, example: String?) -> MockResponse
}
