import Foundation

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

    /// The schema `text` defines in SDL.
    package convenience init(sdl text: String) throws(GraphQLSchemaError) {
        try self.init(sdl: GraphQLSource(text))
    }

    /// A copy, for the convenience initializers that build one.
    convenience init(copying schema: GraphQLSchema) {
        self.init(
            description: schema.description, types: schema.types, typeNames: schema.typeNames,
            roots: (schema.queryType, schema.mutationType, schema.subscriptionType), directives: schema.directives,
            directiveNames: schema.directiveNames, source: schema.source)
    }
}
