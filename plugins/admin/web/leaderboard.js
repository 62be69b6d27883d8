// bcserver leaderboard: career statistics from the admin API
// (/api/v1/leaderboard). Names are attacker-controlled: textContent only.
"use strict";

function hours(s) {
  const m = Math.round(s / 60);
  return Math.floor(m / 60) + " h " + String(m % 60).padStart(2, "0") + " min";
}

async function load() {
  if (!token) { showLogin(); return; }
  let data;
  try {
    data = await request("GET", "api/v1/leaderboard?by=" + encodeURIComponent($("by").value) + "&min=" + encodeURIComponent($("min").value || "1") + "&limit=100");
  } catch (e) {
    if (e.message !== "unauthorized") showLogin(e.message);
    return;
  }
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

onToken(load);
$("by").addEventListener("change", load);
$("min").addEventListener("change", load);
load();
