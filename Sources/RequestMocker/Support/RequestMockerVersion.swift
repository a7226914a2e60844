/// The library's version, written into HAR files' `creator`.
package enum RequestMockerVersion {
    package static let current = "0.1.0"
}
