/// The names that mark a value as a secret by default: what ``Redaction/default`` hides in
/// recordings, and what descriptions, logs and error messages hide everywhere.
///
/// - **Fields** (query parameters, form fields and JSON keys, in requests and responses): a name
///   that is, or ends with, one of ``fieldSuffixes``, compared without regard to case and with
///   `-` read as `_`. So `password`, `user_password`, `accessToken` and `X-Api-Key` are all
///   secrets.
/// - **Headers**: ``headerNames``, and names ending with one of ``headerSuffixes``
///   (`X-Auth-Token`, `X-Client-Secret`), compared without regard to case.
///
/// ```swift
/// SecretNames.isSecretField("refresh_token")  // true
/// SecretNames.isSecretHeader("X-Api-Key")     // true
/// SecretNames.isSecretField("page")           // false
/// ```
public enum SecretNames {
    /// Field names that are secrets, and the endings that make a name one.
    public static let fieldSuffixes: [String] = [
        "password", "passwd", "secret", "token", "access_token", "refresh_token", "id_token", "api_key", "apikey",
        "client_secret", "session", "session_id", "sessionid", "signature", "credential", "credentials",
        "private_key",
    ]

    /// Header names that are secrets.
    public static let headerNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    ]

    /// Header-name endings that make a header a secret.
    public static let headerSuffixes: [String] = ["-token", "-secret", "-api-key", "-signature", "-password"]

    /// Whether a query parameter, form field or JSON key named `name` holds a secret.
    public static func isSecretField(_ name: String) -> Bool {
        // `api-key` and `X-Api-Key` are spelled with hyphens as often as with underscores.
        let lowered = name.lowercased().replacingOccurrences(of: "-", with: "_")
        return fieldSuffixes.contains { lowered.hasSuffix($0) }
    }

    /// Whether a header named `name` holds a secret.
    public static func isSecretHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return headerNames.contains(lowered) || headerSuffixes.contains { lowered.hasSuffix($0) }
    }
}
