/**
 * Lua scripts of the Redis protection store. Each public operation is ONE script, so it is atomic
 * across every edge replica sharing the Redis. Conventions:
 * - `now` (ms epoch) comes from the caller's injected clock (ARGV[1]); scripts never read TIME, so
 *   tests drive time and both adapters share one notion of it. Trip markers and reservation records
 *   hold their logical expiry (injected clock) as their value; PEXPIRE (Redis clock) only collects
 *   garbage, with a margin so skew between the two clocks never drops live data.
 * - Money is integer micro-dollars; `fmt` prints integers with %d because redis.call would
 *   otherwise format Lua numbers with %.14g.
 * - Every key is declared in KEYS (no key built inside a script).
 * Results are arrays of integers; the TypeScript adapter maps them to the port's result types.
 */

const HELPERS = `
local function fmt(n) return string.format('%d', n) end
local function markerHolds(key, now)
  local untilMs = tonumber(redis.call('GET', key) or '0') or 0
  return untilMs > now
end
`;

/**
 * admitRequest. Complexity O(log N + M), N = requests in the window (≤ rate limit), M = entries
 * expiring now (amortised O(1)).
 * KEYS: 1 rate log (zset id→ms), 2 loop log (zset id→ms), 3 loop trip marker (string: until ms)
 * ARGV: 1 now, 2 unique request id, 3 rate limit, 4 rate window ms, 5 loop max, 6 loop window ms,
 *       7 loop guard exempt '1'|'0', 8 trip marker ttl ms, 9 expiry margin ms
 * Returns {code, firstTrip, remaining, resetMs}; code 0 admitted, 1 rate limited, 2 loop detected.
 */
export const ADMIT_SCRIPT = `${HELPERS}
local now = tonumber(ARGV[1])
local member = ARGV[2]
local rateLimit = tonumber(ARGV[3])
local rateWindow = tonumber(ARGV[4])
local loopMax = tonumber(ARGV[5])
local loopWindow = tonumber(ARGV[6])
local exempt = ARGV[7] == '1'
local tripTtl = tonumber(ARGV[8])
local margin = tonumber(ARGV[9])

if not exempt then
  -- A tripped key stays refused until resetKey; only the first caller sees firstTrip = 1.
  if markerHolds(KEYS[3], now) then return {2, 0, 0, 0} end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', fmt(now - loopWindow))
  if redis.call('ZCARD', KEYS[2]) >= loopMax then
    redis.call('SET', KEYS[3], fmt(now + tripTtl), 'PX', fmt(tripTtl + margin))
    return {2, 1, 0, 0}
  end
  -- Counted before the rate check: a client hammering through 429s is exactly a loop.
  redis.call('ZADD', KEYS[2], ARGV[1], member)
  redis.call('PEXPIRE', KEYS[2], fmt(loopWindow + margin))
end

-- True rolling window: an entry counts while now - at < window, i.e. it leaves at at + window.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', fmt(now - rateWindow))
local count = redis.call('ZCARD', KEYS[1])
if count >= rateLimit then
  -- Refused requests are not logged, so they consume no quota.
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, 0, 0, tonumber(oldest[2]) + rateWindow}
end
redis.call('ZADD', KEYS[1], ARGV[1], member)
redis.call('PEXPIRE', KEYS[1], fmt(rateWindow + margin))
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, 0, rateLimit - count - 1, tonumber(oldest[2]) + rateWindow}
`;

/**
 * Shared by reserve and settle: drop spend entries that left the rolling hour and reservations
 * past their deadline, keeping the running sums equal to the sum of the amounts that remain.
 */
const SPEND_HELPERS = `
local function dropEntries(ids, amountKey, sumKey, logKey)
  for _, id in ipairs(ids) do
    local amount = redis.call('HGET', amountKey, id)
    if amount then
      redis.call('HDEL', amountKey, id)
      redis.call('DECRBY', sumKey, amount)
    end
    if logKey then redis.call('ZREM', logKey, id) end
  end
end
local function trimWindow(logKey, amountKey, sumKey, cutoff)
  local old = redis.call('ZRANGEBYSCORE', logKey, '-inf', cutoff)
  if #old > 0 then
    dropEntries(old, amountKey, sumKey, false)
    redis.call('ZREMRANGEBYSCORE', logKey, '-inf', cutoff)
  end
end
local function expirePending(pendingKey, amountKey, sumKey, logKey, now)
  local expired = redis.call('ZRANGEBYSCORE', pendingKey, '-inf', now)
  if #expired > 0 then
    dropEntries(expired, amountKey, sumKey, logKey)
    redis.call('ZREMRANGEBYSCORE', pendingKey, '-inf', now)
  end
end
local function healSum(setKey, amountKey, sumKey)
  -- An empty set means a zero sum; resetting here keeps any past drift from living on.
  if redis.call('ZCARD', setKey) == 0 then redis.call('DEL', amountKey, sumKey) end
end
local function readInt(key)
  return tonumber(redis.call('GET', key) or '0') or 0
end
`;

