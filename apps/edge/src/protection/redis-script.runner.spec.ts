import { DomainError } from '@gateway/errors';
import { defineRedisScript, runRedisScript, type ScriptClient } from './redis-script.runner';

function replyError(message: string): Error {
  const error = new Error(message);
  Object.defineProperty(error, 'name', { value: 'ReplyError' });
  return error;
}

function stubClient(evalsha: jest.Mock, evalFn: jest.Mock = jest.fn()): ScriptClient {
  return { evalsha, eval: evalFn } as unknown as ScriptClient;
}

describe('runRedisScript', () => {
  const script = defineRedisScript('return 1');

  it('sends only the SHA1 when the server knows the script', async () => {
    const evalsha = jest.fn().mockResolvedValue(1);
    await expect(runRedisScript(stubClient(evalsha), script, ['k1'], ['a'])).resolves.toBe(1);
    expect(evalsha).toHaveBeenCalledWith('e0e1f9fabfc9d4800c877a703b823ac0578ff8db', 1, 'k1', 'a');
  });

  it('falls back to EVAL after NOSCRIPT (script cache flushed by a restart)', async () => {
    const evalsha = jest.fn().mockRejectedValue(replyError('NOSCRIPT No matching script. Please use EVAL.'));
    const evalFn = jest.fn().mockResolvedValue(2);
    await expect(runRedisScript(stubClient(evalsha, evalFn), script, ['k1', 'k2'], [])).resolves.toBe(2);
    expect(evalFn).toHaveBeenCalledWith('return 1', 2, 'k1', 'k2');
  });

  it('turns connection failures into UNAVAILABLE so the caller fails closed with 503', async () => {
    const evalsha = jest.fn().mockRejectedValue(new Error("Stream isn't writeable and enableOfflineQueue options is false"));
    const failure = runRedisScript(stubClient(evalsha), script, [], []);
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({ code: 'UNAVAILABLE', retryAfterSeconds: 1 });
  });

  it('treats transient server states as UNAVAILABLE', async () => {
    const evalsha = jest.fn().mockRejectedValue(replyError('LOADING Redis is loading the dataset in memory'));
    await expect(runRedisScript(stubClient(evalsha), script, [], [])).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('keeps a script error as is: that is a bug, not an outage', async () => {
    const evalsha = jest.fn().mockRejectedValue(replyError('ERR user_script:1: Script attempted to access nonexistent global variable'));
    await expect(runRedisScript(stubClient(evalsha), script, [], [])).rejects.toMatchObject({ name: 'ReplyError' });
  });
});
