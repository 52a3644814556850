-- Scenario 2: employees reading their own year, GET /v1/me/holidays, each request with a random employee's token.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

local requests = {}

function init(args)
    local _, _, employees = bench.tokens()
    for index, entry in ipairs(employees) do
        requests[index] = wrk.format("GET", "/v1/me/holidays", bench.auth(entry))
    end
    math.randomseed(thread_index * 7919)
end

function request()
    return requests[math.random(#requests)]
end