/**
 * reserveSpend. Complexity O(log N + M), N = spend entries of the key in the hour (bounded by the
 * rate limit), M = entries expiring now (amortised O(1)).
 * KEYS: 1 key spend log (zset id→ms), 2 key spend amounts (hash id→µUSD), 3 key spend sum,
 *       4 key pending reservations (zset id→deadline ms), 5 circuit trip marker (string: until ms),
 *       6 month settled µUSD, 7 month pending (zset id→deadline), 8 month pending amounts (hash),
 *       9 month pending sum, 10 reservation record (string: until ms while reserved)
 * ARGV: 1 now, 2 reservation id, 3 estimate µUSD, 4 hourly limit µUSD or '', 5 budget µUSD or '',
 *       6 spend window ms, 7 reservation ttl ms, 8 trip marker ttl ms, 9 month ttl ms,
 *       10 record ttl ms, 11 expiry margin ms
 * Returns {code, firstTrip}; code 0 reserved, 1 circuit open, 2 budget exceeded.
 */
export const RESERVE_SCRIPT = `${HELPERS}${SPEND_HELPERS}
local now = tonumber(ARGV[1])
local id = ARGV[2]
local estimate = tonumber(ARGV[3])
local spendWindow = tonumber(ARGV[6])
local reservationTtl = tonumber(ARGV[7])
local tripTtl = tonumber(ARGV[8])
local margin = tonumber(ARGV[11])

trimWindow(KEYS[1], KEYS[2], KEYS[3], fmt(now - spendWindow))
expirePending(KEYS[4], KEYS[2], KEYS[3], KEYS[1], ARGV[1])
healSum(KEYS[1], KEYS[2], KEYS[3])
expirePending(KEYS[7], KEYS[8], KEYS[9], false, ARGV[1])
healSum(KEYS[7], KEYS[8], KEYS[9])

-- A tripped key stays refused until resetKey, whatever its current limit.
if markerHolds(KEYS[5], now) then return {1, 0} end

if ARGV[5] ~= '' then
  local budget = tonumber(ARGV[5])
  local settled = readInt(KEYS[6])
  if settled >= budget or settled + readInt(KEYS[9]) + estimate > budget then return {2, 0} end
end

-- "Crossing" the cap means exceeding it: spend that lands exactly on the limit is allowed.
if ARGV[4] ~= '' and readInt(KEYS[3]) + estimate > tonumber(ARGV[4]) then
  redis.call('SET', KEYS[5], fmt(now + tripTtl), 'PX', fmt(tripTtl + margin))
  return {1, 1}
end

local deadline = fmt(now + reservationTtl)
local keyTtl = fmt(math.max(spendWindow, reservationTtl) + margin)
redis.call('ZADD', KEYS[1], ARGV[1], id)
redis.call('HSET', KEYS[2], id, ARGV[3])
redis.call('INCRBY', KEYS[3], ARGV[3])
redis.call('ZADD', KEYS[4], deadline, id)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], keyTtl) end
redis.call('ZADD', KEYS[7], deadline, id)
redis.call('HSET', KEYS[8], id, ARGV[3])
redis.call('INCRBY', KEYS[9], ARGV[3])
for i = 7, 9 do redis.call('PEXPIRE', KEYS[i], ARGV[9]) end
redis.call('SET', KEYS[10], fmt(now + tonumber(ARGV[10])), 'PX', fmt(tonumber(ARGV[10]) + margin))
return {0, 0}
`;

/**
 * settleSpend (ARGV[3] = actual µUSD) and releaseSpend (ARGV[3] = ''). Idempotent: the record
 * flips from "reserved" to a final state once; later calls find no live reservation and do nothing.
 * The actual cost enters the rolling hour at settle time (when it was incurred) and the month of the
 * reservation (so a request spanning midnight UTC counts once). O(log N).
 * KEYS: 1 key spend log, 2 key spend amounts, 3 key spend sum, 4 key pending, 5 month settled,
 *       6 month pending, 7 month pending amounts, 8 month pending sum, 9 reservation record
 * ARGV: 1 now, 2 reservation id, 3 actual µUSD or '', 4 spend window ms, 5 reservation ttl ms,
 *       6 month ttl ms, 7 expiry margin ms
 * Returns 1 when the reservation was finished, 0 when it was already finished or unknown.
 */
export const FINISH_SCRIPT = `${HELPERS}${SPEND_HELPERS}
local now = tonumber(ARGV[1])
local id = ARGV[2]
local reservedUntil = tonumber(redis.call('GET', KEYS[9]) or '')
if not reservedUntil or reservedUntil <= now then return 0 end
redis.call('SET', KEYS[9], ARGV[3] == '' and 'released' or 'settled', 'KEEPTTL')

dropEntries({id}, KEYS[2], KEYS[3], KEYS[1])
redis.call('ZREM', KEYS[4], id)
dropEntries({id}, KEYS[7], KEYS[8], KEYS[6])
healSum(KEYS[1], KEYS[2], KEYS[3])
healSum(KEYS[6], KEYS[7], KEYS[8])

if ARGV[3] ~= '' and tonumber(ARGV[3]) > 0 then
  local keyTtl = fmt(math.max(tonumber(ARGV[4]), tonumber(ARGV[5])) + tonumber(ARGV[7]))
  redis.call('ZADD', KEYS[1], ARGV[1], id)
  redis.call('HSET', KEYS[2], id, ARGV[3])
  redis.call('INCRBY', KEYS[3], ARGV[3])
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], keyTtl) end
  redis.call('INCRBY', KEYS[5], ARGV[3])
  redis.call('PEXPIRE', KEYS[5], ARGV[6])
end
return 1
`;

/**
 * Raise a project's month counter to a floor (control-plane's durable figure), never lower it.
 * KEYS: 1 month settled µUSD. ARGV: 1 floor µUSD, 2 month ttl ms.
 */
export const RAISE_MONTH_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[1])
if floor > current then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 1
`;
