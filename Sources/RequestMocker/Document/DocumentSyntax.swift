import Foundation

/// The two syntaxes a contract, a stubs file or a schema may be written in, told apart by the
/// content, whatever the file's extension: JSON when the first character (after white space and
/// a byte order mark) opens an object or an array, YAML 1.2 otherwise.
package enum DocumentSyntax {
    case json
    case yaml

    package init(of bytes: [UInt8]) {
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        self = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .yaml
    }
}

/// Where the values of a JSON or YAML file are written: the line and column of the value at a
/// path of keys and indices, for messages that point into the file (a stub's, a recording's).
package struct DocumentPositions {
    private let data: Data
    /// The file's tree, when it is YAML (JSON is scanned again instead, only when asked).
    private let yaml: DocumentSource?

    /// The positions in `data`, whichever syntax it has; a YAML file is read here, and one that
    /// can't be read has no positions.
    package init(_ data: Data, file: URL) {
        self.data = data
        let bytes = [UInt8](data)
        yaml =
            DocumentSyntax(of: bytes) == .yaml
            ? (try? YAMLReader.parse(bytes)).map { DocumentSource(url: file, bytes: bytes, root: $0) } : nil
    }

    /// The positions in a JSON file, found by scanning it when asked.
    init(json data: Data) {
        self.data = data
        yaml = nil
    }

    /// The positions in a YAML file already read.
    init(yaml: DocumentSource) {
        data = Data()
        self.yaml = yaml
    }

    /// The 1-based line and column of the value at `steps`, or of the nearest value on the way
    /// to it that is there; `nil` when the file can't be read.
    package func position(of steps: [JSONLocation.Step]) -> (line: Int, column: Int)? {
        guard let yaml else { return JSONLocation.position(of: steps, in: data) }
        var node = yaml.root
        for step in steps {
            switch (step, node.value) {
            case (.key(let key), .object(let object)): node = object[key] ?? node
            case (.index(let index), .array(let elements)) where elements.indices.contains(index):
                node = elements[index]
            default: break
            }
        }
        return yaml.location(of: node.offset)
    }
}
