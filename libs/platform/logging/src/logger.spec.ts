import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { Writable } from 'node:stream';
import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON with the service name and redacts secrets at any depth', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 'ledger', destination });
    logger.info({ password: 'hunter2', model: { api_key: 'sk-live-123' }, headers: { authorization: 'Bearer ak_1.x' } }, 'hello');
    expect(lines[0]).toMatchObject({ service: 'ledger', msg: 'hello', level: 'info', password: '[REDACTED]' });
    expect(JSON.stringify(lines[0])).not.toContain('hunter2');
    expect(JSON.stringify(lines[0])).not.toContain('sk-live-123');
    expect(JSON.stringify(lines[0])).not.toContain('ak_1.x');
  });

  it('adds the active trace id to every line', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const tracer = new BasicTracerProvider().getTracer('test');
    const { lines, destination } = capture();
    const logger = createLogger({ service: 'edge', destination });
    const span = tracer.startSpan('request');
    context.with(trace.setSpan(context.active(), span), () => logger.info('inside'));
    logger.info('outside');
    span.end();
    expect(lines[0].trace_id).toBe(span.spanContext().traceId);
    expect(lines[1].trace_id).toBeUndefined();
    context.disable();
  });
});
