import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyRouteContract, RouteContract } from '@bo/proto';
import type { z } from 'zod';
import { AppError, parseInput } from '../errors';
import type { Identity } from '../identity';
import { assertNoNul, UPLOAD_BODY_LIMIT_BYTES, WEBHOOK_BODY_LIMIT_BYTES } from './hostile-input';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract a route serves; every route but the platform's own has one. */
    contract?: AnyRouteContract;
  }
}

type Schema = z.ZodType;
type Parsed<S> = S extends Schema ? z.output<S> : undefined;

/** What a handler gets: the request parts already validated by the contract's schemas. */
export interface RouteInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  identity: Identity | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A handler returns its contract's reply (before defaults are applied: the schema's input). */
export type RouteHandler<P, Q, B, R extends Schema> = (input: RouteInput<P, Q, B>) => Promise<z.input<R>>;

interface ValidatedParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

const validated = new WeakMap<FastifyRequest, ValidatedParts>();

/**
 * Registers the handler of a contract: method, path and access come from the contract, and the
 * params, query and body are validated by its schemas after the access check and before the
 * handler, so a handler never sees input its contract does not allow (a body of the wrong type,
 * `5` or `[]`, or a string holding U+0000, is a 400 naming the problem). A contract marked
 * `webhook` takes bodies up to WEBHOOK_BODY_LIMIT_BYTES (413 beyond). With `checkReplies` (tests), a JSON reply that does
 * not match the contract is a 500, so drift between the contract and the code fails loudly.
 */
export function serveRoute<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, R extends Schema>(
  app: FastifyInstance,
  contract: RouteContract<P, Q, B, R>,
  handler: RouteHandler<NoInfer<P>, NoInfer<Q>, NoInfer<B>, NoInfer<R>>,
): void {
  const checkReplies = (app as FastifyInstance & { checkReplies?: boolean }).checkReplies === true;
  app.route({
    method: contract.method,
    url: contract.path,
    config: { access: contract.access, contract: contract as AnyRouteContract },
    // A public webhook is anyone's to call: its body is held to the small limit (the gateway's too).
    ...(contract.webhook && { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }),
    // A file (a database import) is larger than any form; only an admin or the gateway may send one.
    ...(contract.upload && { bodyLimit: UPLOAD_BODY_LIMIT_BYTES }),
    preHandler: async (request) => {
      // Before any schema: a NUL anywhere is refused whatever the contract would make of it.
      assertNoNul(request.params, 'params');
      assertNoNul(request.query, 'query');
      assertNoNul(request.body, 'body');
      validated.set(request, {
        params: contract.params ? parseInput(contract.params, request.params, 'params') : undefined,
        query: contract.query ? parseInput(contract.query, request.query, 'query') : undefined,
        body: contract.body ? parseInput(contract.body, request.body, 'body') : undefined,
      });
    },
    handler: async (request, reply) => {
      const parts = validated.get(request) ?? {};
      const result = await handler({
        params: parts.params as Parsed<P>,
        query: parts.query as Parsed<Q>,
        body: parts.body as Parsed<B>,
        identity: request.identity,
        request,
        reply,
      });
      if (checkReplies && (contract.replyKind ?? 'json') === 'json' && reply.statusCode < 300) {
        const checked = contract.reply.safeParse(result);
        if (!checked.success) {
          request.log.error({ route: `${contract.method} ${contract.path}`, issues: checked.error.issues }, 'reply does not match its contract');
          throw new AppError(500, 'contract_violation', 'Internal server error');
        }
      }
      return reply.sent ? reply : result;
    },
  });
}
