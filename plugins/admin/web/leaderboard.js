// bcserver leaderboard: career statistics from the admin API
// (/api/v1/leaderboard). Names are attacker-controlled: textContent only.
"use strict";

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem("bcserver-token") || "";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function showLogin(msg) {
  $("board").hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = msg || "";
}

function hours(s) {
  const m = Math.round(s / 60);
  return Math.floor(m / 60) + " h " + String(m % 60).padStart(2, "0") + " min";
}

async function load() {
  if (!token) { showLogin(); return; }
  const r = await fetch("api/v1/leaderboard?by=" + encodeURIComponent($("by").value) + "&min=" + encodeURIComponent($("min").value || "1") + "&limit=100",
    { headers: { Authorization: "Bearer " + token } });
  if (r.status === 401) { showLogin("The token was refused."); return; }
  const data = await r.json();
  if (!r.ok) { showLogin(data.error || r.statusText); return; }
  $("login").hidden = true;
  $("board").hidden = false;
  $("leaders").tBodies[0].replaceChildren(...data.map((c, i) => {
    const tr = el("tr");
    tr.dataset.player = c.identity;
    const total = (d) => Math.round(d.phaser + d.pulse + d.torpedo + d.collision + d.other);
    const dealt = el("td", total(c.damage_dealt), "num");
    dealt.title = "phaser " + Math.round(c.damage_dealt.phaser) + ", pulse " + Math.round(c.damage_dealt.pulse) +
      ", torpedo " + Math.round(c.damage_dealt.torpedo) + ", collision " + Math.round(c.damage_dealt.collision);
    tr.append(el("td", i + 1, "num"), el("td", c.names[0] || c.identity, "name"), el("td", c.matches, "num"), el("td", c.kills, "num kills"),
      el("td", c.deaths, "num"), el("td", c.assists, "num"), el("td", c.score, "num score"), el("td", c.best_score, "num"), dealt,
      el("td", total(c.damage_taken), "num"), el("td", hours(c.seconds_played), "num"), el("td", c.favourite_class || "–"));
    return tr;
  }));
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  token = $("token").value.trim();
  localStorage.setItem("bcserver-token", token);
  load();
});
$("by").addEventListener("change", load);
$("min").addEventListener("change", load);
load();
