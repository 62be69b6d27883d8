// bcserver spectator page: a running match, some seconds behind the game,
// read only. Names and chat are attacker-controlled text: the page only
// sets textContent and draws with fillText.
"use strict";

const view = new TacticalView($("top"), $("side"));
let game = new URLSearchParams(location.search).get("game") || "";
let cur = null, curAt = 0, src = null;

function fmt(ms) {
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function show(v) {
  cur = v;
  curAt = performance.now();
  $("server-name").textContent = v.server || "bcserver";
  document.title = (v.server || "bcserver") + " – spectate";
  $("mode").textContent = v.mode || "–";
  $("map").textContent = v.map || "–";
  $("clock").textContent = v.live ? fmt(v.t) : "–";
  $("state").textContent = v.live ? "live" : "between matches";
  $("state").className = "badge " + (v.live ? "live" : "over");
  $("delay").textContent = "shown " + v.delay_s + " s behind the game";
  $("scoreboard").tBodies[0].replaceChildren(...v.frame.players.map((p) => {
    const tr = el("tr");
    tr.dataset.player = p.name;
    const name = el("td");
    name.append(cut(p.name));
    tr.append(name, el("td", p.team < 0 ? "–" : p.team), el("td", p.kills, "num kills"),
      el("td", p.deaths, "num deaths"), el("td", p.score, "num score"));
    return tr;
  }));
  $("killfeed").replaceChildren(...v.kills.slice().reverse().map((k) => {
    const li = el("li");
    li.append(el("span", fmt(k.t), "when"));
    if (k.killer) li.append(cut(k.killer, "who"), " ▸ ");
    li.append(k.victim ? cut(k.victim) : el("span", "ship " + k.victim_ship), el("span", " (" + k.cause.replace("_", " ") + ")"));
    return li;
  }));
  $("chatlog").replaceChildren(...v.chat.slice().reverse().map((c) => {
    const li = el("li");
    li.append(el("span", fmt(c.t), "when"), cut(c.name, "who"), el("span", ": ", "who"), el("span", c.text));
    return li;
  }));
  document.body.dataset.t = String(v.t);
  document.body.dataset.ships = String(v.frame.ships.length);
}

function draw() {
  if (cur) {
    const t = cur.t + (cur.live ? performance.now() - curAt : 0);
    view.draw(cur.frame, effectsAt(cur.events, cur.frame, t), 0);
  }
  requestAnimationFrame(draw);
}

// The stream is read with fetch (not EventSource) so a refusal can be
// told apart from a lost connection: at the viewer cap the server answers
// 503 with Retry-After, and the page says so and backs off (doubling up
// to a minute) instead of retrying every few seconds for ever.
let streaming = null, retryTimer = 0, backoff = 0;

function retryIn(secs, why) {
  clearTimeout(retryTimer);
  let left = Math.max(1, Math.round(secs));
  const tick = () => {
    $("state").textContent = why + ", retrying in " + left + " s";
    $("state").className = "badge over";
    if (left-- <= 0) { connect(); return; }
    retryTimer = setTimeout(tick, 1000);
  };
  tick();
}

async function connect() {
  clearTimeout(retryTimer);
  if (streaming) streaming.abort();
  const ctl = new AbortController();
  streaming = ctl;
  let why = "connection lost";
  let wait = 2;
  try {
    const r = await fetch("api/stream" + (game ? "?game=" + encodeURIComponent(game) : ""), { signal: ctl.signal });
    if (r.status === 503 || r.status === 429) {
      why = r.status === 503 ? "full" : "too many requests";
      const ra = Number(r.headers.get("Retry-After")) || 5;
      backoff = Math.min(60, Math.max(ra, backoff * 2));
      wait = backoff;
    } else if (r.ok) {
      backoff = 0;
      const reader = r.body.getReader();
      const dec = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = ev.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (ev.startsWith("event: view") && data) show(JSON.parse(data));
        }
      }
    }
  } catch (e) {
    if (ctl.signal.aborted) return;
  }
  if (streaming === ctl) retryIn(wait, why);
}

async function games() {
  try {
    const r = await fetch("api/games");
    const list = await r.json();
    if (list.length > 1) {
      const sel = $("game");
      sel.replaceChildren(...list.map((g) => {
        const o = el("option", g.server + " (" + g.mode + ", " + g.game + ")");
        o.value = g.game;
        o.selected = g.game === game;
        return o;
      }));
      sel.hidden = false;
      sel.addEventListener("change", () => { game = sel.value; history.replaceState(null, "", "?game=" + encodeURIComponent(game)); connect(); });
    }
  } catch (e) { /* one game */ }
}

games();
connect();
requestAnimationFrame(draw);
