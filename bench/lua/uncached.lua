-- Scenario "uncached": scenario 2's request, GET /v1/me/holidays, while an admin raises the company's default
-- allowance every few tens of milliseconds (a second wrk, company_changes.lua). Every employee's balance, and so
-- their year view, changes with it. Each wrk thread walks its employees in turn, so an employee is read again only
-- after all the others of the thread: far longer than between two changes (report.py compares the two), so no read
-- can be answered by a body rendered before the last change.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

local requests = {}
local turn = 0

function init(args)
    local _, _, employees = bench.tokens()
    local threads = tonumber(os.getenv("BENCH_THREADS") or "1")
    for _, entry in ipairs(employees) do
        if entry.id % threads == thread_index - 1 then
            requests[#requests + 1] = wrk.format("GET", "/v1/me/holidays", bench.auth(entry))
        end
    end
    assert(#requests > 0, "no employees for this thread")
    -- Threads start at different places of their lists.
    turn = (thread_index * 7919) % #requests
end

function request()
    turn = turn % #requests + 1
    return requests[turn]
end
