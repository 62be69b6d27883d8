// The public rating leaderboard (/api/ratings). Account names are
// player-chosen: textContent only.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function load() {
  const r = await fetch("api/ratings?limit=100&family=" + encodeURIComponent($("family").value));
  if (!r.ok) return;
  const data = await r.json();
  $("season").textContent = "season " + data.season;
  $("leaders").tBodies[0].replaceChildren(...data.ratings.map((e, i) => {
    const tr = el("tr");
    tr.append(el("td", i + 1, "num"), el("td", e.account, "name"), el("td", Math.round(e.rating), "num"),
      el("td", Math.round(e.deviation), "num"), el("td", e.matches, "num"));
    return tr;
  }));
}

$("family").addEventListener("change", load);
load();
