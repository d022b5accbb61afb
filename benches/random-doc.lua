-- wrk script: GET /d/{id} for ids picked at random from the file named by IDS,
-- signed in with the session cookie in COOKIE.
local ids = {}
for line in io.lines(os.getenv("IDS") or "ids.txt") do ids[#ids + 1] = line end
math.randomseed(42)
local cookie = os.getenv("COOKIE") or ""
request = function()
  return wrk.format("GET", "/d/" .. ids[math.random(#ids)], { ["Cookie"] = cookie })
end
