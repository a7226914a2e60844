import Foundation
import RequestMocker

/// `request-mocker name`: prints the mock-data file names a request looks for, and with
/// `--create` writes a skeleton file under the first.
enum NameCommand {
    static func run(_ options: CommandLineOptions.NameOptions) -> Never {
        guard let url = URL(string: options.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            fail(
                "\(options.url.debugDescription) is not an http(s) URL; write it whole, such as "
                    + "'https://api.test/users?page=2' (quote it for the shell)",
                status: ExitCode.usage)
        }
        var headers = HTTPHeaders()
        for header in options.headers {
            let parts = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            headers.add(HTTPHeaders.Name(parts[0]), parts.count > 1 ? parts[1] : "")
        }
        var body: Data?
        if let text = options.body {
            if text.hasPrefix("@") {
                guard let data = FileManager.default.contents(atPath: String(text.dropFirst())) else {
                    fail("cannot read the body file \(text.dropFirst())", status: ExitCode.noInput)
                }
                body = data
            } else {
                body = Data(text.utf8)
            }
            // As curl sends -d.
            if !headers.contains(.contentType) { headers.add(.contentType, "application/x-www-form-urlencoded") }
        }
        let request = MockRequest(method: HTTPMethod(rawValue: options.method), url: url, headers: headers, body: body)
        let naming = MockDataNaming(allowsWildcards: options.wildcards, headersInName: options.headersInName)
        let names = naming.candidates(for: request)
        guard let first = names.first else {
            fail("this request has no mock-data name short enough for a file", status: ExitCode.usage)
        }
        if let folder = options.createIn { create(first + ".http", in: folder) }
        for name in names.flatMap({ [$0 + ".http", $0 + ".json"] }) { printLine(name) }
        exit(0)
    }

    /// Writes a skeleton response under `name` in `folder`, never over an existing file.
    private static func create(_ name: String, in folder: String) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            fail("no folder at \(folder) to create the file in", status: ExitCode.cantCreate)
        }
        let file = URL(fileURLWithPath: folder).appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: file.path) else {
            fail("\(file.path) already exists; edit it, or remove it first", status: ExitCode.cantCreate)
        }
        let skeleton = "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{}\n"
        guard FileManager.default.createFile(atPath: file.path, contents: Data(skeleton.utf8)) else {
            fail("cannot write \(file.path)", status: ExitCode.cantCreate)
        }
        FileHandle.standardError.write(Data("created \(file.path)\n".utf8))
    }
}
