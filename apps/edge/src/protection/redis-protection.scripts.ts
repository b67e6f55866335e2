/**
 * Lua scripts of the Redis protection store. Each public operation is ONE script, so it is atomic
 * across every edge replica sharing the Redis. Conventions:
 * - `now` (ms epoch) comes from the caller's injected clock (ARGV[1]); scripts never read TIME, so
 *   tests drive time and both adapters share one notion of it. Trip markers and reservation records
 *   hold their logical expiry (injected clock) in their value; PEXPIRE (Redis clock) only collects
 *   garbage, with a margin so skew between the two clocks never drops live data.
 * - A trip marker's value is its `until` ms, as it always was (so replicas of an earlier version
 *   still read it during a rolling upgrade); the reset generation the trip was decided under (the
 *   key's resetAtMs as the tripping call knew it) sits beside it in its own key, with the same
 *   expiry. A marker without one (written by an earlier version) is never stale (fail closed).
 * - Money is integer micro-dollars; `fmt` prints integers with %d because redis.call would
 *   otherwise format Lua numbers with %.14g.
 * - Every key is declared in KEYS (no key built inside a script).
 * Results are arrays of integers; the TypeScript adapter maps them to the port's result types.
 */

const HELPERS = `
local function fmt(n) return string.format('%d', n) end
local function readInt(key)
  return tonumber(redis.call('GET', key) or '0') or 0
end
local function markerHolds(key, now)
  return readInt(key) > now
end
`;

/**
 * The state of one API key that resetKey clears: everything but the rate log (the request limit is
 * not a paused state, and a reset must not allow a second burst). The one definition of that set:
 * the adapter builds resetKey's DEL from it, and the admit and reserve scripts receive these keys,
 * in this order, as KEYS[1..RESET_KEY_STATE.length].
 */
export const RESET_KEY_STATE = ['loop', 'loopTrip', 'loopTripGeneration', 'circuitTrip', 'circuitTripGeneration', 'spendLog', 'spendAmounts', 'spendSum', 'spendPending'] as const;

/**
 * For the scripts that receive the reset set and then the key's applied generation
 * (KEYS[RESET_KEY_COUNT + 1]): `K.<name>` is a reset-set key's position in KEYS.
 *
 * The caller's generation is the key's last admin reset as control-plane answered it (resetAtMs,
 * 0 = never). applyGeneration catches up on a reset whose key.changed broadcast (and so resetKey)
 * this store never saw: the first call of a newer generation than the key's applied one finds any
 * live trip decided under an older generation stale and does what resetKey does (a trip without a
 * recorded generation, written by an earlier version or with its generation key evicted, is never
 * stale: fail closed), then records its generation as applied. It does so once per generation, so
 * nothing a later call of an older generation does can wipe the windows again: such a call (it
 * still holds the key's settings from before the reset) is refused when it would trip the key,
 * but writes no trip (setTrip) and reports no first trip.
 */
const KEY_STATE_HELPERS = `
local K = {${RESET_KEY_STATE.map((name, index) => `${name} = ${index + 1}`).join(', ')}}
local RESET_KEY_COUNT = ${RESET_KEY_STATE.length}
local GENERATION = KEYS[RESET_KEY_COUNT + 1]
local TRIPS = {{K.loopTrip, K.loopTripGeneration}, {K.circuitTrip, K.circuitTripGeneration}}
local function applyGeneration(now, generation, ttl)
  local applied = readInt(GENERATION)
  if generation <= applied then return applied end
  local stale, keep = false, {}
  for _, trip in ipairs(TRIPS) do
    if readInt(KEYS[trip[1]]) > now then
      if (tonumber(redis.call('GET', KEYS[trip[2]]) or '') or math.huge) < generation then
        stale = true
      else
        keep[trip[1]], keep[trip[2]] = true, true
      end
    end
  end
  if stale then
    local reset = {}
    for index = 1, RESET_KEY_COUNT do
      if not keep[index] then reset[#reset + 1] = KEYS[index] end
    end
    redis.call('DEL', unpack(reset))
  end
  redis.call('SET', GENERATION, fmt(generation), 'PX', ttl)
  return generation
end
-- Writes the trip unless the caller's generation is older than the applied one; true if written.
local function setTrip(trip, now, tripTtl, margin, generation, applied)
  if generation < applied then return false end
  local px = fmt(tripTtl + margin)
  redis.call('SET', KEYS[trip[1]], fmt(now + tripTtl), 'PX', px)
  redis.call('SET', KEYS[trip[2]], fmt(generation), 'PX', px)
  return true
end
`;

