// bcserver web console: no framework, no build step. Everything shown
// comes from the JSON API; player names are attacker-controlled text, so
// the page only ever sets textContent, never HTML.
"use strict";

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem("bcserver-token") || "";
let streaming = null;
let lastGameOver = null;
// Under /games/<label>/ the page is that game's console: every API call
// goes to that game's API.
const gameBase = (location.pathname.match(/^\/games\/[^/]+/) || [""])[0];
const apiBase = gameBase + "/api/v1/";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function showLogin(msg) {
  $("console").hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = msg || "";
  if (streaming) { streaming.abort(); streaming = null; }
}

async function api(method, path, body) {
  const opts = { method, headers: { Authorization: "Bearer " + token } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(apiBase + path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (r.status === 401) { showLogin("The token was refused."); throw new Error("unauthorized"); }
  if (!r.ok) {
    const err = new Error((data && data.error) || r.statusText);
    err.status = r.status;
    throw err;
  }
  return data;
}

function result(text, isError) {
  const r = $("result");
  r.textContent = text;
  r.className = isError ? "error" : "";
}

async function act(label, method, path, body) {
  try {
    const res = await api(method, path, body);
    result(label + ": done");
    return res;
  } catch (e) {
    result(label + ": " + e.message, true);
    return null;
  }
}

// ban sends a ban; one the server says would lock out far more than one
// player (422, "force") is sent again with force only once the host
// confirms it.
async function ban(label, body) {
  try {
    await api("POST", "ban", body);
    result(label + ": done");
  } catch (e) {
    if (e.status === 422 && /force/.test(e.message) && confirm(e.message + "\n\nBan anyway?")) {
      await act(label, "POST", "ban", Object.assign({}, body, { force: true }));
    } else {
      result(label + ": " + e.message, true);
    }
  }
  loadBans();
}

function fmtTime(s) {
  if (s === null || s === undefined) return "–";
  const m = Math.floor(s / 60), r = s % 60;
  return m + ":" + String(r).padStart(2, "0");
}

function teamName(t) { return t < 0 ? "–" : String(t); }

function renderPlayers(players) {
  const tb = $("players").tBodies[0];
  tb.replaceChildren();
  for (const p of players) {
    const tr = el("tr");
    tr.dataset.player = p.name;
    tr.dataset.id = p.id;
    const name = el("td", null, "name");
    const cut = el("span", p.name, "cut"); // a long name ends in an ellipsis
    cut.title = p.name;
    name.append(cut);
    if (p.muted) name.classList.add("muted");
    if (p.account) {
      const acc = el("span", p.role ? " ✓ " + p.role : " ✓", "account");
      acc.title = "logged in to the account " + p.account;
      name.append(acc);
    } else if (p.unscored) {
      const acc = el("span", " ?", "account unscored");
      acc.title = "a registered name, not logged in: scores nothing until !login, then renamed (guest)";
      name.append(acc);
    }
    if (p.violations) {
      const v = el("span", " \u26a0 " + p.violations, "violations");
      v.title = p.violations + " fair-play violations (each is a line of the log)";
      name.append(v);
    }
    tr.append(el("td", p.id, "num"), name, el("td", teamName(p.team)),
      el("td", p.score, "num score"), el("td", p.kills, "num"), el("td", p.deaths, "num"),
      el("td", p.ping === null ? "–" : p.ping.toFixed(0) + " ms", "num"), el("td", p.address), el("td", p.state));
    const td = el("td");
    const kick = el("button", "kick", "kick danger");
    kick.addEventListener("click", () => act("kick " + p.name, "POST", "kick", { player: String(p.id), reason: "kicked from the console" }));
    const banBtn = el("button", "ban", "ban danger");
    banBtn.addEventListener("click", () => ban("ban " + p.name, { player: String(p.id), reason: "banned from the console" }));
    const mute = el("button", p.muted ? "unmute" : "mute", "mute");
    mute.title = p.muted ? "let this player's chat through again" : "hold back this player's chat (the player is not told)";
    mute.addEventListener("click", () => act((p.muted ? "unmute " : "mute ") + p.name, "POST", "mute", { player: String(p.id), mute: !p.muted }));
    td.className = "actions";
    td.append(kick, banBtn, mute);
    tr.append(td);
    tb.append(tr);
  }
  $("player-count").textContent = players.filter((p) => p.state === "in-game").length + " / " + players.length;
}

function renderTeams(teams) {
  const t = $("teams");
  t.hidden = !teams || teams.length === 0;
  t.tBodies[0].replaceChildren(...(teams || []).map((x) => {
    const tr = el("tr");
    tr.append(el("td", x.team), el("td", x.kills, "num"), el("td", x.score, "num"));
    return tr;
  }));
}

const teamColors = ["#5090f0", "#e05050"];

function renderMap(ships) {
  const c = $("tactical"), g = c.getContext("2d");
  const w = c.width, h = c.height;
  g.clearRect(0, 0, w, h);
  const placed = ships.filter((s) => s.position);
  c.dataset.ships = String(placed.length);
  let span = 100;
  for (const s of placed) span = Math.max(span, Math.abs(s.position[0]) * 1.15, Math.abs(s.position[1]) * 1.15);
  const scale = (w / 2 - 20) / span;
  g.strokeStyle = "#1c2633";
  g.lineWidth = 1;
  for (let i = 1; i < 4; i++) {
    g.beginPath(); g.arc(w / 2, h / 2, (w / 2 - 20) * i / 3, 0, 2 * Math.PI); g.stroke();
  }
  g.fillStyle = "#566478";
  g.font = "11px system-ui";
  g.fillText("range " + Math.round(span) + " (game units)", 8, h - 8);
  for (const s of placed) {
    const x = w / 2 + s.position[0] * scale, y = h / 2 - s.position[1] * scale;
    g.fillStyle = !s.alive ? "#555" : (s.team >= 0 ? teamColors[s.team % 2] : "#f0a030");
    g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill();
    if (s.hull !== null) {
      g.fillStyle = "#333"; g.fillRect(x - 12, y + 8, 24, 3);
      g.fillStyle = s.hull > 0.5 ? "#4c4" : s.hull > 0.25 ? "#cc4" : "#c44";
      g.fillRect(x - 12, y + 8, 24 * Math.max(0, Math.min(1, s.hull)), 3);
    }
    g.fillStyle = "#d8e0ea";
    const label = (s.owner || s.name || "ship " + s.id) + (s.class ? " (" + s.class + ")" : "");
    const lw = g.measureText(label).width;
    g.fillText(label, x + 8 + lw > w - 4 ? x - 8 - lw : x + 8, y - 6);
  }
}

function renderStatus(st) {
  $("server-name").textContent = st.server.name;
  document.title = st.server.name + " – bcserver console";
  const m = st.mission;
  $("mode").textContent = m.mode + (m.pending_mode ? " → " + m.pending_mode : "");
  const me = $("mission-error");
  me.hidden = !m.error && !m.suspended;
  me.textContent = m.error ? "No mission: " + m.error + " (the game takes no players until the file is fixed)"
    : m.suspended ? "Game mode suspended: " + m.suspended + " (the players play on without scoring; fix it and save, or reload)" : "";
  $("map").textContent = m.map;
  $("time-left").textContent = fmtTime(m.time_left);
  const gs = $("game-state");
  gs.textContent = m.suspended ? "suspended" : m.game_over ? "game over" : "in progress";
  gs.className = "badge " + (m.game_over ? "over" : "live");
  renderPlayers(st.players);
  renderTeams(m.teams);
  renderMap(st.ships || []);
  if (lastGameOver !== null && lastGameOver !== m.game_over) loadMatches();
  lastGameOver = m.game_over;
  const sel = $("mode-select");
  if (sel.dataset.current !== m.mode) { sel.dataset.current = m.mode; loadModes(); }
}

function addLog(l) {
  const ol = $("log");
  const li = el("li", null, l.level + (l.component === "chat" ? " chat" : ""));
  const t = new Date(l.time);
  li.append(el("span", t.toLocaleTimeString() + " ", "time"), el("span", (l.component || "") + " ", "comp"),
    el("span", l.message + (l.attrs ? " " + l.attrs : "")));
  ol.append(li);
  while (ol.children.length > 300) ol.firstChild.remove();
  ol.scrollTop = ol.scrollHeight;
}

function handleEvent(chunk) {
  let ev = "message", data = "";
  for (const line of chunk.split("\n")) {
    if (line.startsWith("event: ")) ev = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (!data) return;
  const v = JSON.parse(data);
  if (ev === "status") renderStatus(v);
  else if (ev === "log") addLog(v);
}

// The event stream is read with fetch, which can send the token (an
// EventSource cannot set headers).
async function stream() {
  const ctl = new AbortController();
  streaming = ctl;
  try {
    const r = await fetch(apiBase + "events", { headers: { Authorization: "Bearer " + token }, signal: ctl.signal });
    if (r.status === 401) { showLogin("The token was refused."); return; }
    if (!r.ok) throw new Error(r.statusText);
    $("login").hidden = true;
    $("console").hidden = false;
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        handleEvent(buf.slice(0, i));
        buf = buf.slice(i + 2);
      }
    }
  } catch (e) {
    if (ctl.signal.aborted) return;
  }
  if (streaming === ctl) {
    $("game-state").textContent = "reconnecting…";
    setTimeout(stream, 2000);
  }
}

async function loadBans() {
  let bans;
  try { bans = await api("GET", "bans"); } catch (e) { $("bans").replaceChildren(el("li", e.message)); return; }
  $("bans").replaceChildren(...bans.map((b) => {
    const li = el("li", b.name ? "name: " + b.name : b.address);
    if (!b.fixed) {
      const u = el("button", "unban");
      u.addEventListener("click", async () => { await act("unban", "POST", "unban", b.name ? { name: b.name } : { address: b.address }); loadBans(); });
      li.append(" ", u);
    } else {
      li.append(el("span", " (configuration)", "hint"));
    }
    return li;
  }));
  if (bans.length === 0) $("bans").replaceChildren(el("li", "none", "hint"));
}

// matchPlayers lists a match's players compactly: the top scores, then
// "+N more"; the full list is the cell's tooltip.
const topPlayers = 3;
function matchPlayers(players) {
  const sorted = players.slice().sort((a, b) => b.score - a.score);
  const td = el("td", null, "players");
  td.title = sorted.map((p) => p.name + " (" + p.score + ")").join(", ");
  for (const p of sorted.slice(0, topPlayers)) td.append(el("span", p.name + " (" + p.score + ")", "player"));
  if (sorted.length > topPlayers) td.append(el("span", "+" + (sorted.length - topPlayers) + " more", "more"));
  return td;
}

// matchEnd is how a match ended: the stock reason, and who won when the
// mission said (bc.end_game's outcome; teams 0/1 are a client's Team 1/2).
function matchEnd(m) {
  const won = [];
  if (m.winner_team !== undefined && m.winner_team !== null) won.push("team " + m.winner_team + " won");
  if (m.winner_name) won.push(m.winner_name + " won");
  if (m.why) won.push(m.why);
  return won.length ? m.reason + " · " + won.join(", ") : m.reason;
}

async function loadMatches() {
  const tb = $("matches").tBodies[0];
  let ms;
  try { ms = await api("GET", "matches?limit=15"); } catch (e) {
    tb.replaceChildren();
    if (e.status === 501) {
      const tr = el("tr"), td = el("td", "History is off: set [store] path in the configuration to keep match history.", "hint");
      td.colSpan = 6;
      tr.append(td);
      tb.append(tr);
    }
    return;
  }
  // A recording starts when its match does (replay viewer, replay.html).
  let recs = [];
  try { recs = await api("GET", "replays"); } catch (e) { recs = []; }
  const byStart = new Map(recs.map((r) => [Date.parse(r.started), r.id]));
  tb.replaceChildren(...ms.map((m) => {
    const tr = el("tr");
    tr.append(el("td", m.id, "num"), el("td", m.mode), el("td", m.map), el("td", new Date(m.ended).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" })),
      el("td", matchEnd(m)), matchPlayers(m.players || []));
    const td = el("td");
    const rec = byStart.get(Date.parse(m.started));
    if (rec) {
      const a = el("a", "watch", "watch");
      a.href = "replay.html?id=" + encodeURIComponent(rec);
      td.append(a);
    }
    tr.append(td);
    return tr;
  }));
  if (ms.length === 0) {
    const tr = el("tr"), td = el("td", "No match has ended yet.", "hint");
    td.colSpan = 6;
    tr.append(td);
    tb.append(tr);
  }
}

// loadGames fills the game picker when the process runs several games.
async function loadGames() {
  let games;
  try {
    const r = await fetch("/games", { headers: { Authorization: "Bearer " + token } });
    if (!r.ok) return;
    games = await r.json();
  } catch (e) { return; }
  if (!Array.isArray(games) || games.length < 2) return;
  const sel = $("game-picker");
  const current = gameBase ? gameBase.slice("/games/".length) : games[0].game;
  sel.replaceChildren(...games.map((g) => {
    const o = el("option", g.game + " – " + g.name + " (" + g.players + "/" + g.max_players + ")" + (g.error ? " – no mission" : ""));
    o.value = g.game;
    o.selected = g.game === current;
    return o;
  }));
  sel.hidden = false;
}

async function loadModes() {
  try {
    const r = await api("GET", "modes");
    const sel = $("mode-select");
    sel.replaceChildren(...r.modes.map((m) => { const o = el("option", m); o.value = m; o.selected = m === r.current; return o; }));
  } catch (e) { /* no mission runtime */ }
}

function wire() {
  $("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = $("token").value.trim();
    localStorage.setItem("bcserver-token", token);
    start();
  });
  $("say-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await act("say", "POST", "say", { text: $("say-text").value })) $("say-text").value = "";
  });
  $("mode-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act("switch mode", "POST", "mission/set", { mode: $("mode-select").value, now: $("mode-now").checked });
  });
  $("reload").addEventListener("click", () => act("reload", "POST", "mission/reload"));
  $("restart").addEventListener("click", () => act("restart", "POST", "game/restart"));
  $("end").addEventListener("click", () => act("end game", "POST", "game/end"));
  $("ban-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const t = $("ban-target").value.trim();
    const body = t.startsWith("name:") ? { name: t.slice(5).trim() } : { address: t };
    await ban("ban", body);
  });
  $("game-picker").addEventListener("change", (e) => {
    location.href = "/games/" + encodeURIComponent(e.target.value) + "/";
  });
}

function start() {
  if (!token) { showLogin(); return; }
  stream();
  loadBans();
  loadMatches();
  loadModes();
  loadGames();
}

wire();
start();
