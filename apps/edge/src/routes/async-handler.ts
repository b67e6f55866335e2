import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Express 5 forwards rejected promises already; this keeps handlers typed and explicit.
 * A middleware (`passThrough`) continues to the next handler once it resolves.
 */
export const handle = (fn: (req: Request, res: Response) => Promise<void>, passThrough = false): RequestHandler => (req: Request, res: Response, next: NextFunction) => {
  fn(req, res).then(() => (passThrough ? next() : undefined), next);
};
