// bcserver ratings: the Glicko-2 leaderboard from the admin API
// (/api/v1/ratings). Account names are player-chosen: textContent only.
"use strict";

async function load() {
  if (!token) { showLogin(); return; }
  let url = "api/v1/ratings?limit=100&family=" + encodeURIComponent($("family").value);
  if ($("season").value.trim()) url += "&season=" + encodeURIComponent($("season").value.trim());
  let data;
  try {
    data = await request("GET", url);
  } catch (e) {
    if (e.message !== "unauthorized") showLogin(e.message);
    return;
  }
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

onToken(load);
$("family").addEventListener("change", load);
$("season").addEventListener("change", load);
load();
