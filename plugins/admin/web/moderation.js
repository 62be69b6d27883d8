// bcserver moderation: timed bans, warnings and notes, the audit log
// (/api/v1/moderation/..., /api/v1/audit). Names, reasons and notes are
// typed by players and moderators: textContent only.
"use strict";

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem("bcserver-token") || "";
let only = "";

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

async function api(path, body) {
  const opts = { headers: { Authorization: "Bearer " + token } };
  if (body !== undefined) { opts.method = "POST"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (r.status === 401) { showLogin("The token was refused."); throw new Error("token"); }
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

const when = (t) => t ? new Date(t).toLocaleString() : "";

async function loadBans() {
  const data = await api("api/v1/moderation/bans" + ($("ban-all").checked ? "?all=1" : ""));
  $("bans").tBodies[0].replaceChildren(...data.bans.map((b) => {
    const tr = el("tr");
    const lift = el("button", "lift");
    lift.hidden = !!b.lifted;
    lift.addEventListener("click", async () => {
      try { await api("api/v1/moderation/lift", { id: b.id }); loadBans(); } catch (e) { $("ban-error").textContent = e.message; }
    });
    const exp = b.lifted ? "lifted " + when(b.lifted) : (b.expires ? when(b.expires) : "permanent");
    const td = el("td"); td.append(lift);
    tr.append(el("td", b.id, "num"), el("td", b.target, "name"), el("td", b.reason), el("td", b.by), el("td", when(b.created)), el("td", exp), td);
    return tr;
  }));
}

async function loadRecords() {
  const data = await api("api/v1/moderation/records" + (only ? "?name=" + encodeURIComponent(only) : ""));
  $("records").tBodies[0].replaceChildren(...data.records.map((r) => {
    const tr = el("tr");
    tr.append(el("td", r.name, "name"), el("td", r.kind), el("td", r.text), el("td", r.by), el("td", when(r.created)));
    return tr;
  }));
}

async function loadAudit() {
  try {
    const data = await api("api/v1/audit?limit=200");
    $("audit").tBodies[0].replaceChildren(...data.audit.map((a) => {
      const tr = el("tr");
      tr.append(el("td", when(a.at)), el("td", a.by), el("td", a.role), el("td", a.action), el("td", a.args), el("td", a.status, "num"));
      return tr;
    }));
  } catch (e) {
    $("audit-error").textContent = e.message; // a viewer's or moderator's token: the audit log is the admins'
  }
}

async function load() {
  if (!token) { showLogin(); return; }
  try {
    await loadBans();
    $("login").hidden = true;
    $("board").hidden = false;
    await loadRecords();
    await loadAudit();
  } catch (e) {
    if (e.message !== "token") showLogin(e.message);
  }
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  token = $("token").value.trim();
  localStorage.setItem("bcserver-token", token);
  load();
});
$("ban-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("ban-error").textContent = "";
  try {
    await api("api/v1/moderation/ban", { target: $("ban-target").value.trim(), duration: $("ban-duration").value.trim(), reason: $("ban-reason").value });
    loadBans();
  } catch (err) { $("ban-error").textContent = err.message; }
});
$("ban-all").addEventListener("change", loadBans);
$("rec-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("rec-error").textContent = "";
  try {
    await api("api/v1/moderation/record", { name: $("rec-name").value.trim(), kind: $("rec-kind").value, text: $("rec-text").value });
    loadRecords();
  } catch (err) { $("rec-error").textContent = err.message; }
});
$("rec-filter").addEventListener("click", () => { only = $("rec-name").value.trim(); loadRecords(); });
load();
