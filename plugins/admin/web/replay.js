// bcserver replay viewer: plays a recorded match from the admin API
// (/api/v1/replays). No framework, no build step. Player names and chat are
// attacker-controlled text: the page only sets textContent and draws with
// fillText, never HTML.
"use strict";

const replayID = new URLSearchParams(location.search).get("id");
const view = new TacticalView($("top"), $("side"));
const WINDOW = 10000, STEP = 100;

let sum = null;      // the summary: players, kills, chat, ships
let win = null;      // the window being played
let next = null;     // the one after it, fetched ahead
let fetching = null; // the start of a window being fetched
let t = 0, playing = false, speed = 1, lastTs = null, follow = "";
let shown = -1;      // the time of the frame whose tables are on the page

function api(path) { return request("GET", "api/v1/" + path); }

function fmt(ms) {
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") + "." + Math.floor((ms % 1000) / 100);
}

async function fetchWindow(from) {
  fetching = from;
  try {
    return await api("replays/" + encodeURIComponent(replayID) + "/frames?from=" + from + "&to=" + (from + WINDOW) + "&step=" + STEP);
  } finally {
    if (fetching === from) fetching = null;
  }
}

// ensure has the window holding t (or fetches it), and the next one ahead
// while playing.
async function ensure() {
  const want = Math.floor(t);
  if (win && want >= win.from && want <= win.to) {
    if (playing && !next && fetching === null && win.to < sum.duration_ms && want > win.to - 4000) {
      const from = win.to;
      const w = await fetchWindow(from);
      if (win && win.to === from) next = w;
    }
    return;
  }
  if (next && want >= next.from && want <= next.to) { win = next; next = null; return; }
  if (fetching !== null) return;
  const w = await fetchWindow(want);
  if (Math.abs(Math.floor(t) - want) <= WINDOW) { win = w; next = null; }
}

// frameAt is the frame at t, ships moved between the two frames around it.
function frameAt(time) {
  if (!win || win.frames.length === 0) return null;
  let i = Math.floor((time - win.from) / win.step);
  i = Math.max(0, Math.min(win.frames.length - 1, i));
  const f0 = win.frames[i], f1 = win.frames[i + 1];
  if (!f1 || time <= f0.t) return f0;
  const k = (time - f0.t) / (f1.t - f0.t);
  const later = new Map(f1.ships.map((s) => [s.id, s]));
  const ships = f0.ships.map((s) => {
    const n = later.get(s.id);
    if (!n || !s.alive) return s;
    return Object.assign({}, s, { pos: s.pos.map((v, j) => v + (n.pos[j] - v) * k) });
  });
  return Object.assign({}, f0, { ships });
}

function followID(frame) {
  if (!follow) return 0;
  const [kind, v] = follow.split(":");
  const n = Number(v);
  const s = frame.ships.find((x) => (kind === "p" ? x.owner_id === n && x.alive : x.id === n));
  return s ? s.id : 0;
}

function renderScore(players) {
  $("scoreboard").tBodies[0].replaceChildren(...players.map((p) => {
    const tr = el("tr");
    tr.dataset.player = p.name;
    const name = el("td", null, "name");
    name.append(cut(p.name));
    tr.append(name, el("td", p.team < 0 ? "–" : p.team), el("td", p.kills, "num kills"),
      el("td", p.deaths, "num deaths"), el("td", p.score, "num score"));
    return tr;
  }));
}

function renderFeed() {
  const ks = sum.kills.filter((k) => k.t <= t).slice(-10).reverse();
  $("killfeed").replaceChildren(...ks.map((k) => {
    const li = el("li");
    li.dataset.t = k.t;
    li.append(el("span", fmt(k.t), "when"));
    if (k.killer) li.append(el("span", k.killer, "who"), " ▸ ");
    li.append(el("span", k.victim || "ship " + k.victim_ship, "victim"));
    li.append(el("span", " (" + (k.killer ? k.weapon || k.cause : k.cause.replace("_", " ")) + ")", "how"));
    return li;
  }));
  const cs = sum.chat.filter((c) => c.t <= t).slice(-12).reverse();
  $("chatlog").replaceChildren(...cs.map((c) => {
    // Lines not every player received are marked: the admin's replay
    // shows them, the public view (?public=1, the spectator page) never.
    const held = c.muted ? "muted" : c.cancelled ? "held back" : "";
    const li = el("li", null, (c.team ? "team-chat " : "") + (held ? "held" : ""));
    li.append(el("span", fmt(c.t), "when"), cut(c.name, "who"), el("span", ": ", "who"));
    if (c.team) li.append(el("span", "[team] ", "label"));
    if (held) li.append(el("span", "[" + held + "] ", "label"));
    li.append(el("span", c.text));
    return li;
  }));
}

