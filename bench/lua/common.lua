-- Shared by the wrk scripts of `make bench`: tokens, thread numbering, and one JSON line of results.
-- Each wrk thread runs its own copy of a script; setup() and done() run in a separate, shared environment.

bench = {}

-- Lines "employee_id<TAB>username<TAB>admin(0/1)<TAB>token" written by `sgbench seed`.
function bench.tokens()
    local path = os.getenv("BENCH_TOKENS") or error("BENCH_TOKENS is not set")
    local all, admins, employees = {}, {}, {}
    for line in io.lines(path) do
        local id, username, admin, token = line:match("^(%d+)\t([^\t]+)\t([01])\t(%S+)$")
        if id then
            local entry = { id = tonumber(id), username = username, admin = admin == "1", token = token }
            all[entry.id] = entry
            if entry.admin then admins[#admins + 1] = entry else employees[#employees + 1] = entry end
        end
    end
    return all, admins, employees
end

function bench.auth(entry)
    return { ["Authorization"] = "Bearer " .. entry.token }
end

-- A read load: every request is GET `path` with the token of a random caller, drawn from the list that
-- `pick(all, admins, employees)` chooses out of bench.tokens().
function bench.random_get(path, pick)
    local requests = {}
    function init(args)
        for index, entry in ipairs(pick(bench.tokens())) do
            requests[index] = wrk.format("GET", path, bench.auth(entry))
        end
        math.randomseed(thread_index * 7919)
    end
    function request()
        return requests[math.random(#requests)]
    end
end

local threads = {}

function setup(thread)
    threads[#threads + 1] = thread
    thread:set("thread_index", #threads)  -- 1-based
end

-- Counters a script keeps in its thread's globals, summed over threads in done().
bench.counters = {}

function done(summary, latency, requests)
    local errors = summary.errors
    local extra = {}
    for _, name in ipairs(bench.counters) do
        local total = 0
        for _, thread in ipairs(threads) do total = total + (thread:get(name) or 0) end
        extra[#extra + 1] = string.format('"%s":%d', name, total)
    end
    local seconds = summary.duration / 1e6
    io.write(string.format(
        'BENCH_RESULT {"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,' ..
        '"mean_ms":%.3f,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}%s}\n',
        summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
        latency.mean / 1000, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
        #extra > 0 and ("," .. table.concat(extra, ",")) or ""))
end

-- Optional pacing: BENCH_DELAY_MS makes each connection wait that long between requests on average, so the offered
-- load is bounded instead of saturating (latency then measures service time, not queueing). Each pause is drawn
-- between half and one and a half times it: with the same pause every time, the connections, all started at once,
-- stayed in step, and every 100 ms all 64 requests arrived together; the p99 was then the time to serve the last of
-- them (paced writes 9 to 12 ms, the paced baseline 2.8 ms), not the time to serve one (2.0 to 2.6 and 0.8 ms with
-- drawn pauses, 26 November 2026).
local pause = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if pause and pause > 0 then
    local seeded = false
    function delay()
        -- Seeded at the first pause, when the thread knows its index: two threads draw different pauses.
        if not seeded then
            math.randomseed(os.time() * 100 + thread_index)
            seeded = true
        end
        return math.floor(pause * (0.5 + math.random()))
    end
end
