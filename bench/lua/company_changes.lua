-- Beside scenario "uncached": an admin raises the company's default allowance by one day at each request
-- (PUT /v1/company), starting above BENCH_ALLOWANCE_FROM. BENCH_COMPANY_BODY is the company's PUT body as read before
-- the run, with ALLOWANCE where the default allowance goes; run.sh puts the old allowance back afterwards. Run on one
-- connection with a pause (BENCH_DELAY_MS). Raising never needs the check of every employee's balance that lowering
-- does, so each change is a small write.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

bench.counters = { "changes", "failures" }
changes, failures = 0, 0

local template = os.getenv("BENCH_COMPANY_BODY") or error("BENCH_COMPANY_BODY is not set")
local allowance = tonumber(os.getenv("BENCH_ALLOWANCE_FROM") or error("BENCH_ALLOWANCE_FROM is not set"))
local ceiling = 366
local headers

function init(args)
    local _, admins = bench.tokens()
    headers = bench.auth(admins[1])
    headers["Content-Type"] = "application/json"
end

function request()
    allowance = math.min(allowance + 1, ceiling)
    return wrk.format("PUT", "/v1/company", headers, (template:gsub("ALLOWANCE", tostring(allowance))))
end

function response(status, headers, body)
    if status >= 400 then
        failures = failures + 1
        if failures <= 5 then io.stderr:write("company changes: HTTP ", status, " ", body, "\n") end
    else
        changes = changes + 1
    end
end