/**
 * admitRequest. Complexity O(log N + M), N = requests in the window (≤ rate limit), M = entries
 * expiring now (amortised O(1)).
 * KEYS: 1..n the reset set (RESET_KEY_STATE, n = RESET_KEY_COUNT; here the loop log is a zset
 *       id→ms, the loop trip marker a string: until ms, its generation an integer), n+1 the key's
 *       applied generation (integer), n+2 rate log (zset id→ms)
 * ARGV: 1 now, 2 unique request id, 3 rate limit, 4 rate window ms, 5 loop max, 6 loop window ms,
 *       7 loop guard exempt '1'|'0', 8 trip marker ttl ms, 9 expiry margin ms, 10 key reset at ms
 * Returns {code, firstTrip, remaining, resetMs}; code 0 admitted, 1 rate limited, 2 loop detected.
 */
export const ADMIT_SCRIPT = `${HELPERS}${KEY_STATE_HELPERS}
local now = tonumber(ARGV[1])
local member = ARGV[2]
local rateLimit = tonumber(ARGV[3])
local rateWindow = tonumber(ARGV[4])
local loopMax = tonumber(ARGV[5])
local loopWindow = tonumber(ARGV[6])
local exempt = ARGV[7] == '1'
local tripTtl = tonumber(ARGV[8])
local margin = tonumber(ARGV[9])
local loopLog = KEYS[K.loop]
local loopTrip = KEYS[K.loopTrip]
local rateLog = KEYS[RESET_KEY_COUNT + 2]

local generation = tonumber(ARGV[10])
local applied = applyGeneration(now, generation, fmt(tripTtl + margin))

if not exempt then
  -- A tripped key stays refused until resetKey or a newer generation; only the first caller sees firstTrip = 1.
  if markerHolds(loopTrip, now) then return {2, 0, 0, 0} end
  redis.call('ZREMRANGEBYSCORE', loopLog, '-inf', fmt(now - loopWindow))
  if redis.call('ZCARD', loopLog) >= loopMax then
    if setTrip(TRIPS[1], now, tripTtl, margin, generation, applied) then return {2, 1, 0, 0} end
    return {2, 0, 0, 0}
  end
  -- Counted before the rate check: a client hammering through 429s is exactly a loop.
  redis.call('ZADD', loopLog, ARGV[1], member)
  redis.call('PEXPIRE', loopLog, fmt(loopWindow + margin))
end

-- True rolling window: an entry counts while now - at < window, i.e. it leaves at at + window.
redis.call('ZREMRANGEBYSCORE', rateLog, '-inf', fmt(now - rateWindow))
local count = redis.call('ZCARD', rateLog)
if count >= rateLimit then
  -- Refused requests are not logged, so they consume no quota.
  local oldest = redis.call('ZRANGE', rateLog, 0, 0, 'WITHSCORES')
  return {1, 0, 0, tonumber(oldest[2]) + rateWindow}
end
redis.call('ZADD', rateLog, ARGV[1], member)
redis.call('PEXPIRE', rateLog, fmt(rateWindow + margin))
local oldest = redis.call('ZRANGE', rateLog, 0, 0, 'WITHSCORES')
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
`;

