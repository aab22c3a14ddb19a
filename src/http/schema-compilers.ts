// Fastify's schema compilers, as the server's start needs them. Requests are checked by the fields'
// own rules (fieldValidatorCompiler), so Ajv, Fastify's default validator, is never loaded. Responses
// with a schema are written by fast-json-stringify as by default, but each route's serializer is
// compiled when the route first answers, not all of them before `listen`: together about a sixth
// of a restart's CPU, for a few milliseconds on each route's first response.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { fieldValidatorCompiler } from './field-schema.js';

type Serializer = (data: unknown) => string;

export const schemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    // Fastify's types describe Ajv's compiler; a route's schema reaches this one as it does Ajv's.
    buildValidator: (() => fieldValidatorCompiler) as never,
    buildSerializer: (externalSchemas: unknown, options: unknown) => {
      const compile = SerializerSelector()(externalSchemas, options as never);
      return (route: SerializerSelector.RouteDefinition): Serializer => {
        let serialize: Serializer | undefined;
        return (data) => (serialize ??= compile(route))(data);
      };
    },
  },
};
