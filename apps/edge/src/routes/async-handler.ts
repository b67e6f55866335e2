import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Express 5 forwards rejected promises already; this keeps handlers typed and explicit. */
export const handle = (fn: (req: Request, res: Response) => Promise<void>): RequestHandler => (req: Request, res: Response, next: NextFunction) => {
  fn(req, res).catch(next);
};
