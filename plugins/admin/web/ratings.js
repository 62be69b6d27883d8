// bcserver ratings: the Glicko-2 leaderboard from the admin API
// (/api/v1/ratings). Account names are player-chosen: textContent only.
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

async function load() {
  if (!token) { showLogin(); return; }
  let url = "api/v1/ratings?limit=100&family=" + encodeURIComponent($("family").value);
  if ($("season").value.trim()) url += "&season=" + encodeURIComponent($("season").value.trim());
  const r = await fetch(url, { headers: { Authorization: "Bearer " + token } });
  if (r.status === 401) { showLogin("The token was refused."); return; }
  const data = await r.json();
  if (!r.ok) { showLogin(data.error || r.statusText); return; }
  $("login").hidden = true;
  $("board").hidden = false;
  $("season-shown").textContent = "season " + data.season + ", " + data.family;
  $("leaders").tBodies[0].replaceChildren(...data.ratings.map((e, i) => {
    const tr = el("tr");
    tr.append(el("td", i + 1, "num"), el("td", e.account, "name"), el("td", Math.round(e.rating), "num score"),
      el("td", Math.round(e.deviation), "num"), el("td", e.volatility.toFixed(4), "num"), el("td", e.matches, "num"),
      el("td", new Date(e.updated).toLocaleString()));
    return tr;
  }));
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  token = $("token").value.trim();
  localStorage.setItem("bcserver-token", token);
  load();
});
$("family").addEventListener("change", load);
$("season").addEventListener("change", load);
load();
