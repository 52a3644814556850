-- Scenario 3: admins reading the first page of pending requests, GET /v1/holidays?status=pending.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

local requests = {}

function init(args)
    local _, admins = bench.tokens()
    for index, entry in ipairs(admins) do
        requests[index] = wrk.format("GET", "/v1/holidays?status=pending", bench.auth(entry))
    end
    math.randomseed(thread_index * 7919)
end

function request()
    return requests[math.random(#requests)]
end