/**
 * reserveSpend. Complexity O(log N + M), N = spend entries of the key in the hour (bounded by the
 * rate limit), M = entries expiring now (amortised O(1)).
 * KEYS: 1..n the reset set (RESET_KEY_STATE, n = RESET_KEY_COUNT; here the key spend log is a
 *       zset id→ms, spend amounts a hash id→µUSD, spend sum a running µUSD sum, spend pending a
 *       zset id→deadline ms, the circuit trip marker a string: until ms, its generation an
 *       integer), n+1 the key's applied generation (integer), n+2 month settled µUSD, n+3 month
 *       pending (zset id→deadline), n+4 month pending amounts (hash), n+5 month pending sum, n+6
 *       reservation record (string: until ms while reserved)
 * ARGV: 1 now, 2 reservation id, 3 estimate µUSD, 4 hourly limit µUSD or '', 5 budget µUSD or '',
 *       6 spend window ms, 7 reservation ttl ms, 8 trip marker ttl ms, 9 month ttl ms,
 *       10 record ttl ms, 11 expiry margin ms, 12 key reset at ms
 * Returns {code, firstTrip}; code 0 reserved, 1 circuit open, 2 budget exceeded.
 */
export const RESERVE_SCRIPT = `${HELPERS}${SPEND_HELPERS}${KEY_STATE_HELPERS}
local now = tonumber(ARGV[1])
local id = ARGV[2]
local estimate = tonumber(ARGV[3])
local spendWindow = tonumber(ARGV[6])
local reservationTtl = tonumber(ARGV[7])
local tripTtl = tonumber(ARGV[8])
local margin = tonumber(ARGV[11])
local spendLog, spendAmounts, spendSum, spendPending = KEYS[K.spendLog], KEYS[K.spendAmounts], KEYS[K.spendSum], KEYS[K.spendPending]
local circuitTrip = KEYS[K.circuitTrip]
local n = RESET_KEY_COUNT + 1
local monthSettled, monthPending, monthAmounts, monthSum, record = KEYS[n + 1], KEYS[n + 2], KEYS[n + 3], KEYS[n + 4], KEYS[n + 5]

local generation = tonumber(ARGV[12])
local applied = applyGeneration(now, generation, fmt(tripTtl + margin))
trimWindow(spendLog, spendAmounts, spendSum, fmt(now - spendWindow))
expirePending(spendPending, spendAmounts, spendSum, spendLog, ARGV[1])
healSum(spendLog, spendAmounts, spendSum)
expirePending(monthPending, monthAmounts, monthSum, false, ARGV[1])
healSum(monthPending, monthAmounts, monthSum)

-- A tripped key stays refused until resetKey or a newer generation, whatever its current limit.
if markerHolds(circuitTrip, now) then return {1, 0} end

if ARGV[5] ~= '' then
  local budget = tonumber(ARGV[5])
  local settled = readInt(monthSettled)
  if settled >= budget or settled + readInt(monthSum) + estimate > budget then return {2, 0} end
end

-- "Crossing" the cap means exceeding it: spend that lands exactly on the limit is allowed.
if ARGV[4] ~= '' and readInt(spendSum) + estimate > tonumber(ARGV[4]) then
  if setTrip(TRIPS[2], now, tripTtl, margin, generation, applied) then return {1, 1} end
  return {1, 0}
end

local deadline = fmt(now + reservationTtl)
local keyTtl = fmt(math.max(spendWindow, reservationTtl) + margin)
redis.call('ZADD', spendLog, ARGV[1], id)
redis.call('HSET', spendAmounts, id, ARGV[3])
redis.call('INCRBY', spendSum, ARGV[3])
redis.call('ZADD', spendPending, deadline, id)
for _, key in ipairs({spendLog, spendAmounts, spendSum, spendPending}) do redis.call('PEXPIRE', key, keyTtl) end
redis.call('ZADD', monthPending, deadline, id)
redis.call('HSET', monthAmounts, id, ARGV[3])
redis.call('INCRBY', monthSum, ARGV[3])
for _, key in ipairs({monthPending, monthAmounts, monthSum}) do redis.call('PEXPIRE', key, ARGV[9]) end
redis.call('SET', record, fmt(now + tonumber(ARGV[10])), 'PX', fmt(tonumber(ARGV[10]) + margin))
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
