import { z } from 'zod';
import { DomainError } from '@gateway/errors';

/** Parses a request part; a failure is a 400 naming the fields (or 422 when asked). */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, status: 400 | 422 = 400): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  if (status === 422) throw new DomainError('VALIDATION_FAILED', messages.join(', '), { errors: messages });
  throw new DomainError('BAD_REQUEST', messages.join(', '));
}

export const idParam = z.coerce.number().int().positive();
