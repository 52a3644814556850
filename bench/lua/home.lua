-- Scenario 8: the main screen, GET /v1/home, each request with a random employee's token: profile, balance, next
-- holiday, who is away this week, the board and the company feed in one call.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")

bench.random_get("/v1/home", function(_, _, employees) return employees end)
