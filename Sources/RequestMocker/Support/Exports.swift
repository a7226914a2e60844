@_exported import Foundation

// The one place that deals with Foundation's split on Linux: URLProtocol, URLSession and
// URLRequest live in FoundationNetworking there. Re-exporting it means neither this module's
// files nor its users need their own `#if canImport(FoundationNetworking)`.
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
