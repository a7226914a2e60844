import Foundation
import RequestMocker

extension GraphQLSchema {
    /// The schema `source` defines in SDL.
    ///
    /// - Throws: ``GraphQLSchemaError`` with every problem: a syntax error, or what the type
    ///   system's rules refuse.
    package convenience init(sdl source: GraphQLSource) throws(GraphQLSchemaError) {
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(source)
        } catch {
            throw GraphQLSchemaError(problems: [
                GraphQLSchemaError.Problem(
                    file: source.name, location: source.location(of: error.offset), message: error.message)
            ])
        }
        var builder = GraphQLSchemaBuilder(source: source)
        guard let schema = builder.build(document) else { throw GraphQLSchemaError(problems: builder.problems) }
        self.init(copying: schema)
    }

    /// The schema `text` defines in SDL, its type system's rules checked.
    ///
    /// ```swift
    /// let schema = try GraphQLSchema(sdl: "type Query { hero(id: ID!): Hero } type Hero { id: ID!, name: String }")
    /// ```
    ///
    /// - Throws: ``GraphQLSchemaError`` with every problem at its line and column.
    public convenience init(sdl text: String) throws(GraphQLSchemaError) {
        try self.init(sdl: GraphQLSource(text))
    }

    /// The schema a file holds: SDL (`.graphql`, `.graphqls`), or an introspection result
    /// (JSON: `{"data": {"__schema": …}}` or `{"__schema": …}`, the `schema.json` Apollo iOS
    /// projects keep), told apart by the content.
    ///
    /// ```swift
    /// let schema = try GraphQLSchema(contentsOf: URL(fileURLWithPath: "schema.graphqls"))
    /// ```
    ///
    /// - Throws: ``GraphQLSchemaError`` with every problem at its file, line and column; for a
    ///   file that can't be read, one problem, with ``GraphQLSchemaError/isFileMissing`` set
    ///   when it isn't there.
    public convenience init(contentsOf url: URL) throws(GraphQLSchemaError) {
        let bytes = try GraphQLSchemaError.read(url, kind: "schema").get()
        let source = GraphQLSource(bytes: bytes, name: url.path)
        if DocumentSyntax(of: bytes) == .json {
            try self.init(introspection: source)
        } else {
            try self.init(sdl: source)
        }
    }

    /// A copy, for the convenience initializers that build one.
    convenience init(copying schema: GraphQLSchema) {
        self.init(
            description: schema.description, types: schema.types, typeNames: schema.typeNames,
            roots: (schema.queryType, schema.mutationType, schema.subscriptionType), directives: schema.directives,
            directiveNames: schema.directiveNames, source: schema.source)
    }
}
