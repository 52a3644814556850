-- Scenario 7: who is off for one month, GET /v1/absences?from=&to=&after=, as a random employee reading a random page
-- of 50 employees (one request in 20 reads the first page). BENCH_ABSENCE_FROM and BENCH_ABSENCE_TO give the month.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

local from = os.getenv("BENCH_ABSENCE_FROM") or error("BENCH_ABSENCE_FROM is not set")
local to = os.getenv("BENCH_ABSENCE_TO") or error("BENCH_ABSENCE_TO is not set")
local requests = {}

function init(args)
    local all, _, employees = bench.tokens()
    local ids = {}
    for id, _ in pairs(all) do ids[#ids + 1] = id end
    table.sort(ids)
    math.randomseed(thread_index * 7919)
    for index, entry in ipairs(employees) do
        local path = "/v1/absences?from=" .. from .. "&to=" .. to
        if index % 20 ~= 0 then path = path .. "&after=" .. ids[math.random(#ids)] end
        requests[index] = wrk.format("GET", path, bench.auth(entry))
    end
end

function request()
    return requests[math.random(#requests)]
end
