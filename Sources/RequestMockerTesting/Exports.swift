// Tests that import this module get the core with it: one import in each test file.
//
// Link this module into test targets only: it links XCTest and Testing, which an app can't load
// on Apple platforms. An app, or the host app of UI tests, depends on RequestMocker or
// RequestMockerServer instead.
@_exported import RequestMocker
