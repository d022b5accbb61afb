-- wrk script: GET /d/{id} for ids picked at random from the file named by IDS.
local ids = {}
for line in io.lines(os.getenv("IDS") or "ids.txt") do ids[#ids + 1] = line end
math.randomseed(42)
request = function()
  return wrk.format("GET", "/d/" .. ids[math.random(#ids)])
end
