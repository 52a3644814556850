-- Scenario 2: employees reading their own year, GET /v1/me/holidays, each request with a random employee's token.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

bench.random_get("/v1/me/holidays", function(_, _, employees) return employees end)