function render() {
  const f = frameAt(t);
  $("clock").textContent = fmt(t);
  if (document.activeElement !== $("timeline")) $("timeline").value = String(Math.floor(t));
  if (!f) return;
  view.draw(f, effectsAt(win.events, f, t), followID(f));
  // The tables change with the frame (every 100 ms of match time), not
  // with every animation frame.
  if (shown !== f.t) {
    shown = f.t;
    renderScore(f.players);
    renderFeed();
  }
  document.body.dataset.t = String(f.t);
  document.body.dataset.state = "ready";
}

function seek(ms) {
  t = Math.max(0, Math.min(sum.duration_ms, ms));
  ensure().then(render, (e) => { $("clock").textContent = e.message; });
  render();
}

function loop(ts) {
  if (playing && lastTs !== null) {
    t += (ts - lastTs) * speed;
    if (t >= sum.duration_ms) { t = sum.duration_ms; setPlaying(false); }
  }
  ensure().catch(() => {});
  lastTs = ts;
  render();
  requestAnimationFrame(loop);
}

function setPlaying(on) {
  playing = on;
  $("play").textContent = on ? "❚❚ pause" : "▶ play";
}

function fillFollow() {
  const sel = $("follow");
  const seen = new Set();
  for (const p of sum.players) {
    const o = el("option", p.name);
    o.value = "p:" + p.id;
    if (!seen.has(o.value)) { seen.add(o.value); sel.append(o); }
  }
  for (const s of sum.ships.filter((x) => x.host)) {
    const o = el("option", s.name + (s.class ? " (" + s.class + ")" : ""));
    o.value = "s:" + s.id;
    sel.append(o);
  }
}

function markers() {
  const box = $("markers");
  box.replaceChildren(...sum.kills.map((k, i) => {
    const b = el("button", null, "marker" + (k.victim_host ? " host" : ""));
    b.type = "button";
    b.dataset.i = String(i);
    b.dataset.t = String(k.t);
    b.title = fmt(k.t) + " " + (k.killer ? k.killer + " ▸ " : "") + (k.victim || "");
    b.style.left = (sum.duration_ms > 0 ? (100 * k.t) / sum.duration_ms : 0) + "%";
    b.addEventListener("click", () => seek(k.t));
    return b;
  }));
}

// outcomeText says who won, as the mission told END_GAME (bc.end_game):
// the winning team (teams 0/1 are a stock client's Team 1/2) or player,
// why, and the team scores; "" when the mission gave none.
function outcomeText(o) {
  if (!o) return "";
  const who = [];
  if (o.winner_team !== undefined && o.winner_team !== null) who.push("team " + o.winner_team + " (Team " + (o.winner_team + 1) + " on a client)");
  if (o.winner) who.push(o.winner_name || ("player " + o.winner));
  let s = who.length ? who.join(", ") + " won" : "";
  if (o.why) s += (s ? ": " : "") + o.why;
  if (o.teams && o.teams.length) s += (s ? "; " : "") + o.teams.map((t) => "team " + t.team + " " + t.score + " points, " + t.kills + " kills").join(", ");
  return s;
}

async function openReplay() {
  sum = await api("replays/" + encodeURIComponent(replayID));
  const h = sum.header;
  $("r-server").textContent = h.server;
  $("r-mode").textContent = h.mode;
  $("r-map").textContent = h.map;
  $("r-started").textContent = new Date(h.started).toLocaleString();
  $("r-reason").textContent = sum.footer ? sum.footer.reason : "unfinished";
  const won = outcomeText(sum.footer);
  $("r-outcome").textContent = won;
  $("r-outcome-box").hidden = won === "";
  document.title = h.server + " – " + h.mode + " replay";
  $("length").textContent = fmt(sum.duration_ms);
  $("timeline").max = String(sum.duration_ms);
  $("login").hidden = true;
  $("replay").hidden = false;
  fillFollow();
  markers();
  seek(0);
  requestAnimationFrame(loop);
}

async function openList() {
  const list = await api("replays");
  $("login").hidden = true;
  $("list-view").hidden = false;
  $("replays").tBodies[0].replaceChildren(...list.map((e) => {
    const tr = el("tr");
    const a = el("a", new Date(e.started).toLocaleString());
    a.href = "replay.html?id=" + encodeURIComponent(e.id);
    const td = el("td");
    td.append(a);
    tr.append(td, el("td", e.server), el("td", e.mode), el("td", e.map), el("td", fmt(e.duration_ms), "num"),
      el("td", e.finished ? e.reason : "unfinished"), el("td", outcomeText(e)), el("td", Math.round(e.bytes / 1024) + " KiB", "num"));
    return tr;
  }));
}

function start() {
  if (!token) { showLogin(); return; }
  (replayID ? openReplay() : openList()).catch((e) => { if (e.message !== "unauthorized") showLogin(e.message); });
}

onToken(start);
$("play").addEventListener("click", () => { if (t >= sum.duration_ms) t = 0; setPlaying(!playing); });
$("speed").addEventListener("change", () => { speed = Number($("speed").value); });
$("follow").addEventListener("change", () => { follow = $("follow").value; });
$("timeline").addEventListener("input", () => seek(Number($("timeline").value)));
start();
