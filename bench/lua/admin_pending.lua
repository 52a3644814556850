-- Scenario 3: admins reading the first page of pending requests, GET /v1/holidays?status=pending.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

bench.random_get("/v1/holidays?status=pending", function(_, admins) return admins end)
