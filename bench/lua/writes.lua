-- Scenario 4: the write mix. Employees create one-day requests (POST /v1/me/holidays) in a year no seeded request
-- touches; each new request then goes through one chain of moves, chosen by its id:
--   id % 4 == 0: approve, revert, reject        id % 4 == 1: approve, cancel (by the owner)
--   id % 4 == 2: reject                         id % 4 == 3: cancel (by the owner)
-- Decisions are made with an admin's token. A move is sent only after the response to the previous one, so every
-- chain is sequential; chains of different requests run concurrently. Every chain ends in a final state, so days
-- are given back and an employee can book the same day again a year's worth of requests later.
-- Each wrk thread owns the employees with id % BENCH_THREADS == thread_index - 1, so two threads never book for
-- the same employee; within a thread, employees take turns, far apart.
-- A bench runs this script several times (BENCH_WRITE_RUNS, at most); run BENCH_WRITE_RUN (0-based) books only days
-- of its own share of the free year, so the chains a run leaves unfinished when it stops never meet a later run's.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

bench.counters = { "creates", "approves", "rejects", "reverts", "cancels", "failures", "unreadable" }
creates, approves, rejects, reverts, cancels, failures, unreadable = 0, 0, 0, 0, 0, 0, 0

local chains = {
    [0] = { "approve", "revert", "reject" },
    [1] = { "approve", "cancel" },
    [2] = { "reject" },
    [3] = { "cancel" },
}

local all, admins
local mine, days = {}, {}
local queue, head, tail = {}, 1, 0
local step = {}       -- request id -> index of the move sent last (0: the creation)
local turn = 0
local slot = {}       -- employee id -> how many days it booked in this run, plus a start of its own
local first, window   -- this run's days: days[first + 1 ... first + window]

function init(args)
    local employees
    all, admins, employees = bench.tokens()
    local threads = tonumber(os.getenv("BENCH_THREADS") or "1")
    for _, entry in ipairs(employees) do
        if entry.id % threads == thread_index - 1 then mine[#mine + 1] = entry end
    end
    for line in io.lines(os.getenv("BENCH_DAYS") or error("BENCH_DAYS is not set")) do
        if line:match("^%d%d%d%d%-%d%d%-%d%d$") then days[#days + 1] = line end
    end
    assert(#mine > 0 and #days > 0 and #admins > 0, "no employees, days or admins for the write mix")
    local runs = tonumber(os.getenv("BENCH_WRITE_RUNS") or "1")
    local run = tonumber(os.getenv("BENCH_WRITE_RUN") or "0")
    window = math.floor(#days / runs)
    assert(window > 0 and run < runs, "more write runs than working days in the free year")
    first = run * window
end

local function enqueue(text)
    tail = tail + 1
    queue[tail] = text
end

local function move(id, owner, action)
    local actor = action == "cancel" and all[owner] or admins[id % #admins + 1]
    local headers = bench.auth(actor)
    headers["Content-Type"] = "application/json"
    local body = action == "reject" and '{"reason":"Release week"}' or ""
    enqueue(wrk.format("POST", "/v1/holidays/" .. id .. "/" .. action, headers, body))
end

function request()
    if head <= tail then
        local text = queue[head]
        queue[head] = nil
        head = head + 1
        return text
    end
    turn = turn % #mine + 1
    local employee = mine[turn]
    local booked = (slot[employee.id] or employee.id) + 1
    slot[employee.id] = booked
    local index = first + booked % window + 1
    local headers = bench.auth(employee)
    headers["Content-Type"] = "application/json"
    local day = days[index]
    return wrk.format("POST", "/v1/me/holidays", headers,
        '{"startDate":"' .. day .. '","endDate":"' .. day .. '","comment":"bench"}')
end

local counted = { approve = "approves", reject = "rejects", revert = "reverts", cancel = "cancels" }

function response(status, headers, body)
    if status >= 400 then
        failures = failures + 1
        if failures <= 5 then io.stderr:write("write mix: HTTP ", status, " ", body, "\n") end
        return
    end
    -- The request's own id (the nested employee object opens with its id, after a brace).
    local id = tonumber(body:match(',"id":(%d+)'))
    local owner = tonumber(body:match('"employeeId":(%d+)'))
    if not id or not owner then
        unreadable = unreadable + 1
        return
    end
    local chain = chains[id % 4]
    local sent = step[id]
    if status == 201 then
        creates = creates + 1
        sent = 0
    elseif sent then
        local name = counted[chain[sent]]
        _G[name] = _G[name] + 1
    else
        unreadable = unreadable + 1
        return
    end
    local nextMove = chain[sent + 1]
    if nextMove then
        step[id] = sent + 1
        move(id, owner, nextMove)
    else
        step[id] = nil
    end
end
