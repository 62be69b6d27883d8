-- motd: an addon that greets every player who enters the game with the
-- [mission] motd text and answers !motd. Load it next to any mode with
--   [game] addons = ["motd"]
-- It shows the addon pattern: its own handlers (registered under the id
-- "motd", so a reload replaces them), a chat command, and a custom event
-- other scripts of the mode can listen to.

local text = bc.config.motd

local function greet(id)
  if text and text ~= "" then
    bc.send(id, bc.msg.chat { sender = bc.host_id, text = text })
  end
end

bc.on("player_in_game", "motd", function(ev)
  greet(ev.player.id)
  bc.emit("motd:greeted", { player = ev.player.id, uid = ev.player.uid })
end)

bc.command("motd", function(ev)
  return text or "no message of the day"
end, "the message of the day")
