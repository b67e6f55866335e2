import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDomainError, toHttpError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';

/** Unknown routes: 404 `{error: "Not found"}` (DESIGN.md). */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'Not found' });
};

/**
 * The single express error mapping: domain errors to the spec's bodies, malformed JSON to 400,
 * everything else to a generic 500 whose details only reach the log (with the trace id).
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const bodyError = error as { type?: string; status?: number };
    if (bodyError.type === 'entity.parse.failed') {
      res.status(400).json({ error: 'Malformed JSON body' });
      return;
    }
    if (bodyError.type === 'entity.too.large') {
      res.status(413).json({ error: 'Request body too large' });
      return;
    }
    if (!isDomainError(error)) logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    const mapped = toHttpError(error);
    for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
    res.status(mapped.status).json(mapped.body);
  };
}
