-- Scenario 1: the cheapest route (no authentication, no database): the ceiling of this machine and framework.
dofile((os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/common.lua")
