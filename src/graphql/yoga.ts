import type { Request, Response } from "express";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { createGraphQLError, createYoga, type Plugin } from "graphql-yoga";
import type { Principal } from "../domain/accounts/principal";
import type { Services } from "../services";
import { createContext } from "./context";
import { queryLimitRules } from "./limits";

interface ServerContext {
  req: Request & { principal?: Principal };
  res: Response;
}

/** Depth and cost bounds on every document Yoga validates. */
function queryLimits(limits: { maxDepth: number; maxCost: number }): Plugin {
  const rules = queryLimitRules(limits);
  return {
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
}

export function createGraphQLHandler(services: Services, schema: GraphQLSchema) {
  return createYoga<ServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: {
      title: "Quayside GraphQL",
      defaultQuery: "{ viewer { organization { name plan { name } } } }",
    },
    plugins: [queryLimits(services.config.graphql)],
    // Expected failures are GraphQLErrors with a code; anything else is masked and logged.
    // Expected failures are GraphQLErrors (ours carry extensions.code; graphql-js's own parse and
    // validation errors too). Anything else thrown inside a resolver is logged and masked.
    maskedErrors: {
      maskError(error, message) {
        if (
          error instanceof GraphQLError &&
          (!error.originalError || error.originalError instanceof GraphQLError)
        ) {
          return error;
        }
        const cause = error instanceof GraphQLError ? error.originalError : error;
        services.logger.error({ err: cause }, "Unexpected error in a GraphQL resolver");
        return createGraphQLError(message, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
      },
    },
    logging: {
      debug: (...args) => services.logger.debug(args),
      info: (...args) => services.logger.info(args),
      warn: (...args) => services.logger.warn(args),
      error: (...args) => services.logger.error(args),
    },
    context: ({ req }) =>
      createContext({ requestId: req.requestId, principal: req.principal ?? null, services }),
  });
}
